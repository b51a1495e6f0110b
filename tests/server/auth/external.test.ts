// External identity providers over real HTTP (SPEC §3 IdentityProvider, §4 Login, §7
// auth/method): our auth/external/authorize → a real OpenID provider (oidc-provider on loopback,
// signed in through its interaction pages) → our auth/external callback → code → our token.
import type {
  ClientApplication,
  DomainConfiguration,
  IdentityProvider,
  Login,
  Project,
  User,
} from '@medplum/fhirtypes';
import { SigningKeys } from '../../../src/server/auth/signing-key';
import { Repository, systemContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { APP_ORIGIN, startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  addMembership,
  createClient,
  createProject,
  createUser,
  getJson,
  outcomeExpression,
  outcomeText,
  pkce,
  postForm,
  postJson,
} from './support/auth-fixtures';
import type { Tokens } from './support/auth-fixtures';
import { signInAtProvider, startExternalIdp } from './support/external-idp';
import type { RunningIdp } from './support/external-idp';

const APP_REDIRECT = `${APP_ORIGIN}/signin`;
const SECRET = 'idp-client-secret';

describe.each(databases())('external identity provider on %s', (_engine, kind) => {
  let server: TestServer;
  let base: string;
  let idp: RunningIdp;
  let project: Project;
  let otherProject: Project;
  let subjectClient: ClientApplication;
  const users: Record<string, User> = {};

  function provider(clientId: string, extra: Partial<IdentityProvider> = {}): IdentityProvider {
    return {
      authorizeUrl: idp.authorizeUrl,
      tokenUrl: idp.tokenUrl,
      userInfoUrl: idp.userInfoUrl,
      clientId,
      clientSecret: SECRET,
      ...extra,
    };
  }

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    base = server.baseUrl;
    const callback = `${base}auth/external`;
    const client = (client_id: string, method: 'client_secret_basic' | 'client_secret_post') => ({
      client_id,
      client_secret: SECRET,
      redirect_uris: [callback],
      token_endpoint_auth_method: method,
    });
    idp = await startExternalIdp(
      [
        client('bloom-pkce', 'client_secret_basic'),
        client('bloom-plain', 'client_secret_post'),
        client('bloom-subject', 'client_secret_basic'),
      ],
      {
        alice: { email: 'Alice@pkce.example', email_verified: true },
        bob: { email: 'bob@plain.example', email_verified: true },
        carol: { email: 'carol@pkce.example', email_verified: true },
        dave: { email: 'dave@pkce.example', email_verified: false },
        erin: { email: 'erin@elsewhere.example', email_verified: true },
        'subject-frank-42': { email: 'frank.personal@mail.example', email_verified: true },
        'subject-nobody': { email: 'alice@pkce.example', email_verified: true },
      },
    );
    const repo = new Repository(server.db, systemContext());
    const domain = (name: string, identityProvider: IdentityProvider) =>
      repo.createResource<DomainConfiguration>({
        resourceType: 'DomainConfiguration',
        domain: name,
        identityProvider,
      });
    await domain('pkce.example', provider('bloom-pkce', { usePkce: true }));
    await domain('plain.example', provider('bloom-plain', { tokenAuthMethod: 'client_secret_post' }));
    await domain('badsecret.example', { ...provider('bloom-plain'), clientSecret: 'wrong' });
    await domain('elsewhere.example', provider('bloom-plain', { tokenAuthMethod: 'client_secret_post' }));
    await domain('incomplete.example', { authorizeUrl: idp.authorizeUrl, clientId: 'x' });

    project = await createProject(server.db, 'External Clinic');
    otherProject = await createProject(server.db, 'Other Clinic');
    users.alice = await createUser(server.db, 'alice@pkce.example');
    await addMembership(server.db, users.alice, project, 'Patient');
    users.bob = await createUser(server.db, 'bob@plain.example');
    await addMembership(server.db, users.bob, project, 'Patient');
    await addMembership(server.db, users.bob, otherProject, 'Practitioner');
    users.dave = await createUser(server.db, 'dave@pkce.example');
    await addMembership(server.db, users.dave, project, 'Patient');
    users.erin = await createUser(server.db, 'erin@elsewhere.example');
    await addMembership(server.db, users.erin, project, 'Patient');
    users.frank = await repo.createResource<User>({
      resourceType: 'User',
      firstName: 'Frank',
      lastName: 'Subject',
      email: 'frank@bloom-users.example',
      externalId: 'subject-frank-42',
    });
    await addMembership(server.db, users.frank, project, 'Patient');
    subjectClient = await createClient(server.db, project, {
      redirectUris: [APP_REDIRECT],
      identityProvider: provider('bloom-subject', { useSubject: true }),
    });
  });

  afterAll(async () => {
    await idp?.stop();
    await server?.close();
  });

  interface Start {
    /** Our auth/external/authorize URL, as the app builds it (client getExternalAuthRedirectUri). */
    url: string;
    verifier: string;
  }

  function startUrl(loginRequest: Record<string, unknown>, redirectUri = APP_REDIRECT): Start {
    const { verifier, challenge } = pkce();
    const url = new URL(`${base}auth/external/authorize`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', 'openid profile email');
    url.searchParams.set(
      'state',
      JSON.stringify({ codeChallenge: challenge, codeChallengeMethod: 'S256', ...loginRequest }),
    );
    return { url: url.href, verifier };
  }

  /** Our redirect to the provider (302), checked to leave this server for the provider. */
  async function providerRedirect(url: string): Promise<URL> {
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') as string);
    expect(location.origin).toBe(idp.issuer);
    return location;
  }

  /** Our callback's answer: a 302 back to the app. */
  async function callback(url: URL | string): Promise<URL> {
    const response = await fetch(url, { redirect: 'manual' });
    if (response.status !== 302) {
      throw new Error(`callback answered ${response.status}: ${await response.text()}`);
    }
    return new URL(response.headers.get('location') as string);
  }

  async function fullSignIn(loginRequest: Record<string, unknown>, account: string) {
    const start = startUrl(loginRequest);
    const atProvider = await providerRedirect(start.url);
    const back = await signInAtProvider(atProvider.href, { account });
    return { start, atProvider, back, app: await callback(back) };
  }

  async function exchange(code: string, verifier: string, extra: Record<string, string> = {}) {
    return postForm<Tokens & { error_description?: string }>(`${base}oauth2/token`, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      ...extra,
    });
  }

  describe('POST auth/method (SPEC §7)', () => {
    test('a domain with a provider answers its domain and this server’s external authorize address', async () => {
      const response = await postJson(`${base}auth/method`, { email: 'someone@PKCE.example' });
      expect(response.body).toEqual({
        domain: 'pkce.example',
        authorizeUrl: `${base}auth/external/authorize`,
      });
    });

    test('a client with a provider answers it too; an unknown client or plain domain answers {}', async () => {
      const withClient = await postJson(`${base}auth/method`, {
        email: 'x@nowhere.example',
        clientId: subjectClient.id,
      });
      expect(withClient.body).toEqual({
        domain: 'nowhere.example',
        authorizeUrl: `${base}auth/external/authorize`,
      });
      expect(
        (await postJson(`${base}auth/method`, { email: 'x@nowhere.example', clientId: 'nope' })).body,
      ).toEqual({});
      expect((await postJson(`${base}auth/method`, { email: 'x@nowhere.example' })).body).toEqual({});
    });
  });

  describe('the whole chain against the real provider', () => {
    test('SPEC §4 with PKCE (usePkce): redirect carries client_id, our callback, scope, signed state and S256; code → tokens', async () => {
      const { atProvider, back, app, start } = await fullSignIn({ domain: 'pkce.example' }, 'alice');
      const params = atProvider.searchParams;
      expect(params.get('client_id')).toBe('bloom-pkce');
      expect(params.get('redirect_uri')).toBe(`${base}auth/external`);
      expect(params.get('response_type')).toBe('code');
      expect(params.get('scope')).toBe('openid profile email');
      expect(params.get('code_challenge_method')).toBe('S256');
      expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      // The state is ours and signed: three JWT parts, not the app's JSON.
      expect(params.get('state')?.split('.')).toHaveLength(3);
      expect(back.href.startsWith(`${base}auth/external?`)).toBe(true);
      expect(back.searchParams.get('code')).toBeTruthy();

      expect(`${app.origin}${app.pathname}`).toBe(APP_REDIRECT);
      const code = app.searchParams.get('code') as string;
      expect(code).toBeTruthy();
      const login = await new Repository(server.db, systemContext()).readResource<Login>(
        'Login',
        app.searchParams.get('login') as string,
      );
      expect(login.authMethod).toBe('external');
      expect(login.user.reference).toBe(`User/${users.alice.id}`);
      const tokens = await exchange(code, start.verifier);
      expect(tokens.status).toBe(200);
      expect(tokens.body.project?.reference).toBe(`Project/${project.id}`);
      const me = await getJson<{ profile?: { resourceType?: string } }>(`${base}auth/me`, {
        authorization: `Bearer ${tokens.body.access_token}`,
      });
      expect(me.status).toBe(200);
      expect(me.body.profile?.resourceType).toBe('Patient');
    });

    test("the app's own PKCE still guards the code: a wrong code_verifier is refused", async () => {
      const { app } = await fullSignIn({ domain: 'pkce.example' }, 'alice');
      const tokens = await exchange(app.searchParams.get('code') as string, pkce().verifier);
      expect(tokens.status).toBe(400);
      expect(tokens.body.error_description).toBe('Invalid code_verifier');
    });

    test('without PKCE (client_secret_post): no code_challenge sent; two memberships → ?login= to choose a profile', async () => {
      const { atProvider, app } = await fullSignIn({ domain: 'plain.example' }, 'bob');
      expect(atProvider.searchParams.get('client_id')).toBe('bloom-plain');
      expect(atProvider.searchParams.has('code_challenge')).toBe(false);
      expect(app.searchParams.get('code')).toBeNull();
      const loginId = app.searchParams.get('login') as string;
      const step = await getJson<{ memberships?: unknown[] }>(`${base}auth/login/${loginId}`);
      expect(step.status).toBe(200);
      expect(step.body.memberships).toHaveLength(2);
    });

    test('useSubject: the ClientApplication’s provider matches User.externalId = sub, not the email; the code is the client’s', async () => {
      const { atProvider, app, start } = await fullSignIn({ clientId: subjectClient.id }, 'subject-frank-42');
      expect(atProvider.searchParams.get('client_id')).toBe('bloom-subject');
      const code = app.searchParams.get('code') as string;
      expect(code).toBeTruthy();
      const tokens = await exchange(code, start.verifier, {
        client_id: subjectClient.id as string,
        redirect_uri: APP_REDIRECT,
      });
      expect(tokens.status).toBe(200);
      const login = await new Repository(server.db, systemContext()).readResource<Login>(
        'Login',
        app.searchParams.get('login') as string,
      );
      expect(login.user.reference).toBe(`User/${users.frank.id}`);
      expect(login.client?.reference).toBe(`ClientApplication/${subjectClient.id}`);
    });
  });

  describe('failures after the provider: back to the app with error and error_description', () => {
    async function appError(loginRequest: Record<string, unknown>, account: string) {
      const { app } = await fullSignIn(loginRequest, account);
      expect(`${app.origin}${app.pathname}`).toBe(APP_REDIRECT);
      expect(app.searchParams.get('code')).toBeNull();
      return { error: app.searchParams.get('error'), description: app.searchParams.get('error_description') };
    }

    async function loginCount(): Promise<number> {
      const { rows } = await server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM resource WHERE resource_type = 'Login'`,
      );
      return rows[0].n;
    }

    test('an account with no Bloom user: User not found, and no Login is made', async () => {
      const before = await loginCount();
      expect(await appError({ domain: 'pkce.example' }, 'carol')).toEqual({
        error: 'access_denied',
        description: 'User not found',
      });
      expect(await loginCount()).toBe(before);
    });

    test('useSubject with a subject no user carries (even though its email matches a user)', async () => {
      expect(await appError({ clientId: subjectClient.id }, 'subject-nobody')).toEqual({
        error: 'access_denied',
        description: 'User not found for this identity provider account',
      });
    });

    test('an email the provider has not verified is refused', async () => {
      expect(await appError({ domain: 'pkce.example' }, 'dave')).toEqual({
        error: 'access_denied',
        description: 'The identity provider has not verified this email address',
      });
    });

    test("an email outside the state's domain is refused", async () => {
      // erin@elsewhere.example signs in at the provider of plain.example's flow.
      expect(await appError({ domain: 'plain.example' }, 'erin')).toEqual({
        error: 'access_denied',
        description: 'Email address does not match domain',
      });
    });

    test('the provider refuses (error=access_denied from its interaction)', async () => {
      const start = startUrl({ domain: 'pkce.example' });
      const back = await signInAtProvider((await providerRedirect(start.url)).href, {
        account: 'alice',
        abort: true,
      });
      expect(back.searchParams.get('error')).toBe('access_denied');
      const app = await callback(back);
      expect(app.searchParams.get('error')).toBe('access_denied');
      expect(app.searchParams.get('error_description')).toBe(
        'The identity provider refused the sign-in (access_denied): The person declined the sign-in',
      );
    });

    test('the token endpoint refuses our client (wrong client secret)', async () => {
      const { error, description } = await appError({ domain: 'badsecret.example' }, 'bob');
      expect(error).toBe('server_error');
      expect(description).toMatch(/^The identity provider refused the code: /);
    });

    test('a code the provider did not issue is refused at its token endpoint', async () => {
      const { back } = await fullSignIn({ domain: 'pkce.example' }, 'alice');
      const forged = new URL(back);
      forged.searchParams.set('code', 'not-a-code-the-provider-issued');
      const app = await callback(forged);
      expect(app.searchParams.get('error')).toBe('server_error');
      expect(app.searchParams.get('error_description')).toMatch(/^The identity provider refused the code/);
    });

    test('a callback with neither code nor error', async () => {
      const { back } = await fullSignIn({ domain: 'pkce.example' }, 'alice');
      const bare = new URL(`${base}auth/external`);
      bare.searchParams.set('state', back.searchParams.get('state') as string);
      const app = await callback(bare);
      expect(app.searchParams.get('error')).toBe('invalid_request');
      expect(app.searchParams.get('error_description')).toBe('The identity provider sent no code');
    });
  });

  describe('the callback refuses a state that is not ours (400, no redirect)', () => {
    async function refused(url: URL, message: string) {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      const body: unknown = await response.json();
      expect(outcomeText(body)).toBe(message);
      expect(outcomeExpression(body)).toEqual(['state']);
    }

    test('a tampered state (redirect address changed, signature kept)', async () => {
      const { back } = await fullSignIn({ domain: 'pkce.example' }, 'alice');
      const [header, payload, signature] = (back.searchParams.get('state') as string).split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      claims.redirectUri = 'https://attacker.example/steal';
      const tampered = new URL(back);
      tampered.searchParams.set(
        'state',
        [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.'),
      );
      await refused(tampered, 'Invalid state');
    });

    test("a state that is the app's raw JSON, or missing", async () => {
      const raw = new URL(`${base}auth/external`);
      raw.searchParams.set('code', 'abc');
      raw.searchParams.set('state', JSON.stringify({ domain: 'pkce.example', redirectUri: APP_REDIRECT }));
      await refused(raw, 'Invalid state');
      const missing = new URL(`${base}auth/external?code=abc`);
      await refused(missing, 'Missing state');
    });

    test('a state of ours that has expired (signed with the server key, past its lifetime)', async () => {
      const claims = {
        purpose: 'bloom-external-login',
        aud: `${base}auth/external`,
        domain: 'pkce.example',
        codeChallenge: pkce().challenge,
        codeChallengeMethod: 'S256',
        redirectUri: APP_REDIRECT,
        nonce: 'n1',
      };
      const keys = new SigningKeys(server.db, server.config.baseUrl);
      const url = new URL(`${base}auth/external?code=abc`);
      url.searchParams.set('state', await keys.sign(claims, -60));
      await refused(url, 'The external sign-in took too long: its state expired');
      // The same claims within their lifetime are accepted (the code then fails at the provider).
      url.searchParams.set('state', await keys.sign(claims, 60));
      const app = await callback(url);
      expect(app.searchParams.get('error')).toBe('server_error');
    });

    test('an access token of ours is not a state', async () => {
      const { app, start } = await fullSignIn({ domain: 'pkce.example' }, 'alice');
      const tokens = await exchange(app.searchParams.get('code') as string, start.verifier);
      const url = new URL(`${base}auth/external?code=abc`);
      url.searchParams.set('state', tokens.body.access_token);
      await refused(url, 'Invalid state');
    });
  });

  describe('GET auth/external/authorize refuses bad login requests (400, nothing sent to the provider)', () => {
    async function refusedStart(url: string, message: string, expression?: string[]) {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      const body: unknown = await response.json();
      expect(outcomeText(body)).toBe(message);
      if (expression) expect(outcomeExpression(body)).toEqual(expression);
    }

    test('missing or malformed state', async () => {
      await refusedStart(`${base}auth/external/authorize?redirect_uri=${APP_REDIRECT}`, 'Missing state', [
        'state',
      ]);
      await refusedStart(`${base}auth/external/authorize?state=%7Bnope`, 'state must be a JSON object', [
        'state',
      ]);
      await refusedStart(`${base}auth/external/authorize?state=%5B%5D`, 'state must be a JSON object', [
        'state',
      ]);
    });

    test('SPEC §5 no code challenge, or a plain one', async () => {
      const url = new URL(`${base}auth/external/authorize`);
      url.searchParams.set('redirect_uri', APP_REDIRECT);
      url.searchParams.set('state', JSON.stringify({ domain: 'pkce.example' }));
      await refusedStart(url.href, 'External sign-in needs a codeChallenge', ['codeChallenge']);
      url.searchParams.set(
        'state',
        JSON.stringify({ domain: 'pkce.example', codeChallenge: 'abc', codeChallengeMethod: 'plain' }),
      );
      await refusedStart(url.href, "codeChallengeMethod must be 'S256'", ['codeChallengeMethod']);
    });

    test('a redirect address outside the app, or not registered for the client', async () => {
      await refusedStart(
        startUrl({ domain: 'pkce.example' }, 'https://attacker.example/signin').url,
        'redirect_uri is not an address of this app',
        ['redirect_uri'],
      );
      await refusedStart(
        startUrl({ clientId: subjectClient.id }, `${APP_ORIGIN}/elsewhere`).url,
        'redirect_uri is not registered for this client',
        ['redirect_uri'],
      );
      await refusedStart(startUrl({ domain: 'pkce.example' }, '').url, 'Missing redirect_uri', [
        'redirect_uri',
      ]);
    });

    test('an unknown client, a domain with no provider, an incomplete provider, a foreign project', async () => {
      await refusedStart(startUrl({ clientId: 'no-such-client' }).url, 'Client not found', ['clientId']);
      await refusedStart(startUrl({ domain: 'nowhere.example' }).url, 'Identity provider not found', [
        'domain',
      ]);
      await refusedStart(
        startUrl({ domain: 'incomplete.example' }).url,
        'The identity provider configuration has no tokenUrl',
      );
      await refusedStart(
        startUrl({ clientId: subjectClient.id, projectId: otherProject.id }).url,
        'Invalid project: the client belongs to another project',
        ['projectId'],
      );
    });
  });
});
