// The request pipeline's retry, poll, redirect and abort rules (SPEC §4 "Request
// results", §8 'Request aborted', §9 "Retries: 3 attempts, 200 ms apart", "Poll interval 1000 ms"),
// with a fake fetch and jest's fake clock so the spacing is exact.
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { RequestPipeline } from '../../src/client/request';
import type { RequestOptions } from '../../src/client/request';
import { MAX_ATTEMPTS, RETRY_DELAY } from '../../src/client/retry-policy';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { TokenManager } from '../../src/client/token-manager';
import { fakeFetch, jsonResponse } from './support/fake-fetch';

const BASE = 'http://api.test/';
const patient = { resourceType: 'Patient', id: 'p1' };
const outcome500 = {
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'exception', details: { text: 'Internal server error' } }],
};

function setup() {
  const fake = fakeFetch();
  const times: number[] = [];
  const tokens = new TokenManager({
    fetch: fake.fetch,
    tokenUrl: `${BASE}oauth2/token`,
    storage: new PrefixedStorage(new MemoryStorage()),
  });
  const onOffline = jest.fn();
  const pipeline = new RequestPipeline({ baseUrl: BASE, fetch: fake.fetch, tokens, onOffline });
  /** Answers in turn; records when each attempt arrived. */
  const sequence = (method: string, path: string, answers: (() => Response | Promise<Response>)[]) => {
    let i = 0;
    fake.on(method, path, () => {
      times.push(Date.now());
      const answer = answers[Math.min(i++, answers.length - 1)];
      return answer();
    });
  };
  return { fake, pipeline, times, onOffline, sequence };
}

/** Runs the request while the fake clock moves on, and returns how it settled. */
async function settle<T>(promise: Promise<T>, ms = 10_000): Promise<{ value?: T; error?: unknown }> {
  const result = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await jest.advanceTimersByTimeAsync(ms);
  return result;
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]);
}

beforeEach(() => {
  jest.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('SPEC §9 retries for status 500 or more', () => {
  test(`a GET answered 500 is tried ${MAX_ATTEMPTS} times in all, ${RETRY_DELAY} ms apart, then throws the outcome`, async () => {
    const { pipeline, times, sequence } = setup();
    sequence('GET', '/Patient/p1', [() => jsonResponse(outcome500, 500)]);
    const { error } = await settle(pipeline.request('GET', 'Patient/p1'));
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as Error).message).toBe('Internal server error');
    expect(times).toHaveLength(3);
    expect(gaps(times)).toEqual([200, 200]);
  });

  test('a 503 then a 200: the caller gets the resource after one retry', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('GET', '/Patient/p1', [
      () => new Response('busy', { status: 503 }),
      () => jsonResponse(patient),
    ]);
    const { value } = await settle(pipeline.request('GET', 'Patient/p1'));
    expect(value).toEqual(patient);
    expect(gaps(times)).toEqual([200]);
  });

  test('4xx other than 429 is final at once', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('GET', '/Patient/p1', [() => new Response('nope', { status: 404 })]);
    const { error } = await settle(pipeline.request('GET', 'Patient/p1'));
    expect((error as Error).message).toBe('Not found');
    expect(times).toHaveLength(1);
  });

  test('PUT and DELETE are idempotent: retried', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('PUT', '/Patient/p1', [() => jsonResponse(outcome500, 500), () => jsonResponse(patient)]);
    sequence('DELETE', '/Patient/p2', [
      () => jsonResponse(outcome500, 502),
      () => new Response(null, { status: 204 }),
    ]);
    expect((await settle(pipeline.request('PUT', 'Patient/p1', { body: patient }))).value).toEqual(patient);
    expect((await settle(pipeline.request('DELETE', 'Patient/p2'))).error).toBeUndefined();
    expect(times).toHaveLength(4);
  });
});

