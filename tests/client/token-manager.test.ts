import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { LoginState } from '../../src/client/storage';
import { TokenManager } from '../../src/client/token-manager';
import type { TokenManagerOptions } from '../../src/client/token-manager';
import { fakeFetch, jsonResponse } from './support/fake-fetch';
import type { FakeFetch } from './support/fake-fetch';
import { accessToken } from './support/tokens';

const TOKEN_URL = 'http://api.test/oauth2/token';
const NOW = Date.UTC(2026, 0, 1, 12);

function tokenBody(token: string, refresh = 'r-new') {
  return {
    token_type: 'Bearer',
    access_token: token,
    refresh_token: refresh,
    expires_in: 3600,
    project: { reference: 'Project/clinic' },
    profile: { reference: 'Patient/maria' },
  };
}

function setup(options: Partial<TokenManagerOptions> = {}, stored?: LoginState) {
  const fake: FakeFetch = fakeFetch();
  const storage = new PrefixedStorage(new MemoryStorage());
  if (stored) {
    storage.setObject('activeLogin', stored);
  }
  const onUnauthenticated = jest.fn();
  const onLoginChange = jest.fn();
  const tokens = new TokenManager({
    fetch: fake.fetch,
    tokenUrl: TOKEN_URL,
    storage,
    now: () => NOW,
    onUnauthenticated,
    onLoginChange,
    ...options,
  });
  return { fake, storage, tokens, onUnauthenticated, onLoginChange };
}

const stored: LoginState = {
  accessToken: accessToken({ now: NOW - 60_000 }),
  refreshToken: 'r-old',
  project: { reference: 'Project/clinic' },
  profile: { reference: 'Patient/maria' },
};

