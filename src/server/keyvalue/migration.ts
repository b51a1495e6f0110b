// Migration 20 (issue #5): the per-user key-value store behind keyvalue/v1/{key}.
import type { Migration } from '../db/migrations';

export const keyValueMigration: Migration = {
  version: 20,
  name: 'key-value store per user',
  async up(tx) {
    // owner is 'User/<id>' or 'ClientApplication/<id>': values belong to a person (or client), not
    // to a project membership, as in Medplum.
    await tx.query(`
      CREATE TABLE key_value (
        owner text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner, key)
      )`);
  },
};