describe('issue #5: writes are never duplicated by a retry', () => {
  test('a POST without an Idempotency-Key is sent once, even after a 500', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('POST', '/Patient', [() => jsonResponse(outcome500, 500), () => jsonResponse(patient, 201)]);
    const { error } = await settle(pipeline.request('POST', 'Patient', { body: patient }));
    expect((error as Error).message).toBe('Internal server error');
    expect(times).toHaveLength(1);
  });

  test('a POST without a key that never got an answer is not retried either', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('POST', '/Patient', [() => Promise.reject(new TypeError('Failed to fetch'))]);
    const { error } = await settle(pipeline.request('POST', 'Patient', { body: patient }));
    expect((error as Error).message).toBe('Failed to fetch');
    expect(times).toHaveLength(1);
  });

  test('a POST with an Idempotency-Key is retried with the same key', async () => {
    const { fake, pipeline, sequence } = setup();
    sequence('POST', '/Patient', [() => jsonResponse(outcome500, 500), () => jsonResponse(patient, 201)]);
    const { value } = await settle(
      pipeline.request('POST', 'Patient', { body: patient, idempotencyKey: 'key-123' }),
    );
    expect(value).toEqual(patient);
    expect(fake.calls.map((c) => c.headers['Idempotency-Key'])).toEqual(['key-123', 'key-123']);
  });

  test('a 409 right after a lost attempt (the first request still running on the server) is retried with backoff', async () => {
    const { pipeline, times, sequence } = setup();
    const stillRunning = {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'conflict',
          details: { text: 'A request with this Idempotency-Key is still being processed: retry later' },
        },
      ],
    };
    sequence('POST', '/Patient', [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => jsonResponse(stillRunning, 409),
      () => jsonResponse(patient, 201),
    ]);
    const { value } = await settle(
      pipeline.request('POST', 'Patient', { body: patient, idempotencyKey: 'k-409' }),
    );
    expect(value).toEqual(patient);
    expect(gaps(times)).toEqual([200, 400]);
  });

  test('a 409 on a first attempt is an answer (e.g. an existing member), not retried', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('POST', '/admin/projects/p/invite', [
      () =>
        jsonResponse(
          {
            resourceType: 'OperationOutcome',
            issue: [{ severity: 'error', code: 'conflict', details: { text: 'Already a member' } }],
          },
          409,
        ),
    ]);
    const { error } = await settle(
      pipeline.request('POST', 'admin/projects/p/invite', { body: {}, idempotencyKey: 'k' }),
    );
    expect((error as Error).message).toBe('Already a member');
    expect(times).toHaveLength(1);
  });

  test('PATCH is not idempotent: not retried', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('PATCH', '/Patient/p1', [() => jsonResponse(outcome500, 500)]);
    await settle(
      pipeline.request('PATCH', 'Patient/p1', { body: '[]', contentType: 'application/json-patch+json' }),
    );
    expect(times).toHaveLength(1);
  });
});

describe('issue #5: 429 waits for Retry-After; network errors back off', () => {
  test('429 with Retry-After: 2 (seconds) waits 2000 ms, whatever the method', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('POST', '/auth/login', [
      () => new Response('slow down', { status: 429, headers: { 'Retry-After': '2' } }),
      () => jsonResponse({ login: 'l1' }),
    ]);
    const { value } = await settle(pipeline.request('POST', 'auth/login', { body: {} }));
    expect(value).toEqual({ login: 'l1' });
    expect(gaps(times)).toEqual([2000]);
  });

  test('429 with an HTTP-date Retry-After waits until then', async () => {
    const { pipeline, times, sequence } = setup();
    const at = new Date(Date.now() + 3000).toUTCString();
    sequence('GET', '/x', [
      () => new Response('', { status: 429, headers: { 'Retry-After': at } }),
      () => jsonResponse({ ok: true }),
    ]);
    await settle(pipeline.request('GET', 'x'));
    expect(gaps(times)[0]).toBeGreaterThanOrEqual(2000);
    expect(gaps(times)[0]).toBeLessThanOrEqual(3000);
  });

  test('429 with a Retry-After over a minute is handed back at once as a throttled error', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('GET', '/x', [() => new Response('', { status: 429, headers: { 'Retry-After': '3600' } })]);
    const { error } = await settle(pipeline.request('GET', 'x'));
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as OperationOutcomeError).outcome.issue?.[0]?.code).toBe('throttled');
    expect(times).toHaveLength(1);
  });

  test('network errors back off 200 ms then 400 ms (not at once), then reject as they are', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('GET', '/x', [() => Promise.reject(new TypeError('Failed to fetch'))]);
    const { error } = await settle(pipeline.request('GET', 'x'));
    expect((error as Error).message).toBe('Failed to fetch');
    expect(gaps(times)).toEqual([200, 400]);
  });

  test("SPEC §4: 'Failed to fetch' on the second attempt emits offline, once", async () => {
    const { pipeline, onOffline, sequence } = setup();
    sequence('GET', '/x', [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => jsonResponse({ back: true }),
    ]);
    const { value } = await settle(pipeline.request('GET', 'x'));
    expect(value).toEqual({ back: true });
    expect(onOffline).toHaveBeenCalledTimes(1);
  });

  test('one network failure then success: no offline event', async () => {
    const { pipeline, onOffline, sequence } = setup();
    sequence('GET', '/x', [() => Promise.reject(new TypeError('Failed to fetch')), () => jsonResponse({})]);
    await settle(pipeline.request('GET', 'x'));
    expect(onOffline).not.toHaveBeenCalled();
  });
});

