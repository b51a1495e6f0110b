import { createHash } from 'node:crypto';
import { BloomClient } from '../../src/client';
import type { BloomClientOptions, NavigationLike, SessionDetails } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { LoginState } from '../../src/client/storage';
import { fakeFetch, jsonResponse } from './support/fake-fetch';
import type { FakeFetch, RecordedCall } from './support/fake-fetch';
import { accessToken } from './support/tokens';

const BASE = 'http://api.test/';

const session: SessionDetails = {
  profile: { resourceType: 'Patient', id: 'maria', name: [{ given: ['Maria'], family: 'Lopez' }] },
  project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
  membership: {
    resourceType: 'ProjectMembership',
    id: 'm1',
    project: { reference: 'Project/clinic' },
    user: { reference: 'User/u1' },
    profile: { reference: 'Patient/maria' },
  },
  config: { resourceType: 'UserConfiguration', id: 'c1' },
};

function tokenResponse(token = accessToken({ clientId: 'bloom-app' })) {
  return {
    token_type: 'Bearer',
    access_token: token,
    refresh_token: 'r1',
    expires_in: 3600,
    project: { reference: 'Project/clinic' },
    profile: { reference: 'Patient/maria' },
  };
}

function form(call: RecordedCall): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(call.body));
}

function json(call: RecordedCall): Record<string, unknown> {
  return JSON.parse(call.body ?? 'null') as Record<string, unknown>;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

class FakeNavigation implements NavigationLike {
  origin = 'http://app.test';
  search = '';
  assigned: string[] = [];
  reloads = 0;
  assign(url: string): void {
    this.assigned.push(url);
  }
  reload(): void {
    this.reloads++;
  }
}

interface Setup {
  fake: FakeFetch;
  backend: MemoryStorage;
  storage: PrefixedStorage;
  client: BloomClient;
  navigation: FakeNavigation;
  onUnauthenticated: jest.Mock;
}

function setup(options: Partial<BloomClientOptions> = {}, stored?: LoginState): Setup {
  const fake = fakeFetch();
  fake.on('GET', '/auth/me', () => jsonResponse(session));
  const backend = new MemoryStorage();
  const storage = new PrefixedStorage(backend);
  if (stored) {
    storage.setObject('activeLogin', stored);
  }
  const navigation = new FakeNavigation();
  const onUnauthenticated = jest.fn();
  const client = new BloomClient({
    baseUrl: BASE,
    clientId: 'bloom-app',
    fetch: fake.fetch,
    storage,
    navigation,
    onUnauthenticated,
    ...options,
  });
  return { fake, backend, storage, client, navigation, onUnauthenticated };
}

describe('BloomClient construction (SPEC §3, §5, §8)', () => {
  test('"Base URL must start with http or https"', () => {
    expect(() => new BloomClient({ baseUrl: 'api.test', fetch: fakeFetch().fetch })).toThrow(
      'Base URL must start with http or https',
    );
  });

  test('"Fetch not available in this environment" without a global or injected fetch', () => {
    const saved = globalThis.fetch;
    // @ts-expect-error removing fetch to simulate an old runtime
    delete globalThis.fetch;
    try {
      expect(() => new BloomClient({ baseUrl: BASE })).toThrow('Fetch not available in this environment');
      expect(() => new BloomClient({ baseUrl: BASE, fetch: fakeFetch().fetch })).not.toThrow();
    } finally {
      globalThis.fetch = saved;
    }
  });

  test('uses the global fetch when none is injected; URLs from the settings', () => {
    const client = new BloomClient({ baseUrl: 'http://api.test' });
    expect(client.getBaseUrl()).toBe(BASE);
    expect(client.fhirUrl('Patient', 'x')).toBe('http://api.test/fhir/R4/Patient/x');
    expect(client.getAuthorizeUrl()).toBe('http://api.test/oauth2/authorize');
    expect(client.getTokenUrl()).toBe('http://api.test/oauth2/token');
    expect(client.getLogoutUrl()).toBe('http://api.test/oauth2/logout');
    expect(client.getSettings().cacheTime).toBe(0);
    expect(client.isAuthenticated()).toBe(false);
    expect(client.getProfile()).toBeUndefined();
  });

  test('a stored login is restored and its session loaded', async () => {
    const token = accessToken({ clientId: 'bloom-app' });
    const { client, fake } = setup(
      {},
      { accessToken: token, refreshToken: 'r', profile: { reference: 'Patient/maria' } },
    );
    expect(client.getAccessToken()).toBe(token);
    expect(client.isAuthenticated()).toBe(true);
    expect(await client.getProfileAsync()).toEqual(session.profile);
    expect(fake.callsTo('GET', '/auth/me')[0].headers.Authorization).toBe(`Bearer ${token}`);
  });
});

describe('SPEC §4 password sign-in (Medplum payloads)', () => {
  test('startLogin posts auth/login with a fresh S256 challenge; the verifier waits in storage', async () => {
    const { client, fake, storage } = setup();
    fake.on('POST', '/auth/login', () => jsonResponse({ login: 'l1', code: 'c1' }));
    const response = await client.startLogin({
      email: 'maria@bloom.example',
      password: 'bloom-demo',
      remember: true,
      projectId: 'clinic',
      scope: 'openid',
    });
    expect(response).toEqual({ login: 'l1', code: 'c1' });
    const call = fake.callsTo('POST', '/auth/login')[0];
    expect(call.headers['Content-Type']).toBe('application/json');
    const body = json(call);
    expect(body).toEqual({
      email: 'maria@bloom.example',
      password: 'bloom-demo',
      remember: true,
      projectId: 'clinic',
      scope: 'openid',
      clientId: 'bloom-app',
      codeChallengeMethod: 'S256',
      codeChallenge: storage.getString('codeChallenge'),
    });
    const verifier = storage.getString('codeVerifier') as string;
    expect(verifier).toMatch(/^[0-9a-f]{128}$/);
    expect(body.codeChallenge).toBe(sha256(verifier));
    expect(storage.getString('pkceState')).toMatch(/^[0-9a-f]{224}$/);
  });

  test('startLogin keeps a challenge the caller brings, and its clientId', async () => {
    const { client, fake, storage } = setup();
    fake.on('POST', '/auth/login', () => jsonResponse({ login: 'l1', mfaRequired: true }));
    await client.startLogin({
      email: 'a@b.c',
      password: 'x',
      clientId: 'other-app',
      codeChallenge: 'given',
      codeChallengeMethod: 'S256',
    });
    expect(json(fake.calls[0])).toMatchObject({ clientId: 'other-app', codeChallenge: 'given' });
    expect(storage.getString('codeVerifier')).toBeUndefined();
  });

  test('startGoogleLogin posts auth/google with the credential and a PKCE challenge (SPEC §7)', async () => {
    const { client, fake, storage } = setup();
    fake.on('POST', '/auth/google', () => jsonResponse({ login: 'l2', code: 'c2' }));
    await client.startGoogleLogin({
      googleClientId: 'g-app',
      googleCredential: 'id.token.jwt',
      createUser: true,
    });
    expect(json(fake.calls[0])).toEqual({
      googleClientId: 'g-app',
      googleCredential: 'id.token.jwt',
      createUser: true,
      clientId: 'bloom-app',
      codeChallengeMethod: 'S256',
      codeChallenge: sha256(storage.getString('codeVerifier') as string),
    });
  });

  test('server errors come back as the outcome text (SPEC §8)', async () => {
    const { client, fake } = setup();
    fake.on('POST', '/auth/login', () =>
      jsonResponse(
        {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'invalid', details: { text: 'Email or password is invalid' } }],
        },
        400,
      ),
    );
    await expect(client.startLogin({ email: 'a@b.c', password: 'x' })).rejects.toThrow(
      'Email or password is invalid',
    );
  });

  test('startNewUser posts auth/newuser with a PKCE challenge; startNewPatient and startNewProject their fields', async () => {
    const { client, fake, storage } = setup();
    fake.on('POST', '/auth/newuser', () => jsonResponse({ login: 'l1' }));
    fake.on('POST', '/auth/newpatient', () => jsonResponse({ login: 'l1', code: 'c1' }));
    fake.on('POST', '/auth/newproject', () => jsonResponse({ login: 'l1', code: 'c2' }));
    await client.startNewUser({
      firstName: 'Ana',
      lastName: 'Ng',
      email: 'ana@x.example',
      password: 'correct horse',
      recaptchaToken: 't',
      projectId: 'clinic',
    });
    expect(json(fake.calls[0])).toEqual({
      firstName: 'Ana',
      lastName: 'Ng',
      email: 'ana@x.example',
      password: 'correct horse',
      recaptchaToken: 't',
      projectId: 'clinic',
      clientId: 'bloom-app',
      codeChallengeMethod: 'S256',
      codeChallenge: sha256(storage.getString('codeVerifier') as string),
    });
    expect(await client.startNewPatient({ login: 'l1', projectId: 'clinic' })).toEqual({
      login: 'l1',
      code: 'c1',
    });
    expect(json(fake.calls[1])).toEqual({ login: 'l1', projectId: 'clinic' });
    expect(await client.startNewProject({ login: 'l1', projectName: 'My clinic' })).toEqual({
      login: 'l1',
      code: 'c2',
    });
    expect(json(fake.calls[2])).toEqual({ login: 'l1', projectName: 'My clinic' });
  });

  test('processCode exchanges the code with the stored verifier, stores the login and loads auth/me', async () => {
    const { client, fake, storage } = setup();
    fake.on('POST', '/auth/login', () => jsonResponse({ login: 'l1', code: 'c1' }));
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenResponse()));
    const events: string[] = [];
    client.addEventListener('change', (e) => events.push(e.type));
    client.addEventListener('profileRefreshed', (e) => events.push(e.type));
    await client.startLogin({ email: 'maria@bloom.example', password: 'bloom-demo' });
    const verifier = storage.getString('codeVerifier');
    const profile = await client.processCode('c1');
    expect(form(fake.callsTo('POST', '/oauth2/token')[0])).toEqual({
      grant_type: 'authorization_code',
      code: 'c1',
      client_id: 'bloom-app',
      redirect_uri: 'http://app.test',
      code_verifier: verifier,
    });
    expect(profile).toEqual(session.profile);
    expect(client.getProfile()).toEqual(session.profile);
    expect(client.getProject()).toEqual(session.project);
    expect(client.getProjectMembership()).toEqual(session.membership);
    expect(client.getUserConfiguration()).toEqual(session.config);
    expect(client.getActiveLogin()).toMatchObject({
      refreshToken: 'r1',
      profile: { reference: 'Patient/maria' },
    });
    expect(client.isAuthenticated()).toBe(true);
    expect(client.isSuperAdmin()).toBe(false);
    expect(client.isProjectAdmin()).toBe(false);
    expect(events).toEqual(['change', 'profileRefreshed']);
    // A verifier serves one code.
    expect(storage.getString('codeVerifier')).toBeUndefined();
  });

  test('processCode refuses a token issued to another client and stores nothing', async () => {
    const { client, fake } = setup();
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenResponse(accessToken({ clientId: 'evil' }))));
    await expect(client.processCode('c1')).rejects.toThrow('Token was not issued for this audience');
    expect(client.getActiveLogin()).toBeUndefined();
    expect(fake.callsTo('GET', '/auth/me')).toHaveLength(0);
  });

  test('processCode with an expired code: the server description, login cleared', async () => {
    const { client, fake } = setup({}, { accessToken: accessToken({ clientId: 'bloom-app' }) });
    fake.on('POST', '/oauth2/token', () =>
      jsonResponse({ error: 'invalid_grant', error_description: 'Invalid code' }, 400),
    );
    await expect(client.processCode('old')).rejects.toThrow('Invalid code');
    expect(client.getActiveLogin()).toBeUndefined();
  });

  test('SPEC §6 privileges: superAdmin on the project, admin on the membership', async () => {
    const { client } = setup();
    const admin = fakeFetch()
      .on('GET', '/auth/me', () =>
        jsonResponse({
          ...session,
          project: { ...session.project, superAdmin: true },
          membership: { ...session.membership, admin: true },
        }),
      )
      .on('POST', '/oauth2/token', () => jsonResponse(tokenResponse()));
    const adminClient = new BloomClient({ baseUrl: BASE, clientId: 'bloom-app', fetch: admin.fetch });
    await adminClient.processCode('c');
    expect(adminClient.isSuperAdmin()).toBe(true);
    expect(adminClient.isProjectAdmin()).toBe(true);
    expect(client.isSuperAdmin()).toBe(false);
    expect(await adminClient.getMe()).toMatchObject({ project: { superAdmin: true } });
  });
});

