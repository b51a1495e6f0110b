// Migration 60: the FHIRcast hub's state lives in the database so that every instance
// serves every topic: subscriptions (the endpoint id is the WebSocket's capability), the current
// context per project and topic, and the messages published, which instances hear of through
// LISTEN/NOTIFY (store.ts) as live updates do.
import type { Migration } from '../db';

export const FHIRCAST_CHANNEL_PREFIX = 'bloom_fhircast_';

export const fhircastMigration: Migration = {
  version: 60,
  name: 'fhircast hub',
  async up(tx) {
    await tx.query(`
      CREATE TABLE fhircast_subscription (
        endpoint_id text PRIMARY KEY,
        project text NOT NULL,
        topic text NOT NULL,
        events text[] NOT NULL,
        subscriber text NOT NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await tx.query(`
      CREATE TABLE fhircast_context (
        project text NOT NULL,
        topic text NOT NULL,
        content jsonb NOT NULL,
        updated timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project, topic)
      )`);
    // Messages are kept only long enough for every instance to load them after the NOTIFY.
    await tx.query(`
      CREATE TABLE fhircast_message (
        seq bigserial PRIMARY KEY,
        project text NOT NULL,
        topic text NOT NULL,
        message jsonb NOT NULL,
        publisher text NOT NULL,
        only_subscriber text,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await tx.query('CREATE INDEX fhircast_message_created ON fhircast_message (created)');
  },
};

/**
 * Migration 90: who each topic belongs to (topic-access.ts). The owner is a profile reference, the
 * membership it signed in with is kept beside it; `shared_with` lists the other profiles the owner
 * lets in. Subscriptions and contexts from before topics had owners are ended: nobody can tell whose
 * they were, and an app subscribes again when its socket is refused.
 */
export const fhircastTopicOwnersMigration: Migration = {
  version: 90,
  name: 'fhircast topic owners',
  async up(tx) {
    await tx.query(`
      CREATE TABLE fhircast_topic (
        project text NOT NULL,
        topic text NOT NULL,
        owner text NOT NULL,
        owner_membership text,
        shared_with text[] NOT NULL DEFAULT '{}',
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project, topic)
      )`);
    await tx.query('DELETE FROM fhircast_subscription');
    await tx.query('DELETE FROM fhircast_context');
  },
};

/** The FHIRcast hub's migrations, collected by src/server/migrations.ts. */
export const fhircastMigrations: readonly Migration[] = [fhircastMigration, fhircastTopicOwnersMigration];
