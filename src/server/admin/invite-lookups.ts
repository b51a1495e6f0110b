// The invite's own look-ups, each one SQL statement inside the invite's transaction: the profile
// that already has the email in the project, the user's membership in the project, a membership of
// the same email at the other User scope, and a membership already holding an externalId.
import type { ProjectMembership } from '@medplum/fhirtypes';
import type { Queryable } from '../db';
import type { ProfileType } from './invite-request';

async function first<T>(db: Queryable, sql: string, params: string[]): Promise<T | undefined> {
  const { rows } = await db.query<{ content: T }>(sql, params);
  return rows[0]?.content;
}

/** The oldest profile of this type in the project with this email (compared case-insensitively). */
export function findProfileByEmail<T>(
  db: Queryable,
  resourceType: ProfileType,
  projectId: string,
  email: string,
): Promise<T | undefined> {
  return first<T>(
    db,
    `SELECT content FROM resource WHERE resource_type = $1 AND project = $2 AND NOT deleted
     AND EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(content->'telecom', '[]'::jsonb)) AS t
                 WHERE t->>'system' = 'email' AND lower(t->>'value') = lower($3))
     ORDER BY seq LIMIT 1`,
    [resourceType, projectId, email],
  );
}

/** The user's (oldest) membership in the project, active or not. */
export function findMembershipOfUser(
  db: Queryable,
  userId: string,
  projectId: string,
): Promise<ProjectMembership | undefined> {
  return first<ProjectMembership>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'ProjectMembership' AND NOT deleted
     AND content->'user'->>'reference' = 'User/' || $1 AND content->'project'->>'reference' = 'Project/' || $2
     ORDER BY seq LIMIT 1`,
    [userId, projectId],
  );
}

/**
 * A membership in the project of a User with this email at the other scope than `scopedToProject`
 * says (Medplum refuses to give one person both a server-wide and a project-scoped account there).
 */
export function findMembershipAtOtherScope(
  db: Queryable,
  email: string,
  projectId: string,
  scopedToProject: boolean,
): Promise<ProjectMembership | undefined> {
  return first<ProjectMembership>(
    db,
    `SELECT m.content FROM resource m
     JOIN resource u ON u.resource_type = 'User' AND NOT u.deleted AND m.content->'user'->>'reference' = 'User/' || u.id
     WHERE m.resource_type = 'ProjectMembership' AND NOT m.deleted
     AND m.content->'project'->>'reference' = 'Project/' || $2 AND lower(u.content->>'email') = lower($1)
     AND CASE WHEN $3 = 'project' THEN u.content->'project' IS NULL
              ELSE u.content->'project'->>'reference' = 'Project/' || $2 END
     ORDER BY m.seq LIMIT 1`,
    [email, projectId, scopedToProject ? 'project' : 'server'],
  );
}

/** The project's membership holding this externalId, other than `exceptId`. */
export function findMembershipByExternalId(
  db: Queryable,
  projectId: string,
  externalId: string,
  exceptId = '',
): Promise<ProjectMembership | undefined> {
  return first<ProjectMembership>(
    db,
    `SELECT content FROM resource WHERE resource_type = 'ProjectMembership' AND NOT deleted
     AND content->'project'->>'reference' = 'Project/' || $1 AND content->>'externalId' = $2 AND id <> $3
     LIMIT 1`,
    [projectId, externalId, exceptId],
  );
}