describe('SPEC §4 redirect and external sign-in', () => {
  test('signInWithRedirect without a code sends the browser to the authorize URL', async () => {
    const { client, navigation, storage } = setup();
    expect(await client.signInWithRedirect()).toBeUndefined();
    const url = new URL(navigation.assigned[0]);
    expect(url.origin + url.pathname).toBe('http://api.test/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      state: storage.getString('pkceState'),
      client_id: 'bloom-app',
      redirect_uri: 'http://app.test',
      code_challenge_method: 'S256',
      code_challenge: sha256(storage.getString('codeVerifier') as string),
      scope: 'openid profile',
    });
  });

  test('signInWithRedirect back with the code and our state processes the code', async () => {
    const { client, navigation, fake, storage } = setup();
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenResponse()));
    await client.signInWithRedirect();
    const state = storage.getString('pkceState') as string;
    navigation.search = `?code=c9&state=${state}`;
    expect(await client.signInWithRedirect()).toEqual(session.profile);
    expect(form(fake.callsTo('POST', '/oauth2/token')[0]).code).toBe('c9');
    expect(storage.getString('pkceState')).toBeUndefined();
  });

  test('issue #5: a returned state that is not ours is refused, no token call', async () => {
    const { client, navigation, fake } = setup();
    await client.signInWithRedirect();
    navigation.search = '?code=c9&state=forged';
    await expect(client.signInWithRedirect()).rejects.toThrow('Invalid OAuth state');
    navigation.search = '?code=c9';
    await expect(client.signInWithRedirect()).rejects.toThrow('Invalid OAuth state');
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(0);
  });

  test('redirect sign-in needs a browser window; the authorize redirect needs a clientId', async () => {
    const fake = fakeFetch();
    const node = new BloomClient({ baseUrl: BASE, fetch: fake.fetch });
    await expect(node.signInWithRedirect()).rejects.toThrow('Redirect sign-in needs a browser window');
    const noClient = new BloomClient({ baseUrl: BASE, fetch: fake.fetch, navigation: new FakeNavigation() });
    await expect(noClient.requestAuthorization()).rejects.toThrow('BloomClient is missing clientId');
  });

  test('signInWithExternalAuth: the state carries the code challenge and the domain (SPEC §4)', async () => {
    const { client, navigation, storage } = setup();
    await client.signInWithExternalAuth(
      'https://idp.example/authorize',
      'idp-client',
      'http://api.test/auth/external',
      {
        projectId: 'clinic',
        domain: 'hospital.example',
      },
    );
    const url = new URL(navigation.assigned[0]);
    expect(url.origin + url.pathname).toBe('https://idp.example/authorize');
    const challenge = sha256(storage.getString('codeVerifier') as string);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'idp-client',
      redirect_uri: 'http://api.test/auth/external',
      scope: 'openid profile email',
      code_challenge_method: 'S256',
      code_challenge: challenge,
    });
    expect(JSON.parse(url.searchParams.get('state') as string)).toEqual({
      projectId: 'clinic',
      domain: 'hospital.example',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
  });

  test('SPEC §5: external sign-in with PKCE needs a code challenge method and a code challenge', () => {
    const { client } = setup();
    const args = ['https://idp.example/a', 'c', 'http://r'] as const;
    expect(() => client.getExternalAuthRedirectUri(...args, { codeChallenge: 'x' })).toThrow(
      'External sign-in with PKCE needs a codeChallengeMethod',
    );
    expect(() => client.getExternalAuthRedirectUri(...args, { codeChallengeMethod: 'S256' })).toThrow(
      'External sign-in with PKCE needs a codeChallenge',
    );
    const withoutPkce = new URL(client.getExternalAuthRedirectUri(...args, {}, false));
    expect(withoutPkce.searchParams.has('code_challenge')).toBe(false);
  });
});

