// The request pipeline opened for reuse: ky-style hooks (beforeRequest edits each attempt's headers,
// beforeRetry is told the wait and can stop it, afterResponse sees and may replace each answer) and
// pipeline.fetch, fetch's signature over the same life (auth, 401 renewal, retries, abort), which is
// what Apollo's HttpLink sends with. A fake fetch and jest's clock (SPEC §4, §9).
import { RequestPipeline } from '../../src/client/request';
import type { PipelineHooks, RetryInfo } from '../../src/client/pipeline-hooks';
import { RETRY_DELAY } from '../../src/client/retry-policy';
import { ACTIVE_LOGIN_KEY, MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { LoginState } from '../../src/client/storage';
import { TokenManager } from '../../src/client/token-manager';
import { fakeFetch, jsonResponse } from './support/fake-fetch';
import { accessToken } from './support/tokens';

const BASE = 'http://api.test/';

function setup(hooks?: PipelineHooks) {
  const fake = fakeFetch();
  const storage = new PrefixedStorage(new MemoryStorage());
  storage.setObject<LoginState>(ACTIVE_LOGIN_KEY, {
    accessToken: accessToken({ id: 'a' }),
    refreshToken: 'r1',
  });
  const tokens = new TokenManager({ fetch: fake.fetch, tokenUrl: `${BASE}oauth2/token`, storage });
  const onOffline = jest.fn();
  const pipeline = new RequestPipeline({ baseUrl: BASE, fetch: fake.fetch, tokens, onOffline, hooks });
  return { fake, tokens, pipeline, onOffline };
}

/** Answers in turn (the last one repeats). */
function answers(...list: (() => Response)[]): () => Response {
  let i = 0;
  return () => list[Math.min(i++, list.length - 1)]();
}

const ok = () => jsonResponse({ data: { ok: true } });

afterEach(() => {
  jest.useRealTimers();
});

describe('hooks', () => {
  test('beforeRequest sees each attempt with the session’s Authorization and may add a header', async () => {
    const seen: string[] = [];
    const { fake, pipeline, tokens } = setup({
      beforeRequest: [
        (request) => {
          seen.push(`${request.method} ${request.url} #${request.attempt} ${request.headers.Authorization}`);
          request.headers['X-Trace'] = 'trace-1';
        },
      ],
    });
    fake.on('GET', 'Patient/1', () => jsonResponse({ resourceType: 'Patient', id: '1' }));
    await pipeline.request('GET', 'fhir/R4/Patient/1');
    expect(seen).toEqual([`GET ${BASE}fhir/R4/Patient/1 #0 ${tokens.getAuthorizationHeader()}`]);
    expect(fake.calls[0].headers['X-Trace']).toBe('trace-1');
  });

  test('beforeRetry is told the failed attempt, its status and the wait; afterResponse sees every answer', async () => {
    jest.useFakeTimers();
    const retries: RetryInfo[] = [];
    const statuses: number[] = [];
    const { fake, pipeline } = setup({
      beforeRetry: [(retry) => void retries.push(retry)],
      afterResponse: [(response) => void statuses.push(response.status)],
    });
    fake.on(
      'GET',
      'Patient/1',
      answers(() => jsonResponse({}, 503), ok),
    );
    const result = pipeline.request('GET', 'fhir/R4/Patient/1');
    await jest.advanceTimersByTimeAsync(RETRY_DELAY);
    await result;
    expect(retries).toEqual([
      {
        method: 'GET',
        url: `${BASE}fhir/R4/Patient/1`,
        attempt: 0,
        delay: RETRY_DELAY,
        status: 503,
        error: undefined,
      },
    ]);
    expect(statuses).toEqual([503, 200]);
  });

  test('a beforeRetry that throws stops the retry with its error', async () => {
    const { fake, pipeline } = setup({
      beforeRetry: [
        () => {
          throw new Error('no retries here');
        },
      ],
    });
    fake.on('GET', 'Patient/1', () => jsonResponse({}, 503));
    await expect(pipeline.request('GET', 'fhir/R4/Patient/1')).rejects.toThrow('no retries here');
    expect(fake.calls).toHaveLength(1);
  });

  test('afterResponse may replace the answer; the rules read the replacement', async () => {
    const { fake, pipeline } = setup({
      afterResponse: [(response) => (response.status === 418 ? jsonResponse({ replaced: true }) : undefined)],
    });
    fake.on('GET', 'teapot', () => jsonResponse({}, 418));
    await expect(pipeline.request('GET', 'teapot')).resolves.toEqual({ replaced: true });
  });

  test('addHooks adds a set for later requests and its remover takes it away', async () => {
    const { fake, pipeline } = setup();
    const urls: string[] = [];
    fake.on('GET', 'x', ok);
    const remove = pipeline.addHooks({ beforeRequest: [({ url }) => void urls.push(url)] });
    await pipeline.request('GET', 'x');
    remove();
    await pipeline.request('GET', 'x');
    expect(urls).toEqual([`${BASE}x`]);
  });
});

describe('pipeline.fetch', () => {
  test('sends the caller’s method, headers and body with the session’s Authorization in place of the caller’s', async () => {
    const { fake, pipeline, tokens } = setup();
    fake.on('POST', 'fhir/R4/$graphql', ok);
    const fetch = pipeline.fetch; // detached, as HttpLink calls it
    const response = await fetch(new URL(`${BASE}fhir/R4/$graphql`), {
      method: 'post',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'Bearer stolen',
      },
      body: '{"query":"{ a }"}',
    });
    expect(response.status).toBe(200);
    const [call] = fake.calls;
    expect(call.method).toBe('POST');
    expect(call.body).toBe('{"query":"{ a }"}');
    expect(call.headers.Authorization).toBe(tokens.getAuthorizationHeader());
    expect(call.headers.authorization).toBeUndefined();
    // The caller's Accept replaces the pipeline's default instead of joining it.
    expect(call.headers.accept).toBe('application/json');
    expect(call.headers.Accept).toBeUndefined();
  });

  test('an error status resolves as the Response, as fetch does (after the retries)', async () => {
    const { fake, pipeline } = setup();
    fake.on('POST', '$graphql', () => jsonResponse({ resourceType: 'OperationOutcome' }, 400));
    const response = await pipeline.fetch(`${BASE}fhir/R4/$graphql`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(400);
    expect(fake.calls).toHaveLength(1);
  });

  test('a 401 renews the session once through the token manager and sends again with the new token', async () => {
    const { fake, pipeline, tokens } = setup();
    const renewed = accessToken({ id: 'b' });
    fake.on('POST', 'oauth2/token', () => jsonResponse({ access_token: renewed, refresh_token: 'r2' }));
    fake.on(
      'POST',
      '$graphql',
      answers(() => jsonResponse({}, 401), ok),
    );
    const response = await pipeline.fetch(`${BASE}fhir/R4/$graphql`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(fake.callsTo('POST', 'oauth2/token')).toHaveLength(1);
    expect(fake.callsTo('POST', '$graphql').map((c) => c.headers.Authorization)).toEqual([
      expect.stringContaining('Bearer '),
      `Bearer ${renewed}`,
    ]);
    expect(tokens.getAccessToken()).toBe(renewed);
  });

  test('a POST is retried after a 5xx only when idempotent (a query) or with an Idempotency-Key', async () => {
    jest.useFakeTimers();
    const { fake, pipeline } = setup();
    fake.on('POST', '$graphql', () => jsonResponse({}, 503));
    const url = `${BASE}fhir/R4/$graphql`;
    expect((await pipeline.fetch(url, { method: 'POST', body: '{}' })).status).toBe(503);
    expect(fake.calls).toHaveLength(1);

    const idempotent = pipeline.fetch(url, { method: 'POST', body: '{}', idempotent: true });
    await jest.advanceTimersByTimeAsync(10 * RETRY_DELAY);
    expect((await idempotent).status).toBe(503);
    expect(fake.calls).toHaveLength(4);

    const keyed = pipeline.fetch(url, { method: 'POST', body: '{}', headers: { 'idempotency-key': 'k1' } });
    await jest.advanceTimersByTimeAsync(10 * RETRY_DELAY);
    expect((await keyed).status).toBe(503);
    expect(fake.calls).toHaveLength(7);
    expect(fake.calls[6].headers['Idempotency-Key']).toBe('k1');
    expect(fake.calls[6].headers['idempotency-key']).toBeUndefined();
  });

  test('a network failure twice tells the app it is offline; an abort rejects with "Request aborted"', async () => {
    jest.useFakeTimers();
    const { fake, pipeline, onOffline } = setup();
    fake.on('GET', 'x', () => {
      throw new TypeError('Failed to fetch');
    });
    const controller = new AbortController();
    const settled = pipeline.fetch(`${BASE}x`, { signal: controller.signal }).catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(RETRY_DELAY);
    expect(onOffline).toHaveBeenCalledTimes(1);
    controller.abort();
    expect(await settled).toMatchObject({ name: 'AbortError', message: 'Request aborted' });
    expect(fake.calls).toHaveLength(2);
  });

  test('a method or a body the pipeline cannot send again is refused before anything is sent', async () => {
    const { fake, pipeline } = setup();
    await expect(pipeline.fetch(`${BASE}x`, { method: 'OPTIONS' })).rejects.toThrow(
      'The request pipeline does not send OPTIONS requests',
    );
    await expect(pipeline.fetch(`${BASE}x`, { method: 'POST', body: new ReadableStream() })).rejects.toThrow(
      'not a stream',
    );
    expect(fake.calls).toHaveLength(0);
  });
});
