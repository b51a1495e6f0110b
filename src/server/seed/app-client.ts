// The demo clinic's 'Bloom app' ClientApplication (seeded by demo-accounts.ts): its id goes to the
// app in /config.json as clientId, so the app's sign-ins and registrations name it.
import type { Queryable } from '../db';

export const APP_CLIENT_NAME = 'Bloom app';

/** The id of the project's 'Bloom app' ClientApplication, oldest first, if it has one. */
export async function findAppClientId(db: Queryable, projectId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM resource WHERE resource_type = 'ClientApplication' AND NOT deleted
     AND project = $1 AND content->>'name' = $2 AND coalesce(content->>'status', 'active') <> 'off'
     ORDER BY seq LIMIT 1`,
    [projectId, APP_CLIENT_NAME],
  );
  return rows[0]?.id;
}
