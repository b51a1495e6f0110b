// Every table the server keeps, collected from the modules that own them: each module exports its
// migrations beside its routes (keyvalue/migrations.ts, ...), and the runner in db/ applies them in
// version order, once each. A new module with tables adds its list here.
import { agentMigrations } from './agents/migrations';
import { authMigrations } from './auth/migrations';
import { botMigrations } from './bots/migrations';
import { migrate } from './db';
import type { Database, Migration } from './db';
import { exportMigrations } from './export/migrations';
import { fhircastMigrations } from './fhircast/migrations';
import { idempotencyMigrations } from './idempotency/migrations';
import { keyValueMigrations } from './keyvalue/migrations';
import { liveMigrations } from './live/migrations';
import { oauthMigrations } from './oauth/migrations';
import { repoMigrations } from './repo/migrations';
import { searchMigrations } from './search/migrations';

/** The migrations of each server module that owns tables, by module folder. */
export const MODULE_MIGRATIONS: Readonly<Record<string, readonly Migration[]>> = {
  repo: repoMigrations,
  oauth: oauthMigrations,
  auth: authMigrations,
  search: searchMigrations,
  keyvalue: keyValueMigrations,
  idempotency: idempotencyMigrations,
  live: liveMigrations,
  fhircast: fhircastMigrations,
  export: exportMigrations,
  bots: botMigrations,
  agents: agentMigrations,
};

/** Every module's migrations, in version order. */
export const SERVER_MIGRATIONS: readonly Migration[] = Object.values(MODULE_MIGRATIONS)
  .flat()
  .sort((a, b) => a.version - b.version);

/** Brings the database to the server's schema; returns the versions applied (none when up to date). */
export async function migrateServer(db: Database): Promise<number[]> {
  // One query answers the usual start (nothing to apply); the runner checks each migration in a
  // transaction of its own, 33 statements on a warm start.
  if (await allApplied(db, SERVER_MIGRATIONS)) return [];
  return migrate(db, SERVER_MIGRATIONS);
}

/** Whether schema_migrations already records every version (a recorded migration is never undone). */
async function allApplied(db: Database, migrations: readonly Migration[]): Promise<boolean> {
  const table = await db.query<{ present: boolean }>(
    `SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
  );
  if (!table.rows[0]?.present) return false;
  const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  const recorded = new Set(rows.map((row) => row.version));
  return migrations.every((migration) => recorded.has(migration.version));
}