describe('SPEC §6 machine sign-in methods', () => {
  test('startClientLogin: client_credentials with id and secret, then the session', async () => {
    const { client, fake } = setup({ clientId: undefined });
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenResponse(accessToken({ clientId: 'svc' }))));
    expect(await client.startClientLogin('svc', 'sh')).toEqual(session.profile);
    expect(form(fake.calls[0])).toEqual({
      grant_type: 'client_credentials',
      client_id: 'svc',
      client_secret: 'sh',
    });
  });

  test('SPEC §5: a token client needs a clientId (and a secret for client credentials)', async () => {
    const { client } = setup({ clientId: undefined });
    await expect(client.startClientLogin('', 's')).rejects.toThrow('BloomClient is missing clientId');
    await expect(client.startClientLogin('c', '')).rejects.toThrow('BloomClient is missing clientSecret');
    await expect(client.startJwtBearerLogin('', 'a', 's')).rejects.toThrow('BloomClient is missing clientId');
    await expect(client.exchangeExternalAccessToken('tok')).rejects.toThrow(
      'BloomClient is missing clientId',
    );
  });

  test('startJwtBearerLogin, startJwtAssertionLogin and exchangeExternalAccessToken send Medplum’s forms', async () => {
    const { client, fake } = setup();
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenResponse()));
    await client.startJwtBearerLogin('bloom-app', 'signed.jwt.assertion', 'openid');
    await client.startJwtAssertionLogin('client.assertion.jwt');
    await client.exchangeExternalAccessToken('external-token');
    await client.exchangeExternalAccessToken('external-token', 'bloom-app');
    const forms = fake.callsTo('POST', '/oauth2/token').map(form);
    expect(forms[0]).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      client_id: 'bloom-app',
      assertion: 'signed.jwt.assertion',
      scope: 'openid',
    });
    expect(forms[1]).toEqual({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: 'client.assertion.jwt',
    });
    expect(forms[2]).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      client_id: 'bloom-app',
      subject_token: 'external-token',
    });
    expect(forms[3]).toEqual(forms[2]);
  });

  test('setBasicAuth: every request carries Basic credentials', async () => {
    const { client, fake } = setup();
    client.setBasicAuth('svc', 'sh');
    await client.getMe();
    expect(fake.callsTo('GET', '/auth/me')[0].headers.Authorization).toBe(
      `Basic ${Buffer.from('svc:sh').toString('base64')}`,
    );
  });
});

