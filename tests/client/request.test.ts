import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { RequestPipeline } from '../../src/client/request';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { LoginState } from '../../src/client/storage';
import { TokenManager } from '../../src/client/token-manager';
import { fakeFetch, jsonResponse } from './support/fake-fetch';
import type { RecordedCall } from './support/fake-fetch';
import { accessToken } from './support/tokens';

const BASE = 'http://api.test/';
const NOW = Date.UTC(2026, 0, 1, 12);

function setup(stored?: LoginState, options: { clientId?: string; clientSecret?: string } = {}) {
  const fake = fakeFetch();
  const storage = new PrefixedStorage(new MemoryStorage());
  if (stored) {
    storage.setObject('activeLogin', stored);
  }
  const onUnauthenticated = jest.fn();
  const tokens = new TokenManager({
    fetch: fake.fetch,
    tokenUrl: `${BASE}oauth2/token`,
    storage,
    now: () => NOW,
    onUnauthenticated,
    ...options,
  });
  const pipeline = new RequestPipeline({ baseUrl: BASE, fetch: fake.fetch, tokens });
  return { fake, storage, tokens, pipeline, onUnauthenticated };
}

const oldToken = accessToken({ now: NOW - 60_000, id: 'old' });
const newToken = accessToken({ now: NOW, id: 'new' });
const maria: LoginState = {
  accessToken: oldToken,
  refreshToken: 'r-old',
  project: { reference: 'Project/clinic' },
  profile: { reference: 'Patient/maria' },
};
const tokenBody = { token_type: 'Bearer', access_token: newToken, refresh_token: 'r-new', ...maria };
const patient = { resourceType: 'Patient', id: 'maria' };

/** A resource server that accepts only the new token. */
function onlyNewToken(call: RecordedCall): Response {
  return call.headers.Authorization === `Bearer ${newToken}`
    ? jsonResponse(patient, 200, 'application/fhir+json')
    : jsonResponse({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] }, 401);
}

