// private_key_jwt (RFC 7523) over real HTTP: the client's JWKS served on loopback, client_credentials
// with a signed client assertion, and each way an assertion can be wrong.
import type { Project } from '@medplum/fhirtypes';
import type { CryptoKey } from 'jose';
import {
  addMembership,
  createClient,
  createProject,
  createUser,
  postForm,
} from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { signAssertion, startClientKeys } from './support/client-keys';
import type { ClientKeys } from './support/client-keys';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

describe.each(databases())('private_key_jwt client assertions on %s', (_engine, kind) => {
  let server: TestServer;
  let keys: ClientKeys;
  let jwksUrl: string;
  let project: Project;
  let clientKey: CryptoKey;
  let otherKey: CryptoKey;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    project = await createProject(server.db);
    keys = await startClientKeys();
    ({ jwksUrl, privateKey: clientKey, foreignKey: otherKey } = keys);
  });

  afterAll(async () => {
    await server.close();
    await keys.close();
  });

  async function assertion(
    clientId: string,
    options: { key?: CryptoKey; audience?: string; expiresIn?: number; subject?: string } = {},
  ): Promise<string> {
    return signAssertion(clientId, {
      audience: options.audience ?? `${server.baseUrl}oauth2/token`,
      key: options.key ?? clientKey,
      subject: options.subject,
      expiresIn: options.expiresIn,
    });
  }

  const grant = (clientAssertion: string, extra: Record<string, string> = {}) =>
    postForm<{ access_token?: string; error?: string; profile?: { reference?: string } }>(
      `${server.baseUrl}oauth2/token`,
      {
        grant_type: 'client_credentials',
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: clientAssertion,
        ...extra,
      },
    );

  test('a client assertion signed with the key at the client jwksUri gets a token', async () => {
    const client = await createClient(server.db, project, { jwksUri: jwksUrl });
    const response = await grant(await assertion(client.id as string));
    expect(response.status).toBe(200);
    expect(response.body.profile?.reference).toBe(`ClientApplication/${client.id}`);
  });

  test('a foreign key, another audience, an expired assertion, a wrong subject: invalid_client', async () => {
    const client = await createClient(server.db, project, { jwksUri: jwksUrl });
    const id = client.id as string;
    for (const bad of [
      await assertion(id, { key: otherKey }),
      await assertion(id, { audience: 'https://elsewhere.example/token' }),
      await assertion(id, { expiresIn: -60 }),
      await assertion(id, { subject: 'someone-else' }),
      'not-a-jwt',
    ]) {
      const response = await grant(bad);
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_client');
    }
  });

  test('a client without a jwksUri, or a client_id that differs from the issuer, is refused', async () => {
    const noKeys = await createClient(server.db, project, { secret: 'only-a-secret-value' });
    expect((await grant(await assertion(noKeys.id as string))).status).toBe(401);
    const client = await createClient(server.db, project, { jwksUri: jwksUrl });
    const mismatch = await grant(await assertion(client.id as string), { client_id: noKeys.id as string });
    expect(mismatch.status).toBe(401);
  });

  test('a wrong client_assertion_type is invalid_request', async () => {
    const response = await postForm<{ error?: string }>(`${server.baseUrl}oauth2/token`, {
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:example:other',
      client_assertion: 'x',
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
  });
  describe('JWT bearer grant (RFC 7523 §2.1)', () => {
    const bearer = (assertionJwt: string) =>
      postForm<{ access_token?: string; error?: string; profile?: { reference?: string } }>(
        `${server.baseUrl}oauth2/token`,
        { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: assertionJwt },
      );

    test('the subject names a user of the client project: the token acts as that user', async () => {
      const client = await createClient(server.db, project, { jwksUri: jwksUrl });
      const user = await createUser(server.db);
      const membership = await addMembership(server.db, user, project, 'Practitioner');
      const response = await bearer(await assertion(client.id as string, { subject: user.email as string }));
      expect(response.status).toBe(200);
      expect(response.body.profile).toEqual(membership.profile);
      const claims = JSON.parse(
        Buffer.from((response.body.access_token as string).split('.')[1], 'base64url').toString(),
      );
      expect(claims).toMatchObject({ sub: user.id, client_id: client.id });
    });

    test('a subject outside the project is invalid_grant; a foreign signature invalid_client', async () => {
      const client = await createClient(server.db, project, { jwksUri: jwksUrl });
      const stranger = await createUser(server.db);
      await addMembership(server.db, stranger, await createProject(server.db, 'Elsewhere'), 'Patient');
      const outside = await bearer(
        await assertion(client.id as string, { subject: stranger.email as string }),
      );
      expect(outside.status).toBe(400);
      expect(outside.body.error).toBe('invalid_grant');
      const forged = await bearer(
        await assertion(client.id as string, { key: otherKey, subject: 'x@example.org' }),
      );
      expect(forged.status).toBe(401);
      expect(forged.body.error).toBe('invalid_client');
      const missing = await postForm<{ error?: string }>(`${server.baseUrl}oauth2/token`, {
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      });
      expect(missing.body.error).toBe('invalid_request');
    });
  });
});