describe('sign out and session events', () => {
  test('signOut POSTs the logout URL, then forgets only this client’s keys', async () => {
    const token = accessToken({ clientId: 'bloom-app' });
    const { client, fake, backend } = setup(
      {},
      { accessToken: token, profile: { reference: 'Patient/maria' } },
    );
    backend.setItem('theme', 'dark');
    fake.on('POST', '/oauth2/logout', () => jsonResponse({}));
    await client.getProfileAsync();
    const events: string[] = [];
    client.addEventListener('change', (e) => events.push(e.type));
    await client.signOut();
    const logout = fake.callsTo('POST', '/oauth2/logout')[0];
    expect(logout.headers.Authorization).toBe(`Bearer ${token}`);
    expect(logout.body).toBe('{}');
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.getProfile()).toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
    expect(events).toEqual(['change']);
    expect(backend.getItem('theme')).toBe('dark');
    expect(backend.length).toBe(1);
  });

  test('signOut when the server refuses still signs out locally, and reports the error', async () => {
    const { client, fake, onUnauthenticated } = setup(
      {},
      { accessToken: accessToken({ clientId: 'bloom-app' }) },
    );
    fake.on('POST', '/oauth2/logout', () => new Response('down', { status: 503 }));
    await expect(client.signOut()).rejects.toThrow('HTTP 503');
    expect(client.getActiveLogin()).toBeUndefined();
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  test('signOut without a login calls nothing', async () => {
    const { client, fake } = setup();
    await client.signOut();
    expect(fake.calls).toHaveLength(0);
  });

  test('a 401 with no way to refresh: login cleared, handler called once, "Unauthenticated"', async () => {
    const { client, fake, onUnauthenticated } = setup({}, { accessToken: 'opaque' });
    fake.on('GET', '/fhir/R4/Patient/maria', () => jsonResponse({}, 401));
    await expect(client.getProfileAsync()).resolves.toEqual(session.profile);
    await expect(client.get('fhir/R4/Patient/maria')).rejects.toThrow('Unauthenticated');
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.getProfile()).toBeUndefined();
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });
});