describe('SPEC §7 token call and SPEC §4 session', () => {
  test('fetchTokens POSTs the form and makes the answer the stored login of SPEC §3', async () => {
    const { fake, tokens, storage, onLoginChange } = setup();
    const token = accessToken({ now: NOW });
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody(token)));
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'c1' });
    const result = await tokens.fetchTokens(form);
    expect(result.access_token).toBe(token);
    const [call] = fake.calls;
    expect(call.url).toBe(TOKEN_URL);
    expect(call.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(call.headers.Authorization).toBeUndefined();
    expect(call.body).toBe('grant_type=authorization_code&code=c1');
    const login = {
      accessToken: token,
      refreshToken: 'r-new',
      project: { reference: 'Project/clinic' },
      profile: { reference: 'Patient/maria' },
    };
    expect(tokens.getActiveLogin()).toEqual(login);
    expect(storage.getObject('activeLogin')).toEqual(login);
    expect(tokens.getLogins()).toEqual([login]);
    expect(tokens.getAuthorizationHeader()).toBe(`Bearer ${token}`);
    expect(tokens.getAccessTokenExpires()).toBe(Math.floor(NOW / 1000) * 1000 + 3600_000);
    expect(onLoginChange).toHaveBeenCalledWith(login);
  });

  test('a stored login is picked up at start', () => {
    const { tokens } = setup({}, stored);
    expect(tokens.getActiveLogin()).toEqual(stored);
    expect(tokens.getRefreshToken()).toBe('r-old');
  });

  test.each([
    [
      'an error_description',
      400,
      { error: 'invalid_grant', error_description: 'Invalid code' },
      'Invalid code',
    ],
    ['no error_description', 400, { error: 'invalid_grant' }, 'Failed to fetch tokens'],
    ['an empty error_description', 400, { error: 'x', error_description: '  ' }, 'Failed to fetch tokens'],
    ['a non-string error_description', 400, { error_description: { a: 1 } }, 'Failed to fetch tokens'],
    ['a body that is not JSON', 500, undefined, 'Failed to fetch tokens'],
    ['a 200 without access_token', 200, { token_type: 'Bearer' }, 'Failed to fetch tokens'],
  ])(
    'SPEC §8: a token response with %s → %p, and the login is cleared',
    async (_name, status, body, message) => {
      const { fake, tokens, storage, onLoginChange } = setup({}, stored);
      fake.on('POST', '/oauth2/token', () =>
        body === undefined ? new Response('<html>oops</html>', { status }) : jsonResponse(body, status),
      );
      const error = await tokens
        .fetchTokens(new URLSearchParams({ grant_type: 'x' }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperationOutcomeError);
      expect((error as Error).message).toBe(message);
      expect(tokens.getActiveLogin()).toBeUndefined();
      expect(storage.getObject('activeLogin')).toBeUndefined();
      expect(onLoginChange).toHaveBeenCalledWith(undefined);
    },
  );

  test('SPEC §5: an expired token from the server → "Token expired", nothing stored', async () => {
    const { fake, tokens, storage } = setup();
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody(accessToken({ now: NOW - 7200_000 }))));
    await expect(tokens.fetchTokens(new URLSearchParams())).rejects.toThrow('Token expired');
    expect(storage.getObject('activeLogin')).toBeUndefined();
  });

  test('SPEC §5: a token for another client → "Token was not issued for this audience", nothing stored', async () => {
    const { fake, tokens } = setup({ clientId: 'bloom-app' });
    fake.on('POST', '/oauth2/token', () =>
      jsonResponse(tokenBody(accessToken({ now: NOW, clientId: 'other' }))),
    );
    await expect(tokens.fetchTokens(new URLSearchParams())).rejects.toThrow(
      'Token was not issued for this audience',
    );
    expect(tokens.getActiveLogin()).toBeUndefined();
  });

  test('the audience is the client_id sent in the form when there is one', async () => {
    const { fake, tokens } = setup({ clientId: 'bloom-app' });
    fake.on('POST', '/oauth2/token', () =>
      jsonResponse(tokenBody(accessToken({ now: NOW, clientId: 'other' }))),
    );
    await expect(tokens.fetchTokens(new URLSearchParams({ client_id: 'other' }))).resolves.toBeDefined();
  });

  test('basic auth: token calls and requests carry the Basic header', async () => {
    const { fake, tokens } = setup();
    tokens.setBasicAuth('app', 'sécret');
    const basic = `Basic ${Buffer.from('app:sécret', 'utf8').toString('base64')}`;
    expect(tokens.getAuthorizationHeader()).toBe(basic);
    fake.on('POST', '/oauth2/token', () =>
      jsonResponse(tokenBody(accessToken({ now: NOW, clientId: 'app' }))),
    );
    await tokens.fetchTokens(new URLSearchParams({ grant_type: 'client_credentials' }));
    expect(fake.calls[0].headers.Authorization).toBe(basic);
    tokens.clearActiveLogin();
    tokens.clearCredentials();
    expect(tokens.getAuthorizationHeader()).toBeUndefined();
  });
});

