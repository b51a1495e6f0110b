// Lookups of platform resources by a field, for the sign-in flows, before a search engine exists.
// Each is one SQL statement served by an expression index of migration 2 (identity lookups). They
// read the store unrestricted: callers are the server's own auth code, never a user's request.
import type { DomainConfiguration, JsonWebKey, Login, ProjectMembership, User } from '@medplum/fhirtypes';
import type { Queryable } from '../db';

async function contents<T>(db: Queryable, sql: string, params: string[]): Promise<T[]> {
  const { rows } = await db.query<{ content: T }>(sql, params);
  return rows.map((row) => row.content);
}

/**
 * The User with this email, compared case-insensitively (emails are stored as typed). Users are
 * server-wide, or scoped to one project (User.project, Medplum's invited patients). With a project:
 * its own scoped User first, then a server-wide one; users scoped to other projects never match.
 * Without one: a server-wide User first, then (so a scoped patient can still sign in to the app,
 * which names no project) the oldest scoped one.
 */
export async function findUserByEmail(
  db: Queryable,
  email: string,
  projectId?: string,
): Promise<User | undefined> {
  const users = await contents<User>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'User' AND NOT deleted
     AND lower(content->>'email') = lower($1)
     AND ($2 = '' OR content->'project' IS NULL OR content->'project'->>'reference' = 'Project/' || $2)
     ORDER BY (content->'project' IS NOT NULL AND content->'project'->>'reference' = 'Project/' || $2) DESC,
       content->'project' IS NULL DESC, seq LIMIT 1`,
    [email.trim(), projectId ?? ''],
  );
  return users[0];
}

/**
 * The User with this email at exactly one scope: scoped to the project when `projectId` is given,
 * else server-wide (the invite's lookup: Medplum keeps the two kinds of account apart).
 */
export async function findUserByEmailAtScope(
  db: Queryable,
  email: string,
  projectId: string | undefined,
): Promise<User | undefined> {
  const users = await contents<User>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'User' AND NOT deleted
     AND lower(content->>'email') = lower($1)
     AND CASE WHEN $2 = '' THEN content->'project' IS NULL
              ELSE content->'project'->>'reference' = 'Project/' || $2 END
     ORDER BY seq LIMIT 1`,
    [email.trim(), projectId ?? ''],
  );
  return users[0];
}

/** The User an external identity provider knows by this subject (IdentityProvider.useSubject). */
export async function findUserByExternalId(db: Queryable, externalId: string): Promise<User | undefined> {
  const users = await contents<User>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'User' AND NOT deleted
     AND content->>'externalId' = $1 ORDER BY seq LIMIT 1`,
    [externalId],
  );
  return users[0];
}

/** Active memberships of a user ('User/id'), oldest first. */
export function findMembershipsByUser(db: Queryable, userRef: string): Promise<ProjectMembership[]> {
  return contents<ProjectMembership>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'ProjectMembership' AND NOT deleted
     AND content->'user'->>'reference' = $1 AND coalesce(content->>'active', 'true') <> 'false'
     ORDER BY seq`,
    [userRef],
  );
}

/** Memberships of a project ('Project/id'), oldest first. */
export function findMembershipsByProject(db: Queryable, projectRef: string): Promise<ProjectMembership[]> {
  return contents<ProjectMembership>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'ProjectMembership' AND NOT deleted
     AND content->'project'->>'reference' = $1 ORDER BY seq`,
    [projectRef],
  );
}

/** The Login holding this authorization code (granted or not: the caller checks). */
export async function findLoginByCode(db: Queryable, code: string): Promise<Login | undefined> {
  const logins = await contents<Login>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'Login' AND NOT deleted AND content->>'code' = $1 LIMIT 1`,
    [code],
  );
  return logins[0];
}

/** The domain's configuration (external identity provider), compared case-insensitively. */
export async function findDomainConfiguration(
  db: Queryable,
  domain: string,
): Promise<DomainConfiguration | undefined> {
  const configs = await contents<DomainConfiguration>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'DomainConfiguration' AND NOT deleted
     AND lower(content->>'domain') = lower($1) ORDER BY seq LIMIT 1`,
    [domain],
  );
  return configs[0];
}

/** The active signing keys, oldest first (the first is the one that signs). */
export function findActiveJsonWebKeys(db: Queryable): Promise<JsonWebKey[]> {
  return contents<JsonWebKey>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'JsonWebKey' AND NOT deleted
     AND content->>'active' = 'true' ORDER BY seq`,
    [],
  );
}

/**
 * Holds a transaction-scoped lock on a name (e.g. a normalised email) so that two concurrent
 * registrations of the same email cannot both pass the "not taken yet" check.
 */
export async function lockName(tx: Queryable, name: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
}
