// identity.md: the demo accounts sign in after seeding, each as its profile, over real HTTP.
import type { ProjectMembership } from '@medplum/fhirtypes';
import { DEMO_ACCOUNTS, DEMO_PROJECT_NAME } from '../../../src/server/seed/demo';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedDemoClinic } from '../../../src/server/seed';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { getJson, outcomeText, postJson, signIn } from './support/auth-fixtures';

describe.each(databases())('demo sign-ins on %s', (_engine, kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: 'bloom-demo' });
  });

  afterAll(async () => {
    await server.close();
  });

  test.each(DEMO_ACCOUNTS.map((account) => [account.email, account] as const))(
    '%s signs in with the demo password as its profile in Bloom Clinic',
    async (email, account) => {
      const tokens = await signIn(server.baseUrl, email, 'bloom-demo');
      expect(tokens.profile?.reference?.split('/')[0]).toBe(account.profileType);
      const me = await getJson<{
        project: { name: string };
        membership: ProjectMembership;
        accessPolicy?: { resourceType: string };
      }>(`${server.baseUrl}auth/me`, { authorization: `Bearer ${tokens.access_token}` });
      expect(me.body.project.name).toBe(DEMO_PROJECT_NAME);
      expect(me.body.membership.admin === true).toBe(account.role === 'admin');
      // Every demo account has a seeded policy; /auth/me answers it combined, parameters substituted.
      expect(me.body.accessPolicy?.resourceType).toBe('AccessPolicy');
      const policyText = JSON.stringify(me.body.accessPolicy);
      expect(policyText).not.toContain('%patient');
      if (account.role === 'patient') {
        expect(policyText).toContain(tokens.profile?.reference as string);
      }
      const profile = await getJson(`${server.fhirUrl}${tokens.profile?.reference as string}`, {
        authorization: `Bearer ${tokens.access_token}`,
      });
      expect(profile.status).toBe(200);
    },
  );

  test('a demo account with a wrong password gets the common message', async () => {
    const response = await postJson(`${server.baseUrl}auth/login`, {
      email: 'maria@bloom.example',
      password: 'bloom-demo-wrong',
    });
    expect(response.status).toBe(400);
    expect(outcomeText(response.body)).toBe('Email or password is invalid');
  });

  test('a new patient can register into the demo clinic (its default patient access policy)', async () => {
    const [project] = (
      await new Repository(server.db, systemContext()).listNewest('Project', { count: 1, offset: 0 })
    ).items;
    const created = await postJson<{ login: string }>(`${server.baseUrl}auth/newuser`, {
      firstName: 'Jade',
      lastName: 'Park',
      email: 'jade.park@example.org',
      password: 'lantern-orchid-77',
    });
    const patient = await postJson<{ code?: string }>(`${server.baseUrl}auth/newpatient`, {
      login: created.body.login,
      projectId: project.id,
    });
    expect(patient.status).toBe(200);
    expect(patient.body.code).toEqual(expect.any(String));
  });
});
