// inviteUser with a mail server that never answers: the
// send is abandoned after the timeout and the transaction rolls back. A unit test of invite.ts
// with a fake Mailer (the only fake) over a real database.
import type { ProjectMembership, User } from '@medplum/fhirtypes';
import { inviteUser } from '../../../src/server/admin/invite';
import type { ServerServices } from '../../../src/server/services';
import { buildAuthState } from '../../../src/server/auth/authenticate';
import type { Mailer } from '../../../src/server/auth/mailer';
import { SigningKeys } from '../../../src/server/auth/signing-key';
import { createAuthThrottles } from '../../../src/server/auth/throttle';
import { loadConfig } from '../../../src/server/config';
import type { Database } from '../../../src/server/db';
import { addMembership, createProject, createUser, uniqueEmail } from '../auth/support/auth-fixtures';
import { openTestPGlite } from '../support/test-databases';

describe('inviteUser email timeout', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openTestPGlite();
  });

  afterAll(async () => {
    await db.close();
  });

  test('a send that never settles fails the invite after the timeout and leaves no User, profile or membership', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const sent: string[] = [];
    const hanging: Mailer = {
      send: (email) => {
        sent.push(email.to);
        return new Promise(() => undefined);
      },
    };
    const deps: ServerServices = {
      db,
      config,
      keys: new SigningKeys(db, config.baseUrl),
      throttles: createAuthThrottles(),
      mailer: hanging,
    };
    const project = await createProject(db);
    const adminUser: User = await createUser(db);
    const membership: ProjectMembership = await addMembership(db, adminUser, project, 'Practitioner', {
      admin: true,
    });
    const auth = await buildAuthState(db, membership, { user: adminUser });
    const email = uniqueEmail('hanging');
    const invite = {
      resourceType: 'Practitioner' as const,
      firstName: 'Hana',
      lastName: 'Ito',
      email,
      sendEmail: true,
      upsert: false,
      forceNewMembership: false,
      membership: {},
    };
    await expect(inviteUser(deps, auth, project.id as string, invite, 200)).rejects.toThrow(
      'The invitation email was not sent within 200 ms',
    );
    expect(sent).toEqual([email]);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM resource
       WHERE (resource_type = 'User' AND lower(content->>'email') = lower($1))
          OR (resource_type = 'ProjectMembership' AND content->'user'->>'display' = $1)
          OR (resource_type = 'Practitioner' AND content->'telecom'->0->>'value' = $1)`,
      [email],
    );
    expect(rows[0].n).toBe(0);
    // With a mailer that answers, the same invite goes through.
    const working: ServerServices = { ...deps, mailer: { send: async () => undefined } };
    const created = await inviteUser(working, auth, project.id as string, invite, 200);
    expect(created.profile.reference).toMatch(/^Practitioner\//);
  });
});
