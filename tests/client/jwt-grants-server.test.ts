// BloomClient's JWT sign-ins against the REAL server in-process (SPEC §6 sign-in
// methods JWT bearer, JWT client assertion, token exchange; SPEC §7 token URL): a ClientApplication
// whose JWKS we generate and serve on loopback, assertions signed with jose, an external provider's
// userinfo on loopback for the token exchange. No fakes between client and server.
import type { ClientApplication, Patient, Project } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { addMembership, createClient, createProject, createUser } from '../server/auth/support/auth-fixtures';
import { signAssertion, startClientKeys } from '../server/oauth/support/client-keys';
import type { AssertionOptions, ClientKeys } from '../server/oauth/support/client-keys';
import { startUserInfoProvider } from '../server/oauth/support/userinfo-provider';
import type { UserInfoProvider } from '../server/oauth/support/userinfo-provider';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

describe.each(databases())('BloomClient JWT sign-ins against the real server on %s', (_engine, kind) => {
  let server: TestServer;
  let keys: ClientKeys;
  let project: Project;
  let provider: UserInfoProvider;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    keys = await startClientKeys();
    project = await createProject(server.db, 'JWT Clinic');
    provider = await startUserInfoProvider();
  });

  afterAll(async () => {
    await server?.close();
    await keys?.close();
    await provider?.close();
  });

  function newClient(options: ConstructorParameters<typeof BloomClient>[0] = {}): BloomClient {
    return new BloomClient({
      baseUrl: server.baseUrl,
      storage: new PrefixedStorage(new MemoryStorage()),
      ...options,
    });
  }

  const sign = (issuer: string, options: Partial<AssertionOptions> = {}) =>
    signAssertion(issuer, { audience: `${server.baseUrl}oauth2/token`, key: keys.privateKey, ...options });

  const jwtClient = (): Promise<ClientApplication> =>
    createClient(server.db, project, { jwksUri: keys.jwksUrl });

  async function practitioner(): Promise<{ email: string; profile: string }> {
    const user = await createUser(server.db);
    const membership = await addMembership(server.db, user, project, 'Practitioner');
    return { email: user.email as string, profile: membership.profile?.reference as string };
  }

  describe('startJwtAssertionLogin (private_key_jwt client credentials)', () => {
    test('signs the ClientApplication in; its token writes and reads the FHIR API in its project', async () => {
      const app = await jwtClient();
      const client = newClient();
      const profile = await client.startJwtAssertionLogin(await sign(app.id as string));
      expect(profile).toMatchObject({ resourceType: 'ClientApplication', id: app.id });
      expect(client.getProject()?.id).toBe(project.id);
      expect(client.getActiveLogin()?.profile?.reference).toBe(`ClientApplication/${app.id}`);
      // The token works on the FHIR API, within the client's project.
      const patient = await client.post<Patient>(client.fhirUrl('Patient'), {
        resourceType: 'Patient',
        name: [{ family: 'Assertion' }],
      });
      await expect(client.get(client.fhirUrl('Patient', patient.id as string))).resolves.toMatchObject({
        meta: { project: project.id },
      });
    });

    test('a wrong key, an expired assertion, an unknown client: the server description, no login kept', async () => {
      const app = await jwtClient();
      const id = app.id as string;
      for (const assertion of [
        await sign(id, { key: keys.foreignKey }),
        await sign(id, { expiresIn: -60 }),
        await sign('no-such-client'),
      ]) {
        const client = newClient();
        await expect(client.startJwtAssertionLogin(assertion)).rejects.toThrow('Invalid client assertion');
        expect(client.getActiveLogin()).toBeUndefined();
      }
    });

    test('the same assertion twice: the second sign-in is refused as a replay', async () => {
      const app = await jwtClient();
      const assertion = await sign(app.id as string);
      await newClient().startJwtAssertionLogin(assertion);
      await expect(newClient().startJwtAssertionLogin(assertion)).rejects.toThrow(
        'The assertion was already used (jti replayed)',
      );
    });
  });

  describe('startJwtBearerLogin (RFC 7523 §2.1 grant)', () => {
    test("the assertion's subject signs in as that user of the client's project", async () => {
      const app = await jwtClient();
      const user = await practitioner();
      const client = newClient({ clientId: app.id });
      const profile = await client.startJwtBearerLogin(
        app.id as string,
        await sign(app.id as string, { subject: user.email }),
        'openid',
      );
      expect(`${profile?.resourceType}/${profile?.id}`).toBe(user.profile);
      expect(client.getProject()?.id).toBe(project.id);
      await expect(client.getMe()).resolves.toMatchObject({
        membership: { profile: { reference: user.profile } },
      });
    });

    test('failures: wrong key, expired assertion, unknown client, subject outside the project, missing clientId', async () => {
      const app = await jwtClient();
      const id = app.id as string;
      const user = await practitioner();
      const client = newClient();
      await expect(
        client.startJwtBearerLogin(
          id,
          await sign(id, { subject: user.email, key: keys.foreignKey }),
          'openid',
        ),
      ).rejects.toThrow('Invalid client assertion');
      await expect(
        client.startJwtBearerLogin(id, await sign(id, { subject: user.email, expiresIn: -60 }), 'openid'),
      ).rejects.toThrow('Invalid client assertion');
      await expect(
        client.startJwtBearerLogin(
          'no-such-client',
          await sign('no-such-client', { subject: user.email }),
          'openid',
        ),
      ).rejects.toThrow('Invalid client assertion');
      // client_id and the assertion's issuer must agree.
      await expect(
        client.startJwtBearerLogin(id, await sign('no-such-client', { subject: user.email }), 'openid'),
      ).rejects.toThrow('Invalid client assertion');
      const stranger = await createUser(server.db);
      await expect(
        client.startJwtBearerLogin(id, await sign(id, { subject: stranger.email as string }), 'openid'),
      ).rejects.toThrow("The assertion's subject is not a user of the client's project");
      await expect(client.startJwtBearerLogin('', 'x', 'openid')).rejects.toThrow('missing clientId');
      expect(client.getActiveLogin()).toBeUndefined();
    });
  });

  describe('exchangeExternalAccessToken (RFC 8693)', () => {
    async function exchangeClient(useSubject = false): Promise<ClientApplication> {
      return createClient(server.db, project, {
        identityProvider: {
          authorizeUrl: 'http://127.0.0.1/authorize',
          tokenUrl: 'http://127.0.0.1/token',
          userInfoUrl: provider.userInfoUrl,
          clientId: 'external-id',
          clientSecret: 'external-secret',
          useSubject,
        },
      });
    }

    test("an external provider's token becomes our session for the user with that email", async () => {
      const app = await exchangeClient();
      const user = await practitioner();
      provider.tokens.set('external-token-1', { sub: 'ext-1', email: user.email.toLowerCase() });
      const client = newClient({ clientId: app.id });
      const profile = await client.exchangeExternalAccessToken('external-token-1');
      expect(`${profile?.resourceType}/${profile?.id}`).toBe(user.profile);
      // The clientId may also be passed per call.
      const other = newClient();
      const again = await other.exchangeExternalAccessToken('external-token-1', app.id);
      expect(again?.id).toBe(profile?.id);
      await expect(
        other.get(other.fhirUrl(profile?.resourceType as 'Practitioner', profile?.id as string)),
      ).resolves.toMatchObject({
        id: profile?.id,
      });
    });

    test('failures: a token the provider refuses, an unknown user, an unknown client, a client without a provider, no clientId', async () => {
      const app = await exchangeClient();
      const client = newClient({ clientId: app.id });
      await expect(client.exchangeExternalAccessToken('not-a-provider-token')).rejects.toThrow(
        'The identity provider refused the subject token',
      );
      provider.tokens.set('external-token-2', { sub: 'ext-2', email: 'nobody@example.org' });
      await expect(client.exchangeExternalAccessToken('external-token-2')).rejects.toThrow(
        'No user of this project matches the subject token',
      );
      await expect(
        newClient().exchangeExternalAccessToken('external-token-2', 'no-such-client'),
      ).rejects.toThrow('The client has no external identity provider');
      const plain = await jwtClient();
      await expect(newClient().exchangeExternalAccessToken('external-token-2', plain.id)).rejects.toThrow(
        'The client has no external identity provider',
      );
      await expect(newClient().exchangeExternalAccessToken('external-token-2')).rejects.toThrow(
        'missing clientId',
      );
      expect(client.getActiveLogin()).toBeUndefined();
    });
  });
});
