// Migration 80: one row per $export job, so a job outlives the process that
// started it. The runner holding a job renews its lease while it works; a job whose lease ran out
// (its server stopped or crashed) is taken up again by any instance from its last checkpoint.
import type { Migration } from '../db';

export const exportJobMigration: Migration = {
  version: 80,
  name: 'bulk export jobs',
  async up(tx) {
    await tx.query(`
      CREATE TABLE export_job (
        id uuid PRIMARY KEY,
        -- Who may poll, cancel and download: a membership (or, for the server's own work, an author) reference.
        owner text NOT NULL,
        -- The RepositoryContext the export reads as (access control applies on every page).
        context jsonb NOT NULL,
        request text NOT NULL,
        level text NOT NULL,
        -- Patient/{id} references the export is limited to (Group members, or the patient parameter).
        patients text[],
        types text[] NOT NULL,
        since timestamptz,
        transaction_time timestamptz NOT NULL,
        status text NOT NULL,
        -- Checkpoint: the type being written and the last id already in a stored file.
        type_index integer NOT NULL DEFAULT 0,
        cursor text,
        exported bigint NOT NULL DEFAULT 0,
        -- Files written so far: [{type, binaryId, count}].
        output jsonb NOT NULL DEFAULT '[]',
        error text,
        attempts integer NOT NULL DEFAULT 0,
        lease_owner text,
        lease_until timestamptz,
        created timestamptz NOT NULL DEFAULT now(),
        updated timestamptz NOT NULL DEFAULT now()
      )`);
    await tx.query(
      `CREATE INDEX export_job_runnable_idx ON export_job (created) WHERE status IN ('accepted', 'in-progress')`,
    );
  },
};

/** Bulk export's migrations, collected by src/server/migrations.ts. */
export const exportMigrations: readonly Migration[] = [exportJobMigration];
