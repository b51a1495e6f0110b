// The migration runner: versioned schema changes, applied once each, in their own transaction, at
// start-up. The runner knows no table: each server module owns its tables and exports their
// migrations beside its routes (e.g. keyvalue/migrations.ts), and src/server/migrations.ts collects
// them. Never edit a released migration; append a new one with a version no module has used.
import type { Database, Queryable } from './database';

export interface Migration {
  version: number;
  name: string;
  up(tx: Queryable): Promise<void>;
}

// Any constant works; it only has to be the same for every instance migrating this database.
const MIGRATION_LOCK_KEY = 74_201_002;

/** Applies the migrations not yet recorded in schema_migrations; returns the versions applied. */
export async function migrate(db: Database, migrations: readonly Migration[]): Promise<number[]> {
  checkVersionsUnique(migrations);
  await db.query(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const didApply = await db.transaction(async (tx) => {
      // Several server instances may start together on one PostgreSQL: one migrates, the others wait.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done.rows.length > 0) {
        return false;
      }
      await migration.up(tx);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (didApply) {
      applied.push(migration.version);
    }
  }
  return applied;
}

/** Two modules claiming one version would make one of them never run on a database that has the other. */
function checkVersionsUnique(migrations: readonly Migration[]): void {
  const names = new Map<number, string>();
  for (const migration of migrations) {
    const other = names.get(migration.version);
    if (other !== undefined) {
      throw new Error(`Migrations '${other}' and '${migration.name}' both have version ${migration.version}`);
    }
    names.set(migration.version, migration.name);
  }
}
