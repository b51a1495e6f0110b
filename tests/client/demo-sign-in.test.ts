// The demo sign-ins through the platform client against the REAL server: the
// demo clinic seeded as `npm start` seeds it, then Maria signs in with the demo password.
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD, DEMO_PROJECT_NAME } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

describe.each(databases())('demo sign-in through BloomClient on %s', (_engine, kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
  });

  afterAll(async () => {
    await server?.close();
  });

  function newClient(): BloomClient {
    return new BloomClient({ baseUrl: server.baseUrl, storage: new PrefixedStorage(new MemoryStorage()) });
  }

  test('maria@bloom.example with bloom-demo: startLogin → processCode → profile is Maria → signOut', async () => {
    const client = newClient();
    const response = await client.startLogin({ email: 'maria@bloom.example', password: 'bloom-demo' });
    expect(response.code).toEqual(expect.any(String));
    const profile = await client.processCode(response.code as string);
    expect(profile).toMatchObject({
      resourceType: 'Patient',
      name: [{ given: ['Maria'], family: 'Garcia' }],
    });
    expect(client.getProfile()).toEqual(profile);
    expect(client.getProject()?.name).toBe(DEMO_PROJECT_NAME);
    expect(client.isProjectAdmin()).toBe(false);
    expect(client.isSuperAdmin()).toBe(false);
    // Her token reads her own record.
    await expect(client.get(client.fhirUrl('Patient', profile?.id as string))).resolves.toMatchObject({
      id: profile?.id,
    });
    const login = client.getActiveLogin();
    await client.signOut();
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.getProfile()).toBeUndefined();
    // Signed out on the server too: the old tokens no longer work.
    const replay = newClient();
    void replay.setActiveLogin(login as NonNullable<typeof login>).catch(() => undefined);
    await expect(replay.getMe()).rejects.toThrow('Unauthenticated');
  });

  test('the demo admin is a project admin; a wrong password is refused with the server message', async () => {
    const client = newClient();
    await expect(
      client.startLogin({ email: 'maria@bloom.example', password: 'not-the-password' }),
    ).rejects.toThrow('Email or password is invalid');
    const { code } = await client.startLogin({ email: 'admin@bloom.example', password: 'bloom-demo' });
    await client.processCode(code as string);
    expect(client.isProjectAdmin()).toBe(true);
    expect(client.getProject()?.name).toBe(DEMO_PROJECT_NAME);
  });
});
