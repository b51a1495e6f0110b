// The OAuth module's tables: the client assertion ids already used (used-assertions.ts).
import type { Migration } from '../db';

/** Migration 3: the table of used assertion ids. */
export const usedAssertionMigration: Migration = {
  version: 3,
  name: 'used client assertion ids',
  async up(tx) {
    await tx.query(`
      CREATE TABLE used_assertion (
        issuer text NOT NULL,
        jti text NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (issuer, jti)
      )`);
    await tx.query('CREATE INDEX used_assertion_expires_idx ON used_assertion (expires_at)');
  },
};

/** The OAuth module's migrations, collected by src/server/migrations.ts. */
export const oauthMigrations: readonly Migration[] = [usedAssertionMigration];
