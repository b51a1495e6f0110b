// Uploads with progress (SPEC §7 "POST Binary?_filename with raw body, optional upload progress").
// fetch reports no upload progress, so in a browser the request goes through XMLHttpRequest; in
// Node (no XMLHttpRequest) the body is streamed to fetch in chunks and progress is counted as fetch
// pulls them. Either way the caller (the request pipeline) builds the same headers, token and
// retries as for every other request; this module only moves the bytes.
import { requestAbortedError } from './abort';
import type { FetchLike } from './settings';

export interface UploadProgress {
  loaded: number;
  total: number;
  lengthComputable: boolean;
}

export type UploadProgressListener = (progress: UploadProgress) => void;

/** SPEC §8: an upload that fails without an answer. */
export const REQUEST_ERROR = 'Request error';

/** The part of XMLHttpRequest an upload uses; injectable for tests. */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body?: XMLHttpRequestBodyInit | null): void;
  abort(): void;
  getAllResponseHeaders(): string;
  readonly status: number;
  readonly responseText: string;
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

export type XhrFactory = () => XhrLike;

export interface UploadInit {
  method: string;
  headers: Record<string, string>;
  body: BodyInit | undefined;
  signal?: AbortSignal;
}

/** XMLHttpRequest when the environment has one (browsers), else undefined. */
export function defaultXhrFactory(): XhrFactory | undefined {
  const Xhr = (globalThis as { XMLHttpRequest?: new () => XhrLike }).XMLHttpRequest;
  return Xhr ? () => new Xhr() : undefined;
}

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
  }
  return headers;
}

function hasNoBody(status: number): boolean {
  return status === 204 || status === 304;
}

export function uploadWithXhr(
  createXhr: XhrFactory,
  url: string,
  init: UploadInit,
  onProgress: UploadProgressListener,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = createXhr();
    const onAbortSignal = (): void => xhr.abort();
    const done = (): void => init.signal?.removeEventListener('abort', onAbortSignal);
    xhr.open(init.method, url);
    for (const [name, value] of Object.entries(init.headers)) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) =>
      onProgress({ loaded: event.loaded, total: event.total, lengthComputable: event.lengthComputable });
    xhr.onload = () => {
      done();
      const headers = parseHeaders(xhr.getAllResponseHeaders());
      resolve(new Response(hasNoBody(xhr.status) ? null : xhr.responseText, { status: xhr.status, headers }));
    };
    xhr.onerror = () => {
      done();
      reject(new Error(REQUEST_ERROR));
    };
    xhr.onabort = () => {
      done();
      reject(requestAbortedError());
    };
    init.signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

const CHUNK_SIZE = 64 * 1024;

async function bodyBytes(body: BodyInit | undefined): Promise<Uint8Array | undefined> {
  if (typeof body === 'string') {
    return new TextEncoder().encode(body);
  }
  if (body instanceof ArrayBuffer) {
    return new Uint8Array(body);
  }
  if (ArrayBuffer.isView(body)) {
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  }
  if (typeof Blob !== 'undefined' && body instanceof Blob) {
    return new Uint8Array(await body.arrayBuffer());
  }
  return undefined;
}

/** Streams the body to fetch in chunks, reporting the bytes handed over so far. */
export async function uploadWithStream(
  fetch: FetchLike,
  url: string,
  init: UploadInit,
  onProgress: UploadProgressListener,
): Promise<Response> {
  const bytes = await bodyBytes(init.body);
  if (!bytes) {
    // A form or search-params body: no byte count to report until it is sent.
    const response = await fetch(url, init);
    onProgress({ loaded: 1, total: 1, lengthComputable: false });
    return response;
  }
  const total = bytes.byteLength;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= total) {
        controller.close();
        return;
      }
      const end = Math.min(offset + CHUNK_SIZE, total);
      controller.enqueue(bytes.subarray(offset, end));
      offset = end;
      onProgress({ loaded: offset, total, lengthComputable: true });
    },
  });
  if (total === 0) {
    onProgress({ loaded: 0, total: 0, lengthComputable: true });
  }
  // duplex 'half' is required by fetch for a stream body (Node's undici and the Fetch standard).
  return fetch(url, { ...init, body: stream, duplex: 'half' } as RequestInit);
}