describe('SPEC §4 refresh before expiry', () => {
  test('a token far from expiry is not refreshed', async () => {
    const { fake, tokens } = setup({}, { ...stored, accessToken: accessToken({ now: NOW }) });
    await tokens.refreshIfExpiring();
    expect(fake.calls).toHaveLength(0);
  });

  test('an expired token is refreshed with the refresh token (and client_id, client_secret when known)', async () => {
    const expired = { ...stored, accessToken: accessToken({ now: NOW - 3700_000 }) };
    const { fake, tokens } = setup({ clientId: 'app', clientSecret: 's' }, expired);
    const fresh = accessToken({ now: NOW, clientId: 'app' });
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody(fresh)));
    await tokens.refreshIfExpiring();
    expect(Object.fromEntries(new URLSearchParams(fake.calls[0].body))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'r-old',
      client_id: 'app',
      client_secret: 's',
    });
    expect(tokens.getAccessToken()).toBe(fresh);
    expect(tokens.getRefreshToken()).toBe('r-new');
  });

  test('within the 5-minute grace period the token is refreshed; outside it, not', async () => {
    const token = accessToken({ now: NOW - 3600_000 + 6 * 60_000 }); // expires in 6 min
    const { fake, tokens } = setup({}, { ...stored, accessToken: token });
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody(accessToken({ now: NOW }))));
    await tokens.refreshIfExpiring();
    expect(fake.calls).toHaveLength(0);
    const soon = accessToken({ now: NOW - 3600_000 + 4 * 60_000 }); // expires in 4 min
    const second = setup({}, { ...stored, accessToken: soon });
    second.fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody(accessToken({ now: NOW }))));
    await second.tokens.refreshIfExpiring();
    expect(second.fake.calls).toHaveLength(1);
  });

  test('a short-lived token is refreshed at half its life, not on every request', async () => {
    // 4-minute token issued 1 minute ago: the 5-minute grace period would always refresh it.
    const token = accessToken({ now: NOW - 60_000, lifetimeSeconds: 240 });
    const { fake, tokens } = setup({}, { ...stored, accessToken: token });
    await tokens.refreshIfExpiring();
    expect(fake.calls).toHaveLength(0);
  });

  test('without refresh token the client credentials renew the session', async () => {
    const { fake, tokens } = setup(
      { clientId: 'app', clientSecret: 's' },
      { accessToken: accessToken({ now: NOW - 3700_000 }) },
    );
    fake.on('POST', '/oauth2/token', () =>
      jsonResponse(tokenBody(accessToken({ now: NOW, clientId: 'app' }))),
    );
    await tokens.refreshIfExpiring();
    expect(Object.fromEntries(new URLSearchParams(fake.calls[0].body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'app',
      client_secret: 's',
    });
  });

  test('expired but nothing to renew with: the request goes out and the 401 rules decide', async () => {
    const { fake, tokens, onUnauthenticated } = setup(
      {},
      { accessToken: accessToken({ now: NOW - 3700_000 }) },
    );
    await tokens.refreshIfExpiring();
    expect(fake.calls).toHaveLength(0);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });
});

