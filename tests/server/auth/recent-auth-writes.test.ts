// Changing a User's email and creating a client secret need the current password or a fresh
// sign-in (SPEC §6, §7): a FHIR write of User.email or ClientApplication.secret from a session that
// began more than minutes ago is refused with a 403 OperationOutcome that says what to do, and
// ClientApplication/$rotate-secret (Medplum's operation, raw HTTP: MedplumClient has no call for it)
// takes the password instead. Writes go through Medplum's MedplumClient (@medplum/core 5.2.13,
// unchanged). Real HTTP, PGlite and PostgreSQL.
import type { ClientApplication, Login, Parameters, Project, User } from '@medplum/fhirtypes';
import { RECENT_AUTH_REQUIRED } from '../../../src/server/auth/recent-auth';
import { Repository, systemContext } from '../../../src/server/repo';
import { outcomeOf, rejectionOf, signedInClient } from '../../conformance/medplum-sdk/support/medplum-client';
import { databases } from '../support/test-databases';
import { startTestServerInTempDir } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  addMembership,
  createClient,
  createProject,
  createUser,
  outcomeExpression,
  outcomeText,
  PASSWORD,
  postForm,
  postJson,
  signIn,
  uniqueEmail,
} from './support/auth-fixtures';
import type { Tokens } from './support/auth-fixtures';

