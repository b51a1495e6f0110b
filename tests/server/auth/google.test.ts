// POST auth/google (SPEC §7) over real HTTP, with "Google's" signing keys served on loopback
// (GOOGLE_JWKS_URL): a verified ID token signs in, every forged or misdirected one is refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Project } from '@medplum/fhirtypes';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey } from 'jose';
import { findUserByEmail } from '../../../src/server/repo/lookups';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  addMembership,
  createProject,
  createUser,
  outcomeExpression,
  outcomeText,
  postJson,
  uniqueEmail,
} from './support/auth-fixtures';

const GOOGLE_CLIENT_ID = 'bloom-test.apps.googleusercontent.com';

describe.each(databases())('auth/google on %s', (_engine, kind) => {
  let server: TestServer;
  let certs: http.Server;
  let project: Project;
  let googleKey: CryptoKey;
  let otherKey: CryptoKey;

  beforeAll(async () => {
    ({ privateKey: googleKey } = await generateKeyPair('RS256', { extractable: true }));
    ({ privateKey: otherKey } = await generateKeyPair('RS256', { extractable: true }));
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = await exportJWK(googleKey);
    const body = JSON.stringify({ keys: [{ ...publicJwk, kid: 'google-1', alg: 'RS256', use: 'sig' }] });
    certs = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => certs.listen(0, '127.0.0.1', resolve));
    const certsUrl = `http://127.0.0.1:${(certs.address() as AddressInfo).port}/certs`;
    server = await startTestServer(
      kind,
      { GOOGLE_CLIENT_IDS: GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: certsUrl },
      { requireAuth: true },
    );
    project = await createProject(server.db);
  });

  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => certs.close(() => resolve()));
  });

  async function idToken(
    email: string,
    options: { key?: CryptoKey; audience?: string; issuer?: string; verified?: boolean } = {},
  ): Promise<string> {
    return new SignJWT({
      email,
      email_verified: options.verified ?? true,
      given_name: 'Gina',
      family_name: 'Green',
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'google-1' })
      .setIssuer(options.issuer ?? 'https://accounts.google.com')
      .setAudience(options.audience ?? GOOGLE_CLIENT_ID)
      .setSubject('google-sub-1')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(options.key ?? googleKey);
  }

  const google = (body: Record<string, unknown>) =>
    postJson<{ login?: string; code?: string }>(`${server.baseUrl}auth/google`, {
      googleClientId: GOOGLE_CLIENT_ID,
      ...body,
    });

  test('a verified Google ID token signs in an existing user (login response with a code)', async () => {
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Patient');
    const response = await google({ googleCredential: await idToken(user.email as string) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ login: expect.any(String), code: expect.any(String) });
  });

  test('an unknown email is refused unless createUser asks for the User', async () => {
    const email = uniqueEmail('gina');
    const refused = await google({ googleCredential: await idToken(email) });
    expect(refused.status).toBe(400);
    expect(outcomeText(refused.body)).toBe('User not found');
    expect(await findUserByEmail(server.db, email)).toBeUndefined();
    const created = await google({ googleCredential: await idToken(email), createUser: true });
    expect(created.body).toEqual({ login: expect.any(String) });
    const user = await findUserByEmail(server.db, email);
    expect([user?.firstName, user?.lastName, user?.passwordHash]).toEqual(['Gina', 'Green', undefined]);
  });

  test('forged, misdirected or unverified tokens and unconfigured client ids are refused', async () => {
    const user = await createUser(server.db);
    const email = user.email as string;
    for (const credential of [
      await idToken(email, { key: otherKey }),
      await idToken(email, { audience: 'someone-else.apps.googleusercontent.com' }),
      await idToken(email, { issuer: 'https://evil.example' }),
      'not-a-jwt',
    ]) {
      const response = await google({ googleCredential: credential });
      expect(response.status).toBe(400);
      expect(outcomeText(response.body)).toBe('Invalid Google credential');
      expect(outcomeExpression(response.body)).toEqual(['googleCredential']);
    }
    const unverified = await google({ googleCredential: await idToken(email, { verified: false }) });
    expect(outcomeText(unverified.body)).toBe('The Google account has no verified email');
    const otherClient = await google({
      googleClientId: 'other.apps.googleusercontent.com',
      googleCredential: await idToken(email, { audience: 'other.apps.googleusercontent.com' }),
    });
    expect(outcomeExpression(otherClient.body)).toEqual(['googleClientId']);
    const missing = await google({});
    expect(outcomeExpression(missing.body)).toEqual(['googleCredential']);
  });
});
