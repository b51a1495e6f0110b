// The agents module's tables: which instance each agent is connected to, and the pushes and
// answers instances pass to each other (relay.ts).
import type { Migration } from '../db';

export const agentRelayMigration: Migration = {
  version: 86,
  name: 'agent connections and relay',
  async up(tx) {
    await tx.query(`
      CREATE TABLE agent_connection (
        agent_id text PRIMARY KEY,
        instance_id text NOT NULL,
        destinations jsonb,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`);
    await tx.query(`
      CREATE TABLE agent_relay (
        id bigserial PRIMARY KEY,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  },
};

/** The agents module's migrations, collected by src/server/migrations.ts. */
export const agentMigrations: readonly Migration[] = [agentRelayMigration];
