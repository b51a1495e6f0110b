// The platform client against the REAL server (SPEC §4, §7): no fakes between
// them. buildServer on an in-memory PGlite copy of the test template (also PostgreSQL when
// TEST_DATABASE_URL is set) on a free port; FHIR requests need a token, as in `npm start`.
import crypto from 'node:crypto';
import type { AccessPolicy, Project } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { Database } from '../../src/server/db';
import { Repository, systemContext } from '../../src/server/repo';
import { createClient, createProject } from '../server/auth/support/auth-fixtures';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

const PASSWORD = 'violet-harbor-1987';

let server: TestServer;
let baseUrl: string;
let projectId: string;

/** A project that lets patients register (it has a default patient access policy). */
async function createOpenProject(db: Database): Promise<string> {
  const id = crypto.randomUUID();
  const repo = new Repository(db, systemContext(id));
  const policy = await repo.createResource<AccessPolicy>({
    resourceType: 'AccessPolicy',
    name: 'Patient',
    resource: [
      { resourceType: 'Patient' },
      { resourceType: 'Observation' },
      { resourceType: 'Communication' },
    ],
  });
  await repo.createResource<Project>(
    {
      resourceType: 'Project',
      name: 'Client Test Clinic',
      defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}` },
    },
    { assignedId: id },
  );
  return id;
}

function newClient(options: ConstructorParameters<typeof BloomClient>[0] = {}): BloomClient {
  return new BloomClient({ baseUrl, storage: new PrefixedStorage(new MemoryStorage()), ...options });
}

function uniqueEmail(): string {
  return `client.${crypto.randomBytes(4).toString('hex')}@example.org`;
}

/** Registers a patient through the client: newuser → newpatient → code (SPEC §4 Patient registration). */
async function registerPatient(client: BloomClient, email: string): Promise<void> {
  const { login } = await client.startNewUser({
    firstName: 'Nora',
    lastName: 'Client',
    email,
    password: PASSWORD,
    projectId,
  });
  const { code } = await client.startNewPatient({ login, projectId });
  expect(code).toEqual(expect.any(String));
  await client.processCode(code as string);
}

describe.each(databases())('BloomClient against the real server on %s', (_engine, kind) => {
  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    baseUrl = server.baseUrl;
    projectId = await createOpenProject(server.db);
  });

  afterAll(async () => {
    await server?.close();
  });

  test('SPEC §4 patient registration: startNewUser → startNewPatient → processCode → profile → signOut', async () => {
    const client = newClient();
    await registerPatient(client, uniqueEmail());
    const profile = client.getProfile();
    expect(profile).toMatchObject({ resourceType: 'Patient', name: [{ given: ['Nora'], family: 'Client' }] });
    expect(client.getProject()?.id).toBe(projectId);
    expect(client.isProjectAdmin()).toBe(false);
    expect(client.isSuperAdmin()).toBe(false);
    expect(client.getActiveLogin()?.profile?.reference).toBe(`Patient/${profile?.id}`);
    // The access token reads the patient's own record over FHIR.
    await expect(client.get(client.fhirUrl('Patient', profile?.id as string))).resolves.toMatchObject({
      id: profile?.id,
    });

    const stolen = client.getActiveLogin();
    await client.signOut();
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.getProfile()).toBeUndefined();
    // The server revoked the login: its old token and refresh token are worthless now.
    const onUnauthenticated = jest.fn();
    const replay = newClient({ onUnauthenticated });
    replay.setActiveLogin(stolen as NonNullable<typeof stolen>).catch(() => undefined);
    await expect(replay.getMe()).rejects.toThrow('Unauthenticated');
    expect(replay.getActiveLogin()).toBeUndefined();
    expect(onUnauthenticated).toHaveBeenCalled();
  });

  test('SPEC §4 password sign-in: startLogin → code → processCode; a wrong password gets the server message', async () => {
    const email = uniqueEmail();
    await registerPatient(newClient(), email);
    const client = newClient();
    await expect(client.startLogin({ email, password: 'wrong-password-1' })).rejects.toThrow(
      'Email or password is invalid',
    );
    const response = await client.startLogin({ email, password: PASSWORD });
    expect(response.login).toEqual(expect.any(String));
    expect(response.code).toEqual(expect.any(String));
    const profile = await client.processCode(response.code as string);
    expect(profile).toMatchObject({ resourceType: 'Patient', name: [{ given: ['Nora'] }] });
    // A code is single-use: exchanging it again is refused with the server's description.
    await expect(newClient().processCode(response.code as string)).rejects.toThrow(
      'Authorization code already used',
    );
  });

  test('SPEC §4 refresh before expiry against the real token endpoint: rotation keeps the session', async () => {
    const email = uniqueEmail();
    await registerPatient(newClient(), email);
    // A clock 58 minutes ahead: the 1-hour token is inside the refresh margin before each request.
    const client = newClient({ now: () => Date.now() + 58 * 60_000 });
    const { code } = await client.startLogin({ email, password: PASSWORD });
    await client.processCode(code as string);
    const first = client.getRefreshToken();
    await client.getMe();
    const second = client.getRefreshToken();
    await client.getMe();
    expect(second).not.toBe(first);
    expect(client.getRefreshToken()).not.toBe(second);
    expect(client.isAuthenticated()).toBe(true);
  });
  test('SPEC §4 project registration: startNewUser → startNewProject → processCode → project admin', async () => {
    const client = newClient();
    const { login } = await client.startNewUser({
      firstName: 'Olu',
      lastName: 'Admin',
      email: uniqueEmail(),
      password: PASSWORD,
    });
    await expect(client.startNewProject({ login, projectName: ' ' })).rejects.toThrow(
      'Project name is required',
    );
    const { code } = await client.startNewProject({ login, projectName: 'Olu Clinic' });
    const profile = await client.processCode(code as string);
    expect(profile?.resourceType).toBe('Practitioner');
    expect(client.getProject()?.name).toBe('Olu Clinic');
    expect(client.isProjectAdmin()).toBe(true);
    expect(client.isSuperAdmin()).toBe(false);
  });

  test('SPEC §6 client credentials: startClientLogin signs a ClientApplication in; a wrong secret is refused', async () => {
    const project = await createProject(server.db, 'Machine Clinic');
    const app = await createClient(server.db, project, { secret: 'machine-secret-123' });
    const client = newClient();
    await expect(client.startClientLogin(app.id as string, 'wrong-secret')).rejects.toThrow(/client/i);
    expect(client.getActiveLogin()).toBeUndefined();
    const profile = await client.startClientLogin(app.id as string, 'machine-secret-123');
    expect(profile).toMatchObject({ resourceType: 'ClientApplication', id: app.id });
    expect(client.getProject()?.id).toBe(project.id);
  });

  test('SPEC §4: with clientId and clientSecret, a request without a token signs in by client credentials', async () => {
    const project = await createProject(server.db, 'Machine Clinic 2');
    const app = await createClient(server.db, project, { secret: 'machine-secret-456' });
    const client = newClient({ clientId: app.id, clientSecret: 'machine-secret-456' });
    await expect(client.getMe()).resolves.toMatchObject({ profile: { id: app.id } });
    expect(client.getAccessToken()).toEqual(expect.any(String));
  });

  test('one refresh for many concurrent 401s: the server would revoke the sign-in on a second use of the refresh token', async () => {
    const email = uniqueEmail();
    const client = newClient();
    await registerPatient(client, email);
    const login = client.getActiveLogin() as NonNullable<ReturnType<BloomClient['getActiveLogin']>>;
    const onUnauthenticated = jest.fn();
    const tab = newClient({ onUnauthenticated });
    // A token the server rejects with 401, beside a refresh token it still honours.
    void tab.setActiveLogin({ ...login, accessToken: 'not-a-valid-token' }).catch(() => undefined);
    const answers = await Promise.all(Array.from({ length: 6 }, () => tab.getMe()));
    for (const answer of answers) {
      expect(answer.profile).toMatchObject({ resourceType: 'Patient', name: [{ given: ['Nora'] }] });
    }
    expect(tab.getRefreshToken()).not.toBe(login.refreshToken);
    expect(onUnauthenticated).not.toHaveBeenCalled();
    // The rotated-away refresh token is now a replay: the server revokes the sign-in, and a client
    // holding it gives up with 'Unauthenticated' and tells the app.
    const replayHandler = jest.fn();
    const replay = newClient({ onUnauthenticated: replayHandler });
    void replay.setActiveLogin({ ...login, accessToken: 'not-a-valid-token' }).catch(() => undefined);
    await expect(replay.getMe()).rejects.toThrow('Unauthenticated');
    expect(replayHandler).toHaveBeenCalledTimes(1);
  });
});
