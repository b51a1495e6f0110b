// The platform client's download (MedplumClient has it, apps use it for
// attachments): a GET through the request pipeline, the body as a Blob. Absolute URLs, paths relative
// to the base, 'Binary/{id}' under the FHIR base; the auth header, refresh on a 401, retry on a 503;
// an error status rejects with its outcome; an abort before, during the exchange or while the body
// arrives rejects with 'Request aborted' (SPEC §8).
import { BloomClient } from '../../src/client';
import type { FetchLike } from '../../src/client/settings';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { jsonResponse } from './support/fake-fetch';
import { BASE, FHIR, signedInClient } from './support/fhir-client-setup';
import { accessToken } from './support/tokens';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

function fileResponse(bytes: Uint8Array<ArrayBuffer> = PNG, type = 'image/png'): Response {
  return new Response(bytes, { status: 200, headers: { 'content-type': type } });
}

/** A signed-in client whose fetch is `fetch` itself (it sees the request's abort signal). */
function clientWithFetch(fetch: FetchLike): BloomClient {
  const storage = new PrefixedStorage(new MemoryStorage());
  storage.setObject('activeLogin', { accessToken: accessToken(), refreshToken: 'r1' });
  return new BloomClient({ baseUrl: BASE, fetch, storage });
}

async function bytesOf(blob: Blob): Promise<number[]> {
  return [...new Uint8Array(await blob.arrayBuffer())];
}

