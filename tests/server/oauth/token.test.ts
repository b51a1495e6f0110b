// SPEC §7 token call and OAuth2 over real HTTP: every grant with its failures, rotation
// and reuse detection of refresh tokens, logout, userinfo, authorize, discovery, and the FHIR API's
// token check (tampered, foreign-signed, expired, revoked).
import type { JsonWebKey as JsonWebKeyResource, Login, Patient, Project } from '@medplum/fhirtypes';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import type { CryptoKey } from 'jose';
import { findActiveJsonWebKeys } from '../../../src/server/repo/lookups';
import { Repository, systemContext } from '../../../src/server/repo';
import {
  addMembership,
  createClient,
  createProject,
  createUser,
  getJson,
  outcomeText,
  PASSWORD,
  pkce,
  postForm,
  postJson,
  signIn,
} from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

interface OAuthErrorBody {
  error: string;
  error_description: string;
}

describe.each(databases())('OAuth2 on %s', (_engine, kind) => {
  let server: TestServer;
  let base: string;
  let project: Project;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    base = server.baseUrl;
    project = await createProject(server.db);
  });

  afterAll(async () => {
    await server.close();
  });

  async function newAccount(): Promise<{ email: string }> {
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Patient');
    return { email: user.email as string };
  }

  async function loginCode(email: string, extra: Record<string, unknown> = {}) {
    const { verifier, challenge } = pkce();
    const login = await postJson<{ login: string; code: string }>(`${base}auth/login`, {
      email,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      ...extra,
    });
    return { verifier, code: login.body.code, loginId: login.body.login };
  }

  const token = (form: Record<string, string>, headers?: Record<string, string>) =>
    postForm<Tokens & OAuthErrorBody>(`${base}oauth2/token`, form, headers);
  const me = (accessToken: string) => getJson(`${base}auth/me`, { authorization: `Bearer ${accessToken}` });

  describe('authorization_code', () => {
    test('identity.md the access token carries Medplum claims and a 1 h expiry', async () => {
      const { email } = await newAccount();
      const tokens = await signIn(base, email);
      const [, payload] = tokens.access_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      expect(claims).toMatchObject({
        iss: base,
        login_id: expect.any(String),
        sub: expect.any(String),
        username: expect.any(String),
        scope: expect.any(String),
        profile: tokens.profile?.reference,
      });
      expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
      expect(tokens.id_token).toEqual(expect.any(String));
    });

    test('a wrong code_verifier is invalid_grant; a missing one is invalid_request', async () => {
      const { email } = await newAccount();
      const { code } = await loginCode(email);
      const wrong = await token({ grant_type: 'authorization_code', code, code_verifier: pkce().verifier });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid code_verifier' });
      const missing = await token({ grant_type: 'authorization_code', code });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('invalid_request');
    });

    test('a code is single-use: the second exchange fails and revokes the tokens of the first', async () => {
      const { email } = await newAccount();
      const { code, verifier } = await loginCode(email);
      const first = await token({ grant_type: 'authorization_code', code, code_verifier: verifier });
      expect(first.status).toBe(200);
      expect((await me(first.body.access_token)).status).toBe(200);
      const second = await token({ grant_type: 'authorization_code', code, code_verifier: verifier });
      expect(second.status).toBe(400);
      expect(second.body).toEqual({
        error: 'invalid_grant',
        error_description: 'Authorization code already used',
      });
      expect((await me(first.body.access_token)).status).toBe(401);
    });

    test('two concurrent exchanges of one code: only one gets tokens', async () => {
      const { email } = await newAccount();
      const { code, verifier } = await loginCode(email);
      const results = await Promise.all([
        token({ grant_type: 'authorization_code', code, code_verifier: verifier }),
        token({ grant_type: 'authorization_code', code, code_verifier: verifier }),
      ]);
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    });

    test('an unknown code, and an expired code, are invalid_grant', async () => {
      const unknown = await token({ grant_type: 'authorization_code', code: 'abc', code_verifier: 'x' });
      expect(unknown.body).toEqual({
        error: 'invalid_grant',
        error_description: 'Invalid authorization code',
      });
      const { email } = await newAccount();
      const { code, verifier, loginId } = await loginCode(email);
      const old = new Date(Date.now() - 11 * 60_000).toISOString();
      await server.db.query(
        `UPDATE resource SET content = jsonb_set(content, '{meta,lastUpdated}', to_jsonb($2::text))
         WHERE resource_type = 'Login' AND id = $1`,
        [loginId, old],
      );
      const expired = await token({ grant_type: 'authorization_code', code, code_verifier: verifier });
      expect(expired.body).toEqual({
        error: 'invalid_grant',
        error_description: 'Authorization code expired',
      });
    });

    test('a code of a client is redeemed only for one of its registered redirect URIs', async () => {
      const client = await createClient(server.db, project, { redirectUris: ['https://app.example/cb'] });
      const { email } = await newAccount();
      const exchange = async (redirectUri: string) => {
        const { code, verifier } = await loginCode(email, { clientId: client.id });
        return token({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          client_id: client.id as string,
          redirect_uri: redirectUri,
        });
      };
      const foreign = await exchange('https://evil.example/cb');
      expect(foreign.body).toEqual({
        error: 'invalid_grant',
        error_description: 'redirect_uri is not registered for this client',
      });
      expect((await exchange('https://app.example/cb')).status).toBe(200);
    });

    test('an unknown clientId at sign-in is a 400 on the clientId field', async () => {
      const { email } = await newAccount();
      const response = await postJson(`${base}auth/login`, {
        email,
        password: PASSWORD,
        clientId: 'no-such-client',
      });
      expect(response.status).toBe(400);
      expect(outcomeText(response.body)).toBe('Client not found');
    });

    test('a login without PKCE cannot exchange its code as a public client', async () => {
      const { email } = await newAccount();
      const login = await postJson<{ code: string }>(`${base}auth/login`, { email, password: PASSWORD });
      const response = await token({ grant_type: 'authorization_code', code: login.body.code });
      expect(response.status).toBe(400);
      expect(response.body.error_description).toMatch(/PKCE/);
    });
  });

  describe('refresh_token', () => {
    test('each refresh rotates the refresh token; reusing a rotated one revokes the whole sign-in', async () => {
      const { email } = await newAccount();
      const first = await signIn(base, email);
      const second = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token as string,
      });
      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      expect((await me(second.body.access_token)).status).toBe(200);

      const replay = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token as string,
      });
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');
      expect(replay.body.error_description).toMatch(/revoked/);
      // Everything issued from the sign-in is dead now: the newest access and refresh tokens too.
      expect((await me(second.body.access_token)).status).toBe(401);
      const after = await token({
        grant_type: 'refresh_token',
        refresh_token: second.body.refresh_token as string,
      });
      expect(after.status).toBe(400);
    });

    test('two concurrent refreshes with the same token: exactly one succeeds', async () => {
      const { email } = await newAccount();
      const tokens = await signIn(base, email);
      const results = await Promise.all([
        token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string }),
        token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    });

    test('an access token is not a refresh token, and garbage is invalid_grant', async () => {
      const { email } = await newAccount();
      const tokens = await signIn(base, email);
      for (const refreshToken of [tokens.access_token, 'garbage']) {
        const response = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('invalid_grant');
      }
    });

    test('a confidential client must authenticate to refresh', async () => {
      const client = await createClient(server.db, project, {
        secret: 'client-secret-value-1',
      });
      const { email } = await newAccount();
      const { code, verifier } = await loginCode(email, { clientId: client.id });
      const tokens = await token({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: client.id as string,
      });
      expect(tokens.status).toBe(200);
      expect(
        JSON.parse(Buffer.from(tokens.body.access_token.split('.')[1], 'base64url').toString()),
      ).toMatchObject({
        client_id: client.id,
        cid: client.id,
      });
      const anonymous = await token({
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token as string,
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error).toBe('invalid_client');
      const authenticated = await token({
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token as string,
        client_id: client.id as string,
        client_secret: 'client-secret-value-1',
      });
      expect(authenticated.status).toBe(200);
    });
  });

  describe('client_credentials', () => {
    test('client_secret_basic and client_secret_post both work; the token acts as the client', async () => {
      const client = await createClient(server.db, project, { secret: 'very-secret-client-2' });
      const basic = await token(
        { grant_type: 'client_credentials' },
        { authorization: `Basic ${Buffer.from(`${client.id}:very-secret-client-2`).toString('base64')}` },
      );
      expect(basic.status).toBe(200);
      expect(basic.body.refresh_token).toBeUndefined();
      expect(basic.body.profile?.reference).toBe(`ClientApplication/${client.id}`);
      const post = await token({
        grant_type: 'client_credentials',
        client_id: client.id as string,
        client_secret: 'very-secret-client-2',
      });
      expect(post.status).toBe(200);
      const created = await fetch(`${server.fhirUrl}Patient`, {
        method: 'POST',
        headers: {
          'content-type': 'application/fhir+json',
          authorization: `Bearer ${post.body.access_token}`,
        },
        body: JSON.stringify({ resourceType: 'Patient', name: [{ family: 'ByClient' }] }),
      });
      expect(created.status).toBe(201);
      const patient = (await created.json()) as Patient;
      expect(patient.meta?.author?.reference).toBe(`ClientApplication/${client.id}`);
      expect(patient.meta?.project).toBe(project.id);
    });

    test('a wrong secret, an unknown client and no credentials are invalid_client (401)', async () => {
      const client = await createClient(server.db, project, { secret: 'right-secret-value-3' });
      const forms: Record<string, string>[] = [
        { grant_type: 'client_credentials', client_id: client.id as string, client_secret: 'wrong' },
        { grant_type: 'client_credentials', client_id: 'unknown-client', client_secret: 'whatever' },
        { grant_type: 'client_credentials' },
      ];
      for (const form of forms) {
        const response = await token(form);
        expect(response.status).toBe(401);
        expect(response.body.error).toBe('invalid_client');
        expect(response.headers.get('www-authenticate')).toBe('Basic');
      }
    });

    test('grant_type missing or unsupported, JSON instead of a form, an oversized body', async () => {
      expect((await token({})).body).toEqual({
        error: 'invalid_request',
        error_description: 'Missing grant_type',
      });
      expect((await token({ grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
      const json = await postJson(`${base}oauth2/token`, { grant_type: 'client_credentials' });
      expect(json.status).toBe(400);
      expect(json.body.error).toBe('invalid_request');
      const huge = await token({ grant_type: 'client_credentials', client_id: 'x'.repeat(70_000) });
      expect(huge.status).toBe(413);
      expect(huge.body.error).toBe('invalid_request');
    });
  });

  describe('logout and userinfo', () => {
    test('oauth2/logout revokes the sign-in: its access and refresh tokens stop working', async () => {
      const { email } = await newAccount();
      const tokens = await signIn(base, email);
      const auth = { authorization: `Bearer ${tokens.access_token}` };
      const info = await getJson(`${base}oauth2/userinfo`, auth);
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ email, profile: tokens.profile?.reference, given_name: 'Test' });
      expect((await postJson(`${base}oauth2/userinfo`, {}, auth)).status).toBe(200);
      expect((await postJson(`${base}oauth2/logout`, {}, auth)).status).toBe(200);
      const afterwards = await getJson(`${base}oauth2/userinfo`, auth);
      expect(afterwards.status).toBe(401);
      expect(afterwards.body.error).toBe('invalid_token');
      const refresh = await token({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token as string,
      });
      expect(refresh.body.error).toBe('invalid_grant');
    });
  });

  describe('GET oauth2/authorize', () => {
    const redirectUri = 'https://app.example/callback';

    function authorizeUrl(params: Record<string, string>): string {
      return `${base}oauth2/authorize?${new URLSearchParams(params).toString()}`;
    }

    test('a valid PKCE request goes to the app sign-in page carrying the query', async () => {
      const client = await createClient(server.db, project, { redirectUris: [redirectUri] });
      const params = {
        response_type: 'code',
        client_id: client.id as string,
        redirect_uri: redirectUri,
        state: 'xyz',
        scope: 'openid profile',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      };
      const response = await getJson(authorizeUrl(params));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') as string);
      expect(location.origin + location.pathname).toBe('http://localhost:3000/signin');
      expect(Object.fromEntries(location.searchParams)).toEqual(params);
    });

    test('an unknown client or an unregistered redirect_uri is answered here, never redirected', async () => {
      const client = await createClient(server.db, project, { redirectUris: [redirectUri] });
      const unknown = await getJson(
        authorizeUrl({ response_type: 'code', client_id: 'nope', redirect_uri: redirectUri }),
      );
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ error: 'invalid_request', error_description: 'Unknown client' });
      const unregistered = await getJson(
        authorizeUrl({
          response_type: 'code',
          client_id: client.id as string,
          redirect_uri: 'https://evil.example/',
        }),
      );
      expect(unregistered.status).toBe(400);
      expect(unregistered.body.error_description).toBe('redirect_uri is not registered for this client');
    });

    test.each([
      [{ code_challenge_method: 'plain' }, 'invalid_request', "code_challenge_method must be 'S256'"],
      [{ code_challenge: '' }, 'invalid_request', 'code_challenge is required (PKCE)'],
      [{ response_type: 'token' }, 'unsupported_response_type', "response_type must be 'code'"],
    ])(
      '%j goes back to the redirect_uri with an error and the state',
      async (override, error, description) => {
        const client = await createClient(server.db, project, { redirectUris: [redirectUri] });
        const params: Record<string, string> = {
          response_type: 'code',
          client_id: client.id as string,
          redirect_uri: redirectUri,
          state: 's1',
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          ...override,
        };
        const response = await getJson(authorizeUrl(params));
        expect(response.status).toBe(302);
        const location = new URL(response.headers.get('location') as string);
        expect(location.origin + location.pathname).toBe(redirectUri);
        expect(Object.fromEntries(location.searchParams)).toEqual({
          error,
          error_description: description,
          state: 's1',
        });
      },
    );
  });

  describe('discovery', () => {
    test('jwks.json publishes the public signing key only; openid and smart configurations', async () => {
      const jwks = await getJson<{ keys: Record<string, string>[] }>(`${base}.well-known/jwks.json`);
      expect(jwks.body.keys.length).toBeGreaterThan(0);
      for (const key of jwks.body.keys) {
        expect(key).toMatchObject({
          kty: 'EC',
          crv: 'P-256',
          alg: 'ES256',
          use: 'sig',
          kid: expect.any(String),
        });
        expect(key).not.toHaveProperty('d');
      }
      const openid = await getJson(`${base}.well-known/openid-configuration`);
      expect(openid.body).toMatchObject({
        issuer: base,
        token_endpoint: `${base}oauth2/token`,
        authorization_endpoint: `${base}oauth2/authorize`,
        jwks_uri: `${base}.well-known/jwks.json`,
        code_challenge_methods_supported: ['S256'],
      });
      const smart = await getJson(`${base}.well-known/smart-configuration`);
      expect(smart.body).toMatchObject({
        token_endpoint: `${base}oauth2/token`,
        capabilities: expect.any(Array),
      });
    });

    test('the signing key is created once and stored as a JsonWebKey resource', async () => {
      const keys = await findActiveJsonWebKeys(server.db);
      expect(keys).toHaveLength(1);
      expect(keys[0].d).toEqual(expect.any(String));
    });
  });

  describe('FHIR API authentication (issue #3)', () => {
    async function fhirGet(path: string, headers: Record<string, string> = {}) {
      return getJson(`${server.fhirUrl}${path}`, headers);
    }

    async function serverKey(): Promise<CryptoKey> {
      const [key] = (await findActiveJsonWebKeys(server.db)) as JsonWebKeyResource[];
      return (await importJWK(
        { kty: key.kty, crv: key.crv, x: key.x, y: key.y, d: key.d },
        'ES256',
      )) as CryptoKey;
    }

    test('without a token a FHIR request is a 401 Unauthenticated; metadata stays public', async () => {
      const response = await fhirGet('Patient');
      expect(response.status).toBe(401);
      expect(outcomeText(response.body)).toBe('Unauthenticated');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await fhirGet('NoSuchType/1')).status).toBe(401);
      expect((await fhirGet('metadata')).status).toBe(200);
    });

    test('with a token the request acts as the profile, in its project', async () => {
      const { email } = await newAccount();
      const tokens = await signIn(base, email);
      const created = await fetch(`${server.fhirUrl}Observation`, {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${tokens.access_token}` },
        body: JSON.stringify({
          resourceType: 'Observation',
          status: 'preliminary',
          code: { text: 'Weight' },
          // A patient creates only within their own compartment (SPEC §6).
          subject: tokens.profile,
        }),
      });
      expect(created.status).toBe(201);
      const body = (await created.json()) as Patient;
      expect(body.meta?.author?.reference).toBe(tokens.profile?.reference);
      expect(body.meta?.project).toBe(project.id);
    });

    test('a tampered, a foreign-signed, an expired or a wrong-issuer token is a 401', async () => {
      const { email } = await newAccount();
      const tokens = await signIn(base, email);
      const [header, payload, signature] = tokens.access_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, profile: 'Patient/other' })).toString('base64url')}.${signature}`;

      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const foreignJwk = await exportJWK(privateKey);
      expect(foreignJwk.d).toBeDefined();
      const foreign = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'x' })
        .sign(privateKey);

      const now = Math.floor(Date.now() / 1000);
      const key = await serverKey();
      const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(key);
      const wrongIssuer = await new SignJWT({ ...claims, iss: 'https://elsewhere.example/' })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(key);
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;

      for (const bad of [tampered, foreign, expired, wrongIssuer, unsigned]) {
        const response = await fhirGet('Patient', { authorization: `Bearer ${bad}` });
        expect(response.status).toBe(401);
        expect(outcomeText(response.body)).toBe('Unauthenticated');
      }
      expect((await fhirGet('Patient', { authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    });

    test('a token whose Login was revoked is a 401', async () => {
      const { email } = await newAccount();
      const tokens = await signIn(base, email);
      const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString()) as {
        login_id: string;
      };
      const repo = new Repository(server.db, systemContext());
      const login = await repo.readResource<Login>('Login', claims.login_id);
      await repo.updateResource<Login>({ ...login, revoked: true });
      expect((await fhirGet('Patient', { authorization: `Bearer ${tokens.access_token}` })).status).toBe(401);
    });

    test('Basic client_id:secret authenticates a client application on the FHIR API', async () => {
      const client = await createClient(server.db, project, { secret: 'basic-fhir-secret-4' });
      const good = Buffer.from(`${client.id}:basic-fhir-secret-4`).toString('base64');
      const bad = Buffer.from(`${client.id}:nope`).toString('base64');
      expect((await fhirGet('Patient', { authorization: `Basic ${good}` })).status).toBe(200);
      expect((await fhirGet('Patient', { authorization: `Basic ${bad}` })).status).toBe(401);
    });
  });
});
