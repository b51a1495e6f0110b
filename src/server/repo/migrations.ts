// The repository's tables: the current version of every resource and every version ever written
// (migration 1), and the indexes the sign-in flows look platform resources up by (migration 2).
import type { Migration } from '../db';

export const resourceStoreMigration: Migration = {
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
};

export const identityLookupsMigration: Migration = {
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
};

/** The repository's migrations, collected by src/server/migrations.ts. */
export const repoMigrations: readonly Migration[] = [resourceStoreMigration, identityLookupsMigration];
