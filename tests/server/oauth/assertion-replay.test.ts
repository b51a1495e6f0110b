// Replay protection of client-signed assertions (SPEC §6 JWT client assertion and JWT
// bearer; RFC 7523 §3 jti): every assertion needs a jti, usable once, remembered in the database so
// that a second server instance on the same database refuses the replay too.
import type { FastifyInstance } from 'fastify';
import type { Project } from '@medplum/fhirtypes';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { findTestPort } from '../../support/test-port';
import { recordAssertionUse } from '../../../src/server/oauth/used-assertions';
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
import type { AssertionOptions, ClientKeys } from './support/client-keys';

const CLIENT_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

interface TokenBody {
  access_token?: string;
  error?: string;
  error_description?: string;
}

describe.each(databases())('client assertion replay on %s', (_engine, kind) => {
  let server: TestServer;
  let keys: ClientKeys;
  let project: Project;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    keys = await startClientKeys();
    project = await createProject(server.db);
  });

  afterAll(async () => {
    await server.close();
    await keys.close();
  });

  const tokenUrl = () => `${server.baseUrl}oauth2/token`;

  const sign = (issuer: string, options: Partial<AssertionOptions> = {}) =>
    signAssertion(issuer, { audience: tokenUrl(), key: keys.privateKey, ...options });

  const clientCredentials = (assertion: string, url = tokenUrl()) =>
    postForm<TokenBody>(url, {
      grant_type: 'client_credentials',
      client_assertion_type: CLIENT_ASSERTION,
      client_assertion: assertion,
    });

  const jwtBearer = (assertion: string) =>
    postForm<TokenBody>(tokenUrl(), { grant_type: JWT_BEARER, assertion });

  async function newClient(): Promise<string> {
    return (await createClient(server.db, project, { jwksUri: keys.jwksUrl })).id as string;
  }

  test('private_key_jwt: an assertion works once; presented again it is invalid_client', async () => {
    const clientId = await newClient();
    const assertion = await sign(clientId);
    expect((await clientCredentials(assertion)).status).toBe(200);
    const replay = await clientCredentials(assertion);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({
      error: 'invalid_client',
      error_description: 'The assertion was already used (jti replayed)',
    });
    // A new assertion (new jti) from the same client is fine.
    expect((await clientCredentials(await sign(clientId))).status).toBe(200);
  });

  test('private_key_jwt: an assertion without a jti, or with an oversized one, is invalid_client', async () => {
    const clientId = await newClient();
    for (const jti of [null, '', 'j'.repeat(257)]) {
      const response = await clientCredentials(await sign(clientId, { jti }));
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        error: 'invalid_client',
        error_description: 'The assertion must carry a jti of 1 to 256 characters',
      });
    }
    expect((await clientCredentials(await sign(clientId, { jti: 'j'.repeat(256) }))).status).toBe(200);
  });

  test('JWT bearer grant: a replayed assertion or one without jti is invalid_grant', async () => {
    const clientId = await newClient();
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Practitioner');
    const assertion = await sign(clientId, { subject: user.email as string });
    expect((await jwtBearer(assertion)).status).toBe(200);
    const replay = await jwtBearer(assertion);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The assertion was already used (jti replayed)',
    });
    const noJti = await jwtBearer(await sign(clientId, { subject: user.email as string, jti: null }));
    expect(noJti.status).toBe(400);
    expect(noJti.body.error).toBe('invalid_grant');
  });

  test('the jti is per client: two clients may use the same jti once each', async () => {
    const first = await newClient();
    const second = await newClient();
    expect((await clientCredentials(await sign(first, { jti: 'shared-jti' }))).status).toBe(200);
    expect((await clientCredentials(await sign(second, { jti: 'shared-jti' }))).status).toBe(200);
    expect((await clientCredentials(await sign(first, { jti: 'shared-jti' }))).status).toBe(401);
  });

  test('a refused assertion (foreign key, expired) does not use up its jti', async () => {
    const clientId = await newClient();
    const forged = await clientCredentials(await sign(clientId, { jti: 'kept', key: keys.foreignKey }));
    expect(forged.status).toBe(401);
    expect(forged.body.error_description).toBe('Invalid client assertion');
    const expired = await clientCredentials(await sign(clientId, { jti: 'kept', expiresIn: -60 }));
    expect(expired.status).toBe(401);
    expect(expired.body.error_description).toBe('Invalid client assertion');
    expect((await clientCredentials(await sign(clientId, { jti: 'kept' }))).status).toBe(200);
  });

  test('five concurrent requests with one assertion: exactly one token', async () => {
    const clientId = await newClient();
    const assertion = await sign(clientId);
    const responses = await Promise.all(Array.from({ length: 5 }, () => clientCredentials(assertion)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  test('a second server instance on the same database refuses the replay (state is in the database)', async () => {
    const port = await findTestPort('localhost');
    // Same public URL as the first instance: one deployment behind a load balancer.
    const config = loadConfig({ PORT: String(port), LOG_LEVEL: 'silent', BASE_URL: server.baseUrl });
    const other: FastifyInstance = await buildServer({ config, db: server.db });
    await other.listen({ port, host: 'localhost' });
    try {
      const clientId = await newClient();
      const assertion = await sign(clientId);
      expect((await clientCredentials(assertion)).status).toBe(200);
      const replay = await clientCredentials(assertion, `http://localhost:${port}/oauth2/token`);
      expect(replay.status).toBe(401);
      expect(replay.body.error_description).toBe('The assertion was already used (jti replayed)');
    } finally {
      await other.close();
    }
  });

  test('recordAssertionUse forgets ids once they expire, and only then accepts them again', async () => {
    const now = Date.now();
    const until = new Date(now + 60_000);
    expect(await recordAssertionUse(server.db, 'client-x', 'id-1', until, new Date(now))).toBe(true);
    expect(await recordAssertionUse(server.db, 'client-x', 'id-1', until, new Date(now + 1000))).toBe(false);
    const later = new Date(now + 120_000);
    expect(await recordAssertionUse(server.db, 'client-x', 'id-1', new Date(now + 180_000), later)).toBe(
      true,
    );
    const { rows } = await server.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM used_assertion WHERE issuer = 'client-x'",
    );
    expect(rows[0].n).toBe(1);
    // Expired rows of other clients are purged as new ones arrive.
    await recordAssertionUse(server.db, 'client-y', 'old', new Date(now - 1000), new Date(now - 2000));
    await recordAssertionUse(server.db, 'client-z', 'new', until, new Date(now));
    const left = await server.db.query("SELECT 1 FROM used_assertion WHERE issuer = 'client-y'");
    expect(left.rows).toHaveLength(0);
  });
});
