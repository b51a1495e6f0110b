// The bots module's tables: the jobs of Subscription → Bot executions (subscription-jobs.ts).
import type { Migration } from '../db';

export const botSubscriptionJobMigration: Migration = {
  version: 85,
  name: 'bot subscription jobs',
  async up(tx) {
    await tx.query(`
      CREATE TABLE bot_subscription_job (
        id bigserial PRIMARY KEY,
        subscription_id text NOT NULL,
        event_seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (subscription_id, event_seq)
      )`);
    await tx.query(
      `CREATE INDEX bot_subscription_job_due_idx ON bot_subscription_job (next_attempt_at)
       WHERE status IN ('pending', 'running')`,
    );
  },
};

/** The bots module's migrations, collected by src/server/migrations.ts. */
export const botMigrations: readonly Migration[] = [botSubscriptionJobMigration];