describe('SPEC §4 on a 401', () => {
  test('no refresh token and no client credentials: clear, handler once, "Unauthenticated"', async () => {
    const { fake, tokens, storage, onUnauthenticated } = setup({}, { accessToken: 'opaque' });
    const used = tokens.getAuthorizationHeader();
    await expect(tokens.handleUnauthorized(used)).rejects.toThrow('Unauthenticated');
    expect(fake.calls).toHaveLength(0);
    expect(tokens.getActiveLogin()).toBeUndefined();
    expect(storage.getObject('activeLogin')).toBeUndefined();
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    // A second request that was out with the same token: rejected, the app is not told twice.
    await expect(tokens.handleUnauthorized(used)).rejects.toThrow('Unauthenticated');
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  test('only client id without secret cannot renew', async () => {
    const { tokens, onUnauthenticated } = setup({ clientId: 'app' });
    await expect(tokens.handleUnauthorized(undefined)).rejects.toThrow('Unauthenticated');
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  test('basic auth is never renewed: a 401 is final', async () => {
    const { fake, tokens, onUnauthenticated } = setup();
    tokens.setBasicAuth('app', 's');
    await expect(tokens.handleUnauthorized(tokens.getAuthorizationHeader())).rejects.toThrow(
      'Unauthenticated',
    );
    expect(fake.calls).toHaveLength(0);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  test('a refused refresh: login cleared, handler called, "Unauthenticated" with the cause', async () => {
    const { fake, tokens, onUnauthenticated } = setup({}, stored);
    fake.on('POST', '/oauth2/token', () =>
      jsonResponse({ error: 'invalid_grant', error_description: 'Refresh token reused' }, 400),
    );
    const error = await tokens.handleUnauthorized(tokens.getAuthorizationHeader()).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Unauthenticated');
    expect(((error as Error).cause as Error).message).toBe('Refresh token reused');
    expect(tokens.getActiveLogin()).toBeUndefined();
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  test('a network failure during refresh keeps the login and does not sign out', async () => {
    const { fake, tokens, onUnauthenticated } = setup({}, stored);
    fake.on('POST', '/oauth2/token', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(tokens.handleUnauthorized(tokens.getAuthorizationHeader())).rejects.toThrow(
      'Failed to fetch',
    );
    expect(tokens.getActiveLogin()).toEqual(stored);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  test('a 401 for a token already replaced: retry at once, no second refresh', async () => {
    const { fake, tokens } = setup({}, stored);
    const old = tokens.getAuthorizationHeader();
    tokens.adoptLogin({ ...stored, accessToken: 'newer' });
    await tokens.handleUnauthorized(old);
    expect(fake.calls).toHaveLength(0);
  });

  test('many callers share one refresh', async () => {
    const { fake, tokens } = setup({}, stored);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.on('POST', '/oauth2/token', async () => {
      await gate;
      return jsonResponse(tokenBody(accessToken({ now: NOW })));
    });
    const used = tokens.getAuthorizationHeader();
    const all = Promise.all([1, 2, 3, 4, 5].map(() => tokens.handleUnauthorized(used)));
    const before = tokens.refreshIfExpiring();
    release();
    await all;
    await before;
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(1);
  });
});

describe('issue #5: two tabs refreshing at once', () => {
  /** One lock for both "tabs", as navigator.locks is one per origin. */
  function sharedLock() {
    let tail: Promise<unknown> = Promise.resolve();
    const names: string[] = [];
    const lock = <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      names.push(name);
      const run = tail.then(fn, fn);
      tail = run.catch(() => undefined);
      return run;
    };
    return { lock, names };
  }

  test('one refresh happens; the other tab picks the new tokens up from storage; nobody is signed out', async () => {
    const fake = fakeFetch();
    let issued = 0;
    fake.on('POST', '/oauth2/token', async (call) => {
      issued++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      // The server rotates: only the current refresh token works.
      return new URLSearchParams(call.body).get('refresh_token') === 'r-old'
        ? jsonResponse(tokenBody(accessToken({ now: NOW, id: `t${issued}` }), `r${issued}`))
        : jsonResponse({ error: 'invalid_grant', error_description: 'Refresh token already used' }, 400);
    });
    const backend = new MemoryStorage();
    const expired = { ...stored, accessToken: accessToken({ now: NOW - 3700_000 }) };
    new PrefixedStorage(backend).setObject('activeLogin', expired);
    const { lock, names } = sharedLock();
    const tab = () => {
      const onUnauthenticated = jest.fn();
      const tokens = new TokenManager({
        fetch: fake.fetch,
        tokenUrl: TOKEN_URL,
        storage: new PrefixedStorage(backend),
        now: () => NOW,
        onUnauthenticated,
        lock,
      });
      return { tokens, onUnauthenticated };
    };
    const a = tab();
    const b = tab();
    await Promise.all([a.tokens.refreshIfExpiring(), b.tokens.refreshIfExpiring()]);
    expect(issued).toBe(1);
    expect(names).toEqual(['bloom-token-refresh', 'bloom-token-refresh']);
    expect(b.tokens.getAccessToken()).toBe(a.tokens.getAccessToken());
    expect(b.tokens.getRefreshToken()).toBe('r1');
    expect(a.onUnauthenticated).not.toHaveBeenCalled();
    expect(b.onUnauthenticated).not.toHaveBeenCalled();
  });

  test('a 401 in one tab after the other tab refreshed: retry with the stored tokens, no token call', async () => {
    const { fake, tokens, storage } = setup({}, stored);
    const newer = { ...stored, accessToken: accessToken({ now: NOW, id: 'other-tab' }), refreshToken: 'r2' };
    storage.setObject('activeLogin', newer); // what the other tab wrote
    await tokens.handleUnauthorized(tokens.getAuthorizationHeader());
    expect(fake.calls).toHaveLength(0);
    expect(tokens.getActiveLogin()).toEqual(newer);
  });

  test('another person in storage is never adopted by a refresh', async () => {
    const { fake, tokens, storage } = setup({}, stored);
    storage.setObject('activeLogin', {
      ...stored,
      accessToken: 'x',
      profile: { reference: 'Patient/aisha' },
    });
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody(accessToken({ now: NOW }))));
    await tokens.handleUnauthorized(tokens.getAuthorizationHeader());
    expect(fake.calls).toHaveLength(1);
    expect(tokens.getActiveLogin()?.profile).toEqual({ reference: 'Patient/maria' });
  });
});
