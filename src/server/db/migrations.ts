// Versioned schema migrations: an ordered list, applied once each, in its own transaction, at
// start-up. Never edit a released migration; append a new one.
import { createSearchTables } from '../search/schema';
import { reindexAll } from '../search/reindex';
import { textSearchMigration } from '../search/text-migration';
import type { Database, Queryable } from './database';
import { idempotencyMigration } from '../idempotency/migration';
import { keyValueMedplumKeysMigration, keyValueMigration } from '../keyvalue/migration';
import { authFailureMigration } from '../auth/throttle';
import { usedAssertionMigration } from '../oauth/used-assertions';
import { liveNotifyMigration } from '../live/migration';
import { fhircastMigration } from '../fhircast/migration';
import { exportJobMigration } from '../export/migration';
import { botSubscriptionJobMigration } from '../bots/subscription-jobs';
import { agentRelayMigration } from '../agents/relay';
import { typedTableMigration } from '../search/typed-table-migration';

export interface Migration {
  version: number;
  name: string;
  up(tx: Queryable): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'resource store',
    async up(tx) {
      // The current version of every resource. Deleted resources keep a row (deleted = true) so a
      // read answers 410 Gone. Columns beyond content are there for access control and search.
      await tx.query(`
        CREATE TABLE resource (
          resource_type text NOT NULL,
          id text NOT NULL,
          version_id uuid NOT NULL,
          content jsonb NOT NULL,
          last_updated timestamptz NOT NULL,
          deleted boolean NOT NULL DEFAULT false,
          project text,
          compartments text[] NOT NULL DEFAULT '{}',
          seq bigint NOT NULL,
          PRIMARY KEY (resource_type, id)
        )`);
      // seq is the resource_history.seq of the current version: a total write order (timestamps tie).
      await tx.query(
        'CREATE INDEX resource_newest_idx ON resource (resource_type, seq DESC) WHERE NOT deleted',
      );
      await tx.query('CREATE INDEX resource_compartments_idx ON resource USING gin (compartments)');
      await tx.query('CREATE INDEX resource_project_idx ON resource (project)');
      // Every version ever written, deletes included (content is null for a delete). seq orders
      // versions written within the same millisecond.
      await tx.query(`
        CREATE TABLE resource_history (
          seq bigserial PRIMARY KEY,
          version_id uuid NOT NULL UNIQUE,
          resource_type text NOT NULL,
          id text NOT NULL,
          content jsonb,
          last_updated timestamptz NOT NULL,
          deleted boolean NOT NULL DEFAULT false
        )`);
      await tx.query(
        'CREATE INDEX resource_history_instance_idx ON resource_history (resource_type, id, seq DESC)',
      );
      await tx.query('CREATE INDEX resource_history_type_idx ON resource_history (resource_type, seq DESC)');
    },
  },
  {
    version: 2,
    name: 'identity lookups',
    async up(tx) {
      // The sign-in flows find platform resources by a field before a search engine exists
      // (src/server/repo/lookups.ts): one partial expression index per lookup keeps each an index scan.
      await tx.query(
        "CREATE INDEX resource_user_email_idx ON resource (lower(content->>'email')) WHERE resource_type = 'User'",
      );
      await tx.query(
        `CREATE INDEX resource_membership_user_idx ON resource ((content->'user'->>'reference'))
         WHERE resource_type = 'ProjectMembership'`,
      );
      await tx.query(
        `CREATE INDEX resource_membership_project_idx ON resource ((content->'project'->>'reference'))
         WHERE resource_type = 'ProjectMembership'`,
      );
      await tx.query(
        "CREATE INDEX resource_login_code_idx ON resource ((content->>'code')) WHERE resource_type = 'Login'",
      );
      await tx.query(
        `CREATE INDEX resource_domain_idx ON resource (lower(content->>'domain'))
         WHERE resource_type = 'DomainConfiguration'`,
      );
    },
  },
  usedAssertionMigration,
  authFailureMigration,
  {
    version: 10,
    name: 'search index tables',
    async up(tx) {
      // Typed index tables (src/server/search/schema.ts explains the layout), filled
      // from the resources already stored.
      await createSearchTables(tx);
      await reindexAll(tx);
    },
  },
  textSearchMigration,
  keyValueMigration,
  idempotencyMigration,
  keyValueMedplumKeysMigration,
  liveNotifyMigration,
  fhircastMigration,
  exportJobMigration,
  botSubscriptionJobMigration,
  agentRelayMigration,
  typedTableMigration,
];

// Any constant works; it only has to be the same for every instance migrating this database.
const MIGRATION_LOCK_KEY = 74_201_002;

/** Applies the migrations not yet recorded in schema_migrations; returns the versions applied. */
export async function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
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