describe('SPEC §4 another tab changes the active login', () => {
  const maria: LoginState = {
    accessToken: accessToken({ clientId: 'bloom-app', id: 'a' }),
    refreshToken: 'r1',
    project: { reference: 'Project/clinic' },
    profile: { reference: 'Patient/maria' },
  };

  function storageEvent(key: string | null, value: LoginState | null): Event {
    return Object.assign(new Event('storage'), { key, newValue: value ? JSON.stringify(value) : null });
  }

  test('another person signs in elsewhere → the page reloads (injected callback)', () => {
    const storageEvents = new EventTarget();
    const onActiveLoginChange = jest.fn();
    setup({ storageEvents, onActiveLoginChange }, maria);
    storageEvents.dispatchEvent(
      storageEvent('@bloom/activeLogin', {
        ...maria,
        accessToken: 'x',
        profile: { reference: 'Patient/aisha' },
      }),
    );
    expect(onActiveLoginChange).toHaveBeenCalledTimes(1);
  });

  test('signing out in another tab → reload; by default through location.reload()', () => {
    const storageEvents = new EventTarget();
    const { navigation } = setup({ storageEvents }, maria);
    storageEvents.dispatchEvent(storageEvent('@bloom/activeLogin', null));
    expect(navigation.reloads).toBe(1);
  });

  test('another tab refreshed the same login → tokens adopted, no reload', () => {
    const storageEvents = new EventTarget();
    const onActiveLoginChange = jest.fn();
    const { client } = setup({ storageEvents, onActiveLoginChange }, maria);
    const refreshed = {
      ...maria,
      accessToken: accessToken({ clientId: 'bloom-app', id: 'b' }),
      refreshToken: 'r2',
    };
    storageEvents.dispatchEvent(storageEvent('@bloom/activeLogin', refreshed));
    expect(onActiveLoginChange).not.toHaveBeenCalled();
    expect(client.getAccessToken()).toBe(refreshed.accessToken);
    expect(client.getRefreshToken()).toBe('r2');
  });

  test('other keys are ignored; close() stops listening', () => {
    const storageEvents = new EventTarget();
    const onActiveLoginChange = jest.fn();
    const { client } = setup({ storageEvents, onActiveLoginChange }, maria);
    storageEvents.dispatchEvent(storageEvent('theme', null));
    client.close();
    storageEvents.dispatchEvent(storageEvent('@bloom/activeLogin', null));
    expect(onActiveLoginChange).not.toHaveBeenCalled();
  });
});

