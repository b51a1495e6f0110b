// Migration 21: the first response to each
// Idempotency-Key, per caller, so a retried POST answers the same without writing again.
import type { Migration } from '../db';

export const idempotencyMigration: Migration = {
  version: 21,
  name: 'idempotency keys',
  async up(tx) {
    // status IS NULL while the first request is still being handled.
    await tx.query(`
      CREATE TABLE idempotency_key (
        owner text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        status integer,
        headers jsonb,
        body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner, key)
      )`);
    await tx.query('CREATE INDEX idempotency_key_created_idx ON idempotency_key (created_at)');
  },
};

/** The idempotency module's migrations, collected by src/server/migrations.ts. */
export const idempotencyMigrations: readonly Migration[] = [idempotencyMigration];
