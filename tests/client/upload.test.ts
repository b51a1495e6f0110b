// Uploads with progress (SPEC §7 "POST Binary?_filename with raw body, optional upload
// progress", §8 'Request error', 'Request aborted'): XMLHttpRequest when there is one (browsers),
// a counted stream to fetch otherwise (Node); both with the same token, refresh and headers as
// every other request.
import { BloomClient } from '../../src/client';
import type { XhrLike } from '../../src/client/upload';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { fakeFetch, jsonResponse } from './support/fake-fetch';
import { accessToken } from './support/tokens';

const BASE = 'http://api.test/';
const NOW = Date.UTC(2026, 0, 1, 12);
const oldToken = accessToken({ now: NOW - 60_000, id: 'old' });
const newToken = accessToken({ now: NOW, id: 'new' });

interface SentXhr {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A scripted XMLHttpRequest: each send is answered by `respond` (status, body) or fails. */
function fakeXhr(respond: (sent: SentXhr) => { status: number; body?: string } | 'error' | 'abort') {
  const sent: SentXhr[] = [];
  class FakeXhr implements XhrLike {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private current: SentXhr = { method: '', url: '', headers: {}, body: undefined };
    open(method: string, url: string): void {
      this.current = { method, url, headers: {}, body: undefined };
    }
    setRequestHeader(name: string, value: string): void {
      this.current.headers[name] = value;
    }
    getAllResponseHeaders(): string {
      return 'content-type: application/fhir+json\r\n';
    }
    abort(): void {
      setTimeout(() => this.onabort?.(), 0);
    }
    send(body?: unknown): void {
      this.current.body = body;
      sent.push(this.current);
      const answer = respond(this.current);
      setTimeout(() => {
        if (answer === 'abort') {
          return; // stays in flight until aborted
        }
        this.upload.onprogress?.({ loaded: 5, total: 10, lengthComputable: true } as ProgressEvent);
        this.upload.onprogress?.({ loaded: 10, total: 10, lengthComputable: true } as ProgressEvent);
        if (answer === 'error') {
          this.onerror?.();
          return;
        }
        this.status = answer.status;
        this.responseText = answer.body ?? '';
        this.onload?.();
      }, 0);
    }
  }
  return { sent, createXhr: () => new FakeXhr() };
}

function clientWith(createXhr: () => XhrLike, fetchOverride?: typeof fetch) {
  const fake = fakeFetch();
  fake.on('POST', '/oauth2/token', () =>
    jsonResponse({ token_type: 'Bearer', access_token: newToken, refresh_token: 'r2' }),
  );
  fake.on('GET', '/auth/me', () => jsonResponse({}));
  const storage = new PrefixedStorage(new MemoryStorage());
  storage.setObject('activeLogin', { accessToken: oldToken, refreshToken: 'r1' });
  const client = new BloomClient({
    baseUrl: BASE,
    fetch: fetchOverride ?? fake.fetch,
    storage,
    createXhr,
    now: () => NOW,
  });
  return { client, fake };
}

describe('uploads through XMLHttpRequest (browser)', () => {
  test('progress events reach the caller; the XHR carries the bearer token, content type and Idempotency-Key', async () => {
    const xhr = fakeXhr(() => ({ status: 201, body: JSON.stringify({ resourceType: 'Binary', id: 'b1' }) }));
    const { client } = clientWith(xhr.createXhr);
    const progress: number[] = [];
    const binary = await client.createBinary('0123456789', 'x.txt', 'text/plain', (e) =>
      progress.push(e.loaded),
    );
    expect(binary).toEqual({ resourceType: 'Binary', id: 'b1' });
    expect(progress).toEqual([5, 10]);
    expect(xhr.sent).toHaveLength(1);
    expect(xhr.sent[0]).toMatchObject({
      method: 'POST',
      url: `${BASE}fhir/R4/Binary?_filename=x.txt`,
      body: '0123456789',
    });
    expect(xhr.sent[0].headers).toMatchObject({
      Authorization: `Bearer ${oldToken}`,
      'Content-Type': 'text/plain',
      'Idempotency-Key': expect.any(String),
    });
  });

  test('issue #5: a 401 on the upload refreshes the token once and uploads again with the new one', async () => {
    const xhr = fakeXhr((sent) =>
      sent.headers.Authorization === `Bearer ${newToken}`
        ? { status: 201, body: JSON.stringify({ resourceType: 'Binary', id: 'b2' }) }
        : {
            status: 401,
            body: JSON.stringify({
              resourceType: 'OperationOutcome',
              issue: [{ severity: 'error', code: 'login' }],
            }),
          },
    );
    const { client, fake } = clientWith(xhr.createXhr);
    await expect(
      client.createBinary({ data: 'abc', contentType: 'text/plain', onProgress: () => undefined }),
    ).resolves.toMatchObject({ id: 'b2' });
    expect(fake.callsTo('POST', '/oauth2/token')).toHaveLength(1);
    expect(xhr.sent.map((s) => s.headers.Authorization)).toEqual([
      `Bearer ${oldToken}`,
      `Bearer ${newToken}`,
    ]);
    // The same key both times: the retry of one logical upload.
    expect(xhr.sent[0].headers['Idempotency-Key']).toBe(xhr.sent[1].headers['Idempotency-Key']);
  });

  test("SPEC §8: an upload failing without an answer rejects with 'Request error' (after its retries)", async () => {
    const xhr = fakeXhr(() => 'error');
    const { client } = clientWith(xhr.createXhr);
    await expect(client.createBinary('abc', 'x.txt', 'text/plain', () => undefined)).rejects.toThrow(
      'Request error',
    );
    expect(xhr.sent).toHaveLength(3);
  });

  test("SPEC §8: aborting an upload rejects with 'Request aborted'", async () => {
    const xhr = fakeXhr(() => 'abort');
    const { client } = clientWith(xhr.createXhr);
    const controller = new AbortController();
    const upload = client.createBinary('abc', 'x.txt', 'text/plain', () => undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 5);
    await expect(upload).rejects.toThrow('Request aborted');
    expect(xhr.sent).toHaveLength(1);
  });

  test('without a progress listener, fetch is used as for any request', async () => {
    const xhr = fakeXhr(() => ({ status: 500 }));
    const { client, fake } = clientWith(xhr.createXhr);
    fake.on('POST', '/Binary', () => jsonResponse({ resourceType: 'Binary', id: 'b3' }, 201));
    await expect(client.createBinary('abc', 'x.txt', 'text/plain')).resolves.toMatchObject({ id: 'b3' });
    expect(xhr.sent).toHaveLength(0);
  });
});

describe('uploads in Node (no XMLHttpRequest): a counted stream to fetch', () => {
  test('progress is reported as fetch reads the body, in 64 KiB chunks, up to the full size; same token', async () => {
    const size = 200 * 1024;
    const data = new Uint8Array(size).fill(7);
    const received: { bytes: number; authorization: string | undefined; duplex: unknown }[] = [];
    const fetchWithStream = (async (input: string, init?: RequestInit) => {
      if (input.endsWith('/auth/me')) {
        return jsonResponse({});
      }
      const reader = (init?.body as ReadableStream<Uint8Array>).getReader();
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
      }
      received.push({
        bytes,
        authorization: (init?.headers as Record<string, string>).Authorization,
        duplex: (init as { duplex?: unknown }).duplex,
      });
      return jsonResponse({ resourceType: 'Binary', id: 'big' }, 201);
    }) as typeof fetch;
    const storage = new PrefixedStorage(new MemoryStorage());
    storage.setObject('activeLogin', { accessToken: newToken, refreshToken: 'r1' });
    const client = new BloomClient({
      baseUrl: BASE,
      fetch: fetchWithStream,
      storage,
      createXhr: undefined,
      now: () => NOW,
    });
    const progress: { loaded: number; total: number }[] = [];
    // Node has no XMLHttpRequest, so the default is the stream.
    expect(typeof (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest).toBe('undefined');
    await expect(
      client.createBinary(data, 'scan.bin', 'application/octet-stream', (e) =>
        progress.push({ loaded: e.loaded, total: e.total }),
      ),
    ).resolves.toMatchObject({ id: 'big' });
    expect(received).toEqual([{ bytes: size, authorization: `Bearer ${newToken}`, duplex: 'half' }]);
    expect(progress.map((p) => p.loaded)).toEqual([65536, 131072, 196608, 204800]);
    expect(progress.every((p) => p.total === size)).toBe(true);
  });
});
