// The auth module's tables: failed sign-in attempts per account, address and MFA (throttle.ts).
import type { Migration } from '../db';

/** Migration 4: the failure counts of the sign-in throttles (throttle.ts). */
export const authFailureMigration: Migration = {
  version: 4,
  name: 'sign-in failure counts',
  async up(tx) {
    await tx.query(`
      CREATE TABLE auth_failure (
        scope text NOT NULL,
        key text NOT NULL,
        failures integer NOT NULL,
        reset_at timestamptz NOT NULL,
        PRIMARY KEY (scope, key)
      )`);
    await tx.query('CREATE INDEX auth_failure_reset_idx ON auth_failure (reset_at)');
  },
};

/** The auth module's migrations, collected by src/server/migrations.ts. */
export const authMigrations: readonly Migration[] = [authFailureMigration];