describe("SPEC §8 'Request aborted'", () => {
  test('a signal aborted before the request: nothing is sent', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('GET', '/x', [() => jsonResponse({})]);
    const controller = new AbortController();
    controller.abort();
    const { error } = await settle(pipeline.request('GET', 'x', { signal: controller.signal }));
    expect((error as Error).message).toBe('Request aborted');
    expect(times).toHaveLength(0);
  });

  test('aborted while in flight: fetch rejects with AbortError → Request aborted, no retry', async () => {
    const { fake, pipeline } = setup();
    fake.on('GET', '/slow', () =>
      Promise.reject(new DOMException('This operation was aborted', 'AbortError')),
    );
    const { error } = await settle(pipeline.request('GET', 'slow', { signal: new AbortController().signal }));
    expect((error as Error).message).toBe('Request aborted');
    expect((error as Error).name).toBe('AbortError');
    expect(fake.calls).toHaveLength(1);
  });

  test('aborted while waiting to retry: rejects at once, no further attempt', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('GET', '/x', [() => jsonResponse(outcome500, 500)]);
    const controller = new AbortController();
    const promise = pipeline.request('GET', 'x', { signal: controller.signal });
    const result = promise.then(
      () => undefined,
      (err: Error) => err,
    );
    await jest.advanceTimersByTimeAsync(50);
    controller.abort();
    await jest.advanceTimersByTimeAsync(1000);
    expect((await result)?.message).toBe('Request aborted');
    expect(times).toHaveLength(1);
  });
});

describe('SPEC §4: 202 polling and redirects', () => {
  const accepted = (location: string) =>
    new Response(JSON.stringify({ resourceType: 'OperationOutcome', id: 'accepted', issue: [] }), {
      status: 202,
      headers: { 'content-type': 'application/json', 'Content-Location': location },
    });

  test('a 202 is polled at its Content-Location every 1000 ms (default) until it is done', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('POST', '/$export', [() => accepted(`${BASE}fhir/R4/job/1`)]);
    sequence('GET', '/job/1', [
      () => accepted(`${BASE}fhir/R4/job/1`),
      () => accepted(`${BASE}fhir/R4/job/1`),
      () => jsonResponse({ output: [] }),
    ]);
    const { value } = await settle(pipeline.request('POST', '$export', { pollStatusOnAccepted: true }));
    expect(value).toEqual({ output: [] });
    expect(gaps(times)).toEqual([1000, 1000, 1000]);
  });

  test('pollStatusPeriod sets the spacing; a failed poll rejects with its outcome', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('POST', '/$export', [() => accepted('job/2')]);
    sequence('GET', '/job/2', [
      () => accepted('job/2'),
      () =>
        jsonResponse(
          {
            resourceType: 'OperationOutcome',
            issue: [{ severity: 'error', code: 'exception', details: { text: 'Export failed' } }],
          },
          500,
        ),
    ]);
    const options: RequestOptions = { pollStatusOnAccepted: true, pollStatusPeriod: 250 };
    const { error } = await settle(pipeline.request('POST', '$export', options));
    expect((error as Error).message).toBe('Export failed');
    // 250 to the first poll, 250 to the second, then its two retries 200 ms apart.
    expect(gaps(times)).toEqual([250, 250, 200, 200]);
  });

  test('without pollStatusOnAccepted a 202 returns its body; no poll', async () => {
    const { pipeline, times, sequence } = setup();
    sequence('POST', '/$export', [() => accepted('job/3')]);
    const { value } = await settle(pipeline.request('POST', '$export'));
    expect(value).toMatchObject({ id: 'accepted' });
    expect(times).toHaveLength(1);
  });

  test('followRedirectOnCreated: a 201 is followed to its Location; followRedirectOnOk: a 200 to Content-Location', async () => {
    const { fake, pipeline } = setup();
    fake.on(
      'POST',
      '/Patient',
      () => new Response('', { status: 201, headers: { Location: `${BASE}fhir/R4/Patient/p1/_history/1` } }),
    );
    fake.on('GET', '/Patient/p1/_history/1', () => jsonResponse(patient));
    fake.on(
      'POST',
      '/lookup',
      () =>
        new Response('{}', {
          status: 200,
          headers: {
            'Content-Location': 'fhir/R4/Patient/p1/_history/1',
            'content-type': 'application/json',
          },
        }),
    );
    expect(
      await pipeline.request('POST', 'Patient', { body: patient, followRedirectOnCreated: true }),
    ).toEqual(patient);
    expect(await pipeline.request('POST', 'lookup', { body: {}, followRedirectOnOk: true })).toEqual(patient);
    expect(await pipeline.request('POST', 'lookup', { body: {} })).toEqual({});
  });
});

describe('SPEC §4: 204 and 304 return nothing', () => {
  test.each([204, 304])('%i → undefined', async (status) => {
    const { fake, pipeline } = setup();
    fake.on('GET', '/x', () => new Response(null, { status }));
    await expect(pipeline.request('GET', 'x')).resolves.toBeUndefined();
  });
});