describe('request pipeline: build and send', () => {
  test('keepalive reaches fetch only when asked (a FHIRcast close sent as the page goes away)', async () => {
    const { fake, pipeline } = setup({ ...maria, accessToken: newToken });
    fake.on('POST', '/fhircast/STU3/t', () => jsonResponse({}));
    await pipeline.request('POST', 'fhircast/STU3/t', { body: {}, keepalive: true });
    await pipeline.request('POST', 'fhircast/STU3/t', { body: {} });
    expect(fake.calls.map((call) => call.keepalive)).toEqual([true, undefined]);
  });

  test('relative paths resolve against the base URL; bearer token, Accept and FHIR JSON body', async () => {
    const { fake, pipeline } = setup({ ...maria, accessToken: newToken });
    fake.on('POST', '/fhir/R4/Patient', () => jsonResponse(patient, 201));
    const result = await pipeline.request('POST', '/fhir/R4/Patient', { body: { resourceType: 'Patient' } });
    expect(result).toEqual(patient);
    const [call] = fake.calls;
    expect(call.url).toBe('http://api.test/fhir/R4/Patient');
    expect(call.headers.Authorization).toBe(`Bearer ${newToken}`);
    expect(call.headers['Content-Type']).toBe('application/fhir+json');
    expect(call.headers.Accept).toContain('application/fhir+json');
    expect(call.body).toBe('{"resourceType":"Patient"}');
  });

  test('no login: no Authorization header; a ready body keeps its own content type', async () => {
    const { fake, pipeline } = setup();
    fake.on('POST', '/auth/method', () => jsonResponse({}));
    await pipeline.request('POST', 'auth/method', {
      body: 'a=b',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(fake.calls[0].headers.Authorization).toBeUndefined();
    expect(fake.calls[0].headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(fake.calls[0].body).toBe('a=b');
  });

  test('204 and 304 return nothing; a text body comes back as text', async () => {
    const { fake, pipeline } = setup();
    fake.on('DELETE', '/x', () => new Response(null, { status: 204 }));
    fake.on('GET', '/y', () => new Response(null, { status: 304 }));
    fake.on(
      'GET',
      '/z',
      () => new Response('hello', { status: 200, headers: { 'content-type': 'text/plain' } }),
    );
    expect(await pipeline.request('DELETE', 'x')).toBeUndefined();
    expect(await pipeline.request('GET', 'y')).toBeUndefined();
    expect(await pipeline.request('GET', 'z')).toBe('hello');
  });
});

describe('SPEC §8 errors', () => {
  test('an OperationOutcome becomes OperationOutcomeError whose message joins the issues with "; "', async () => {
    const { fake, pipeline } = setup();
    const outcome = {
      resourceType: 'OperationOutcome',
      issue: [
        { severity: 'error', code: 'invalid', details: { text: 'Missing email' } },
        { severity: 'error', code: 'invalid', details: { text: 'Missing password' } },
      ],
    };
    fake.on('POST', '/auth/login', () => jsonResponse(outcome, 400));
    const error = await pipeline.request('POST', 'auth/login', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as Error).message).toBe('Missing email; Missing password');
    expect((error as OperationOutcomeError).outcome).toEqual(outcome);
  });

  test('SPEC §4: a 404 with a non-JSON body → "Not found"', async () => {
    const { fake, pipeline } = setup();
    fake.on(
      'GET',
      '/nope',
      () => new Response('<h1>404</h1>', { status: 404, headers: { 'content-type': 'text/html' } }),
    );
    await expect(pipeline.request('GET', 'nope')).rejects.toThrow('Not found');
  });

  test('an OAuth error body gives its error_description; anything else its status', async () => {
    const { fake, pipeline } = setup();
    fake.on('GET', '/oauth2/userinfo', () =>
      jsonResponse({ error: 'invalid_request', error_description: 'Bad' }, 400),
    );
    fake.on('GET', '/boom', () => new Response('oops', { status: 502 }));
    await expect(pipeline.request('GET', 'oauth2/userinfo')).rejects.toThrow('Bad');
    await expect(pipeline.request('GET', 'boom')).rejects.toThrow('HTTP 502');
  });

  test("issue #20: a 4xx answered as a line of text is the message, as MedplumClient reads Medplum's key-value errors; HTML or an empty body is its status", async () => {
    const { fake, pipeline } = setup();
    const text = (body: string, status: number, type = 'text/html; charset=utf-8') =>
      new Response(body, { status, headers: { 'content-type': type } });
    fake.on('PUT', '/keyvalue/v1/bad.key', () => text('Invalid key', 400));
    fake.on('PUT', '/keyvalue/v1/full', () => text('Max items exceeded\n', 400, 'text/plain'));
    fake.on('GET', '/page', () => text('<html><body>Bad Request</body></html>', 400));
    fake.on('GET', '/empty', () => text('', 403));
    const refused = await pipeline
      .request('PUT', 'keyvalue/v1/bad.key', { body: 'v' })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OperationOutcomeError);
    expect((refused as OperationOutcomeError).message).toBe('Invalid key');
    await expect(pipeline.request('PUT', 'keyvalue/v1/full', { body: 'v' })).rejects.toThrow(
      'Max items exceeded',
    );
    await expect(pipeline.request('GET', 'page')).rejects.toThrow('HTTP 400');
    await expect(pipeline.request('GET', 'empty')).rejects.toThrow('HTTP 403');
  });

  test('a network failure rejects as it is ("Failed to fetch")', async () => {
    const { fake, pipeline } = setup();
    fake.on('GET', '/x', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(pipeline.request('GET', 'x')).rejects.toThrow('Failed to fetch');
  });
});

describe('SPEC §4 token lifecycle through the pipeline', () => {
  test('a 401 refreshes with the refresh token and retries once with the new token', async () => {
    const { fake, pipeline, tokens } = setup(maria);
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody));
    fake.on('GET', '/fhir/R4/Patient/maria', onlyNewToken);
    expect(await pipeline.request('GET', 'fhir/R4/Patient/maria')).toEqual(patient);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET http://api.test/fhir/R4/Patient/maria',
      'POST http://api.test/oauth2/token',
      'GET http://api.test/fhir/R4/Patient/maria',
    ]);
    expect(new URLSearchParams(fake.calls[1].body).get('refresh_token')).toBe('r-old');
    expect(tokens.getRefreshToken()).toBe('r-new');
  });

  test('concurrent 401s → exactly one refresh call, every request succeeds', async () => {
    const { fake, pipeline } = setup(maria);
    fake.on('POST', '/oauth2/token', async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return jsonResponse(tokenBody);
    });
    fake.on('GET', '/fhir/R4/Patient/maria', async (call) => {
      // Stagger the answers so some 401s arrive while the refresh is out and some after it.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      return onlyNewToken(call);
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => pipeline.request('GET', 'fhir/R4/Patient/maria')),
    );
    expect(results).toEqual(Array(10).fill(patient));
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(1);
  });

  test('refresh failure → login cleared, onUnauthenticated once, every request rejects "Unauthenticated"', async () => {
    const { fake, pipeline, tokens, storage, onUnauthenticated } = setup(maria);
    fake.on('POST', '/oauth2/token', () => jsonResponse({ error: 'invalid_grant' }, 400));
    fake.on('GET', '/fhir/R4/Patient/maria', onlyNewToken);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => pipeline.request('GET', 'fhir/R4/Patient/maria')),
    );
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason.message).toBe('Unauthenticated');
    }
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(1);
    expect(tokens.getActiveLogin()).toBeUndefined();
    expect(storage.getObject('activeLogin')).toBeUndefined();
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  test('expired access token is refreshed before the request (no 401 round trip)', async () => {
    const expired = { ...maria, accessToken: accessToken({ now: NOW - 3700_000 }) };
    const { fake, pipeline } = setup(expired);
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody));
    fake.on('GET', '/fhir/R4/Patient/maria', onlyNewToken);
    expect(await pipeline.request('GET', 'fhir/R4/Patient/maria')).toEqual(patient);
    expect(fake.calls.map((c) => c.method + ' ' + c.url.replace(BASE, ''))).toEqual([
      'POST oauth2/token',
      'GET fhir/R4/Patient/maria',
    ]);
    expect(fake.calls[1].headers.Authorization).toBe(`Bearer ${newToken}`);
  });

  test('issue #5: a 401 again after a refresh gives up with "Unauthenticated" (no endless loop)', async () => {
    const { fake, pipeline, tokens, onUnauthenticated } = setup(maria);
    fake.on('POST', '/oauth2/token', () => jsonResponse(tokenBody));
    fake.on('GET', '/fhir/R4/Patient/maria', () =>
      jsonResponse({ resourceType: 'OperationOutcome', issue: [] }, 401),
    );
    await expect(pipeline.request('GET', 'fhir/R4/Patient/maria')).rejects.toThrow('Unauthenticated');
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(1);
    expect(fake.callsTo('GET', '/fhir/R4/Patient/maria')).toHaveLength(2);
    expect(tokens.getActiveLogin()).toBeUndefined();
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  test('no way to refresh → cleared, handler, "Unauthenticated", no token call', async () => {
    const { fake, pipeline, onUnauthenticated } = setup({ accessToken: oldToken });
    fake.on('GET', '/fhir/R4/Patient/maria', onlyNewToken);
    await expect(pipeline.request('GET', 'fhir/R4/Patient/maria')).rejects.toThrow('Unauthenticated');
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(0);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  test('with clientId and clientSecret, a 401 without any token signs in with client credentials', async () => {
    const { fake, pipeline } = setup(undefined, { clientId: 'app', clientSecret: 's' });
    const appToken = accessToken({ now: NOW, clientId: 'app' });
    fake.on('POST', '/oauth2/token', () => jsonResponse({ access_token: appToken }));
    fake.on('GET', '/fhir/R4/Patient/maria', (call) =>
      call.headers.Authorization === `Bearer ${appToken}` ? jsonResponse(patient) : jsonResponse({}, 401),
    );
    expect(await pipeline.request('GET', 'fhir/R4/Patient/maria')).toEqual(patient);
    expect(new URLSearchParams(fake.calls[1].body).get('grant_type')).toBe('client_credentials');
  });

  test('authRenewal false: a 401 is just an error, nothing refreshed or cleared', async () => {
    const { fake, pipeline, tokens, onUnauthenticated } = setup(maria);
    fake.on('POST', '/oauth2/logout', () => jsonResponse({ error_description: 'Token revoked' }, 401));
    await expect(pipeline.request('POST', 'oauth2/logout', { body: {}, authRenewal: false })).rejects.toThrow(
      'Token revoked',
    );
    expect(tokens.getActiveLogin()).toEqual(maria);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });
});