describe('in a browser page (window, document, localStorage and location simulated)', () => {
  const g = globalThis as unknown as Record<string, unknown>;
  let window: EventTarget & { document?: object };
  let local: MemoryStorage;
  let location: FakeNavigation;

  beforeEach(() => {
    window = Object.assign(new EventTarget(), { document: {} });
    local = new MemoryStorage();
    location = new FakeNavigation();
    Object.assign(g, { window, localStorage: local, location });
  });

  afterEach(() => {
    delete g.window;
    delete g.localStorage;
    delete g.location;
  });

  test('SPEC §9 defaults: localStorage, 60 s cache, window storage events and location.reload()', async () => {
    const fake = fakeFetch().on('POST', '/oauth2/token', () => jsonResponse(tokenResponse()));
    fake.on('GET', '/auth/me', () => jsonResponse(session));
    const client = new BloomClient({ baseUrl: BASE, clientId: 'bloom-app', fetch: fake.fetch });
    expect(client.getSettings().cacheTime).toBe(60000);
    await client.processCode('c1');
    expect(JSON.parse(local.getItem('@bloom/activeLogin') as string)).toMatchObject({ refreshToken: 'r1' });
    // The redirect URI defaults to the page's origin.
    expect(form(fake.callsTo('POST', '/oauth2/token')[0]).redirect_uri).toBe('http://app.test');
    window.dispatchEvent(Object.assign(new Event('storage'), { key: '@bloom/activeLogin', newValue: null }));
    expect(location.reloads).toBe(1);
    client.close();
  });
});