describe.each(databases())('credential writes need a recent sign-in on %s', (_engine, kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServerInTempDir(kind, { requireAuth: true });
  });

  afterAll(async () => {
    await server.close();
  });

  /** Makes the session's sign-in older than "fresh" (as if it began 10 minutes ago). */
  async function age(tokens: Tokens): Promise<void> {
    const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString()) as {
      login_id: string;
    };
    const repo = new Repository(server.db, systemContext());
    const login = await repo.readResource<Login>('Login', payload.login_id);
    await repo.updateResource<Login>({
      ...login,
      authTime: new Date(Date.now() - 10 * 60_000).toISOString(),
    });
  }

  async function admin(
    options: { superAdmin?: boolean } = {},
  ): Promise<{ project: Project; tokens: Tokens }> {
    let project = await createProject(server.db);
    if (options.superAdmin) {
      const repo = new Repository(server.db, systemContext(project.id));
      project = (await repo.updateResource<Project>({ ...project, superAdmin: true })).resource;
    }
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Practitioner', { admin: true });
    return { project, tokens: await signIn(server.baseUrl, user.email as string) };
  }

  function bearer(tokens: Tokens): Record<string, string> {
    return { authorization: `Bearer ${tokens.access_token}` };
  }

  async function rotate(
    tokens: Tokens,
    clientId: string,
    parameter: Record<string, string>,
  ): Promise<{ status: number; body: Parameters }> {
    const body: Parameters = {
      resourceType: 'Parameters',
      parameter: Object.entries(parameter).map(([name, valueString]) => ({ name, valueString })),
    };
    return postJson<Parameters>(
      `${server.baseUrl}fhir/R4/ClientApplication/${clientId}/$rotate-secret`,
      body,
      { ...bearer(tokens), 'content-type': 'application/fhir+json' },
    );
  }

  describe('changing a User email', () => {
    test('a fresh sign-in may; an older session is refused with what to do, and nothing changes', async () => {
      const { tokens } = await admin({ superAdmin: true });
      const medplum = await signedInClient(server.baseUrl, tokens);
      const target = await createUser(server.db);
      const user = await medplum.readResource('User', target.id as string);
      const fresh = uniqueEmail('fresh');
      expect((await medplum.updateResource<User>({ ...user, email: fresh })).email).toBe(fresh);
      // A name change is not a credential change: an older session still may.
      await age(tokens);
      const stale = await signedInClient(server.baseUrl, tokens);
      const current = await stale.readResource('User', target.id as string);
      expect((await stale.updateResource<User>({ ...current, firstName: 'Renamed' })).firstName).toBe(
        'Renamed',
      );
      const err = await rejectionOf(
        stale.updateResource<User>({ ...current, firstName: 'Renamed', email: uniqueEmail('thief') }),
      );
      expect(outcomeOf(err)).toEqual([
        { text: RECENT_AUTH_REQUIRED, expression: ['User.email'], code: 'forbidden' },
      ]);
      const patch = await fetch(`${server.baseUrl}fhir/R4/User/${target.id}`, {
        method: 'PATCH',
        headers: { ...bearer(tokens), 'content-type': 'application/json-patch+json' },
        body: JSON.stringify([{ op: 'replace', path: '/email', value: uniqueEmail('patched') }]),
      });
      expect(patch.status).toBe(403);
      const stored = await new Repository(server.db, systemContext()).readResource<User>(
        'User',
        target.id as string,
      );
      expect(stored.email).toBe(fresh);
      // Signing in again makes the session fresh.
      const again = await signedInClient(server.baseUrl, await signIn(server.baseUrl, await emailOf(tokens)));
      const renamed = uniqueEmail('again');
      expect((await again.updateResource<User>({ ...current, email: renamed })).email).toBe(renamed);
    });
  });

  async function emailOf(tokens: Tokens): Promise<string> {
    const me = await fetch(`${server.baseUrl}auth/me`, { headers: bearer(tokens) });
    return ((await me.json()) as { user: { email: string } }).user.email;
  }

  describe('creating a client secret', () => {
    test('a FHIR write of a new secret needs a fresh sign-in', async () => {
      const { project, tokens } = await admin();
      const medplum = await signedInClient(server.baseUrl, tokens);
      const created = await medplum.createResource<ClientApplication>({
        resourceType: 'ClientApplication',
        name: 'Fresh',
        secret: 'fresh-secret-0123456789abcdef',
      });
      expect(created.secret).toBe('fresh-secret-0123456789abcdef');
      await age(tokens);
      const stale = await signedInClient(server.baseUrl, tokens);
      const createErr = await rejectionOf(
        stale.createResource<ClientApplication>({
          resourceType: 'ClientApplication',
          name: 'Stale',
          secret: 'x'.repeat(32),
        }),
      );
      expect(outcomeOf(createErr)[0]).toEqual({
        text: RECENT_AUTH_REQUIRED,
        expression: ['ClientApplication.secret'],
        code: 'forbidden',
      });
      // Keeping the same secret (renaming the client) is no credential change.
      const renamed = await stale.updateResource<ClientApplication>({ ...created, name: 'Renamed' });
      expect(renamed.secret).toBe(created.secret);
      const updateErr = await rejectionOf(
        stale.updateResource<ClientApplication>({ ...renamed, secret: 'y'.repeat(32) }),
      );
      expect(outcomeOf(updateErr)[0].text).toBe(RECENT_AUTH_REQUIRED);
      const client = await createClient(server.db, project, { secret: 'z'.repeat(32) });
      const noPassword = await rotate(tokens, client.id as string, { secret: 'z'.repeat(32) });
      expect(noPassword.status).toBe(400);
      expect(outcomeText(noPassword.body)).toBe(RECENT_AUTH_REQUIRED);
      expect(outcomeExpression(noPassword.body)).toEqual(['password']);
      const wrong = await rotate(tokens, client.id as string, {
        secret: 'z'.repeat(32),
        password: 'not-it-123',
      });
      expect(outcomeText(wrong.body)).toBe('Incorrect password');
    });

    test('$rotate-secret with the password: a new secret, the old one retiring until retired', async () => {
      const { project, tokens } = await admin();
      await age(tokens);
      const old = 'o'.repeat(32);
      const client = await createClient(server.db, project, { secret: old });
      const rotated = await rotate(tokens, client.id as string, { secret: old, password: PASSWORD });
      expect(rotated.status).toBe(200);
      const next = rotated.body.parameter?.[0]?.resource as ClientApplication;
      expect(next.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(next.retiringSecret).toBe(old);
      const grant = (secret: string) =>
        postForm(`${server.baseUrl}oauth2/token`, {
          grant_type: 'client_credentials',
          client_id: client.id as string,
          client_secret: secret,
        });
      expect((await grant(next.secret as string)).status).toBe(200);
      expect((await grant(old)).status).toBe(200);
      const retired = await rotate(tokens, client.id as string, { retiringSecret: old });
      expect(retired.status).toBe(200);
      expect((await grant(old)).status).toBe(401);
      expect((await grant(next.secret as string)).status).toBe(200);
      const mismatch = await rotate(tokens, client.id as string, { secret: old, password: PASSWORD });
      expect(outcomeText(mismatch.body)).toBe('Provided secret does not match client');
    });

    test('only the project admin: a patient is refused, another project’s admin does not find it', async () => {
      const { project } = await admin();
      const client = await createClient(server.db, project, { secret: 'p'.repeat(32) });
      const patientUser = await createUser(server.db);
      await addMembership(server.db, patientUser, project, 'Patient');
      const patient = await signIn(server.baseUrl, patientUser.email as string);
      const refused = await rotate(patient, client.id as string, {
        secret: 'p'.repeat(32),
        password: PASSWORD,
      });
      expect(refused.status).toBe(403);
      const other = await admin();
      const hidden = await rotate(other.tokens, client.id as string, {
        secret: 'p'.repeat(32),
        password: PASSWORD,
      });
      expect(hidden.status).toBe(404);
      const stored = await new Repository(server.db, systemContext()).readResource<ClientApplication>(
        'ClientApplication',
        client.id as string,
      );
      expect(stored.secret).toBe('p'.repeat(32));
    });
  });
});