describe('issue #20 download(url, options)', () => {
  test('an absolute URL: GET with the bearer token and Accept */*, the body as a Blob of its type', async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/storage/photo.png', () => fileResponse());
    const blob = await client.download('https://files.test/storage/photo.png');
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe('image/png');
    expect(await bytesOf(blob)).toEqual([...PNG]);
    const [call] = fake.callsTo('GET', '/storage/photo.png');
    expect(call.url).toBe('https://files.test/storage/photo.png');
    expect(call.headers.Authorization).toBe(`Bearer ${client.getAccessToken()}`);
    expect(call.headers.Accept).toBe('*/*');
  });

  test("a path is relative to the base URL; 'Binary/{id}' is under the FHIR base, as in Medplum; a URL object works", async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/Binary/b1', () => fileResponse(new Uint8Array([1, 2, 3]), 'application/pdf'));
    fake.on('GET', '/export/file.ndjson', () =>
      fileResponse(new TextEncoder().encode('{}\n'), 'application/fhir+ndjson'),
    );
    expect(await bytesOf(await client.download('Binary/b1'))).toEqual([1, 2, 3]);
    expect(await bytesOf(await client.download('fhir/R4/Binary/b1'))).toEqual([1, 2, 3]);
    expect(await (await client.download('export/file.ndjson')).text()).toBe('{}\n');
    expect((await client.download(new URL(`${FHIR}Binary/b1`))).type).toBe('application/pdf');
    expect(fake.calls.filter((c) => c.url !== `${BASE}auth/me`).map((c) => c.url)).toEqual([
      `${FHIR}Binary/b1`,
      `${FHIR}Binary/b1`,
      `${BASE}export/file.ndjson`,
      `${FHIR}Binary/b1`,
    ]);
  });

  test('never cached: each download fetches; caller headers are sent (an Accept of their own wins)', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60_000 });
    fake.on('GET', '/Binary/b1', () => fileResponse());
    await client.download('Binary/b1');
    await client.download('Binary/b1', { headers: { Accept: 'image/png', 'X-Trace': 't1' } });
    const calls = fake.callsTo('GET', '/Binary/b1');
    expect(calls).toHaveLength(2);
    expect(calls[1].headers.Accept).toBe('image/png');
    expect(calls[1].headers['X-Trace']).toBe('t1');
  });

  test('a 404 rejects with the outcome (not a Blob of the error page); a 404 without JSON is the generic Not found', async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/Binary/gone', () =>
      jsonResponse(
        {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
        },
        404,
        'application/fhir+json',
      ),
    );
    fake.on(
      'GET',
      '/files/missing.png',
      () => new Response('<h1>Not Found</h1>', { status: 404, headers: { 'content-type': 'text/html' } }),
    );
    const error = await client.download('Binary/gone').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as OperationOutcomeError).message).toBe('Not found');
    expect((error as OperationOutcomeError).outcome.issue?.[0]?.code).toBe('not-found');
    const generic = await client
      .download('https://files.test/files/missing.png')
      .catch((err: unknown) => err);
    expect(generic).toBeInstanceOf(OperationOutcomeError);
    expect((generic as OperationOutcomeError).outcome.issue?.[0]?.code).toBe('not-found');
  });

  test('an expired session: the 401 renews the token and the download is sent again with the new one', async () => {
    const { client, fake } = signedInClient();
    const expired = client.getAccessToken();
    const renewed = accessToken({ id: 'login-2' });
    fake.on('POST', '/oauth2/token', () =>
      jsonResponse({
        token_type: 'Bearer',
        access_token: renewed,
        refresh_token: 'r2',
        expires_in: 3600,
        project: { reference: 'Project/clinic' },
        profile: { reference: 'Patient/maria' },
      }),
    );
    fake.on('GET', '/Binary/b1', (call) =>
      call.headers.Authorization === `Bearer ${renewed}`
        ? fileResponse()
        : jsonResponse(
            { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] },
            401,
          ),
    );
    expect(await bytesOf(await client.download('Binary/b1'))).toEqual([...PNG]);
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(1);
    expect(fake.callsTo('GET', '/Binary/b1').map((c) => c.headers.Authorization)).toEqual([
      `Bearer ${expired}`,
      `Bearer ${renewed}`,
    ]);
    expect(client.getAccessToken()).toBe(renewed);
  });

  test('a 503 is retried (a GET is safe to repeat), then the file arrives', async () => {
    const { client, fake } = signedInClient();
    let attempts = 0;
    fake.on('GET', '/Binary/b1', () =>
      ++attempts === 1
        ? new Response('busy', { status: 503, headers: { 'retry-after': '0' } })
        : fileResponse(),
    );
    expect(await bytesOf(await client.download('Binary/b1'))).toEqual([...PNG]);
    expect(attempts).toBe(2);
  });

  test("aborted before it starts: rejects with 'Request aborted' and sends nothing", async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/Binary/b1', () => fileResponse());
    const controller = new AbortController();
    controller.abort();
    await expect(client.download('Binary/b1', { signal: controller.signal })).rejects.toThrow(
      'Request aborted',
    );
    expect(fake.callsTo('GET', '/Binary/b1')).toHaveLength(0);
  });

  test("aborted while the server has not answered: rejects with 'Request aborted', not retried", async () => {
    const controller = new AbortController();
    let started = 0;
    const pending = clientWithFetch(async (input, init) => {
      if (!input.endsWith('/Binary/slow')) return jsonResponse({});
      started++;
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () =>
          reject(new DOMException('The operation was aborted.', 'AbortError')),
        );
      });
    });
    const download = pending.download('Binary/slow', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const error = await download.catch((err: unknown) => err);
    expect((error as Error).message).toBe('Request aborted');
    expect((error as Error).name).toBe('AbortError');
    expect(started).toBe(1);
  });

  test("aborted while the body is still arriving: rejects with 'Request aborted'", async () => {
    const controller = new AbortController();
    const pending = clientWithFetch(async (input, init) => {
      if (!input.endsWith('/Binary/big')) return jsonResponse({});
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          stream.enqueue(new Uint8Array([1, 2, 3]));
          init?.signal?.addEventListener('abort', () =>
            stream.error(new DOMException('The operation was aborted.', 'AbortError')),
          );
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'video/mp4' } });
    });
    const download = pending.download('Binary/big', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(download).rejects.toThrow('Request aborted');
  });
});
