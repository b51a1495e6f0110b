// The request pipeline of SPEC §4 "Request results": build the request → wait for a due refresh →
// send with the auth header (a 401 renews the session and retries once) → retry by the retry
// policy (status ≥ 500, 429 after Retry-After, network errors with backoff; offline event) → poll
// a 202 → follow Content-Location/Location when asked → decode, turning error responses into the
// OperationOutcomeError of src/fhir (SPEC §8). A download lives the same life and ends
// with the body as a Blob instead, and `fetch` (fetch's signature, for Apollo's HttpLink) ends with
// the Response. Hooks (pipeline-hooks.ts) let other code see and change each attempt. The cache and
// the auto-batcher sit above it (fhir-client.ts); the token logic lives in the token manager.
import type { OperationOutcome } from '@medplum/fhirtypes';
import { OperationOutcomeError, badRequest, isOperationOutcome, notFound } from '../fhir/outcomes';
import { REQUEST_ABORTED, isAbortError, requestAbortedError, sleep, throwIfAborted } from './abort';
import { fetchRequest } from './pipeline-fetch';
import type { PipelineFetch, PipelineFetchInit } from './pipeline-fetch';
import { HookList, loggingHooks } from './pipeline-hooks';
import type { OutgoingRequest, PipelineHooks } from './pipeline-hooks';
import {
  IDEMPOTENCY_KEY_HEADER,
  isRetrySafe,
  retryDelayForNetworkError,
  retryDelayForStatus,
} from './retry-policy';
import { resolveUrl } from './settings';
import type { FetchLike } from './settings';
import type { TokenManager } from './token-manager';
import { defaultXhrFactory, uploadWithStream, uploadWithXhr } from './upload';
import type { UploadProgressListener, XhrFactory } from './upload';

export const FHIR_JSON = 'application/fhir+json';
export const JSON_CONTENT_TYPE = 'application/json';

/** SPEC §4, §9: an accepted (202) request is polled every 1000 ms by default. */
export const DEFAULT_POLL_STATUS_PERIOD = 1000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a GET uses the response cache: 'default' reads and fills it, 'reload' only fills it, 'no-cache' skips it. */
export type CacheMode = 'default' | 'reload' | 'no-cache';

export interface RequestOptions {
  /** A JSON value (sent as `contentType`, FHIR JSON by default) or a ready body (string, Blob, form). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** false: no refresh and no 401 handling (sign-out must not renew the session it ends). */
  authRenewal?: boolean;
  /** GETs only; see CacheMode (the pipeline itself never caches). */
  cache?: CacheMode;
  /** A 200 with Content-Location (or Location) is followed with a GET of that URL. */
  followRedirectOnOk?: boolean;
  /** A 201 with Location (or Content-Location) is followed with a GET of that URL. */
  followRedirectOnCreated?: boolean;
  /** A 202 is polled at its Content-Location until it is no longer 202. */
  pollStatusOnAccepted?: boolean;
  /** Time between polls in ms (default 1000). */
  pollStatusPeriod?: number;
  /** Sent as the Idempotency-Key header; makes a POST safe to retry. */
  idempotencyKey?: string;
  /** A read sent as POST (a GraphQL query): safe to retry without an Idempotency-Key. */
  idempotent?: boolean;
  /** Upload progress: the body goes through XMLHttpRequest in a browser, a counted stream in Node. */
  onUploadProgress?: UploadProgressListener;
  /** fetch's keepalive: the request outlives the page (a close published as the tab goes away). */
  keepalive?: boolean;
}

export interface RequestPipelineOptions {
  baseUrl: string;
  fetch: FetchLike;
  tokens: TokenManager;
  /** Logs each request's method, URL and status (never headers or bodies). */
  verbose?: boolean;
  /** Called when a request fails to reach the server on its second attempt (SPEC §4). */
  onOffline?: () => void;
  /** XMLHttpRequest for uploads with progress (default: the environment's, when it has one). */
  createXhr?: XhrFactory;
  now?: () => number;
  /** Hooks from the start (more with addHooks). */
  hooks?: PipelineHooks;
}

interface Sent {
  response: Response;
  authorization: string | undefined;
}

function isReadyBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

/** Sets `name` unless `headers` has it in any letter case (fetch callers write 'accept'). */
function setDefaultHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  if (!Object.keys(headers).some((key) => key.toLowerCase() === lower)) {
    headers[name] = value;
  }
}

/** Sets `name`, replacing any entry of it in another letter case. */
function replaceHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === lower) delete headers[key];
  }
  headers[name] = value;
}

function isJsonResponse(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  // NDJSON (bulk export files) is many JSON documents: the caller gets it as text.
  return type.includes('json') && !type.includes('ndjson');
}

/** Reads and drops a body we will not use, so the connection is free for the next request. */
async function discard(response: Response): Promise<void> {
  try {
    await response.arrayBuffer();
  } catch {
    // Already consumed or broken: nothing to free.
  }
}

/** An OAuth error body ({error, error_description}) or anything else that is not an outcome. */
function outcomeFromBody(status: number, body: unknown): OperationOutcome {
  if (isOperationOutcome(body)) {
    return body;
  }
  const description = (body as { error_description?: unknown } | undefined)?.error_description;
  if (typeof description === 'string' && description !== '') {
    return badRequest(description);
  }
  if (status === 404) {
    // SPEC §4: a 404 with a non-JSON body gives the generic not-found outcome.
    return notFound;
  }
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: status >= 500 ? 'exception' : status === 429 ? 'throttled' : 'processing',
        details: { text: status < 500 && isPlainMessage(body) ? body.trim() : `HTTP ${status}` },
      },
    ],
  };
}

/**
 * A refusal answered as a line of text (Medplum's key-value API: 'Invalid key') is its own message,
 * as MedplumClient reads it; a page of HTML or a long body is not a message.
 */
function isPlainMessage(body: unknown): body is string {
  return typeof body === 'string' && body.trim() !== '' && body.length <= 500 && !/[<\n]/.test(body.trim());
}

export class RequestPipeline {
  private readonly baseUrl: string;
  private readonly transport: FetchLike;
  private readonly tokens: TokenManager;
  private readonly hooks = new HookList();
  private readonly onOffline: (() => void) | undefined;
  private readonly createXhr: XhrFactory | undefined;
  private readonly now: () => number;

  constructor(options: RequestPipelineOptions) {
    this.baseUrl = options.baseUrl;
    this.transport = options.fetch;
    this.tokens = options.tokens;
    if (options.verbose) {
      this.hooks.add(loggingHooks());
    }
    if (options.hooks) {
      this.hooks.add(options.hooks);
    }
    this.onOffline = options.onOffline;
    this.createXhr = options.createXhr ?? defaultXhrFactory();
    this.now = options.now ?? Date.now;
  }

  /** Adds hooks to every later request's life; returns the function that removes them. */
  addHooks(hooks: PipelineHooks): () => void {
    return this.hooks.add(hooks);
  }

  /**
   * fetch's signature over the pipeline (for Apollo's HttpLink and other fetch-taking libraries):
   * the session's Authorization, refresh before expiry, one renewal on a 401, the retry policy
   * (5xx, 429 after Retry-After, network backoff, the offline event) and abort. Resolves with the
   * final Response, error statuses included, as fetch does; rejects on abort, on a network failure
   * past the retries, and with 'Unauthenticated' when the session cannot be renewed. A POST is
   * retried after a 5xx or a network error only with an Idempotency-Key header or `idempotent`.
   */
  readonly fetch: PipelineFetch = async (input, init?: PipelineFetchInit) => {
    const { method, url, options } = await fetchRequest(input, init);
    return this.sendAuthorized(method, this.url(url), options);
  };

  /** A path relative to the base URL ('auth/me'), or an absolute URL. */
  url(pathOrUrl: string): string {
    return resolveUrl(this.baseUrl, pathOrUrl);
  }

  async request<T>(method: HttpMethod, pathOrUrl: string, options: RequestOptions = {}): Promise<T> {
    return this.decode<T>(await this.exchange(method, pathOrUrl, options));
  }

  /**
   * A GET of a file (MedplumClient's download): the same life as request(), any media type accepted,
   * the body resolved as a Blob. An error status rejects as request() does, with the outcome.
   */
  async download(pathOrUrl: string, options: RequestOptions = {}): Promise<Blob> {
    const headers = { Accept: '*/*', ...options.headers };
    const response = await this.exchange('GET', pathOrUrl, { ...options, headers });
    if (response.status >= 400) {
      return this.decode<never>(response);
    }
    try {
      return await response.blob();
    } catch (err) {
      // The body is cut off when the signal aborts while it is still arriving.
      throw isAbortError(err) || options.signal?.aborted ? requestAbortedError(err) : err;
    }
  }

  /** Sends and follows up: the response the caller decodes. */
  private async exchange(method: HttpMethod, pathOrUrl: string, options: RequestOptions): Promise<Response> {
    const url = this.url(pathOrUrl);
    return this.followUp(await this.sendAuthorized(method, url, options), options);
  }

  /** Sends with the session's credentials; a 401 renews the session once and sends again. */
  private async sendAuthorized(method: HttpMethod, url: string, options: RequestOptions): Promise<Response> {
    throwIfAborted(options.signal);
    const renew = options.authRenewal !== false;
    if (renew) {
      await this.tokens.refreshIfExpiring();
    }
    let sent = await this.sendWithRetry(method, url, options);
    if (renew && sent.response.status === 401) {
      await discard(sent.response);
      await this.tokens.handleUnauthorized(sent.authorization);
      sent = await this.sendWithRetry(method, url, options);
      if (sent.response.status === 401) {
        await discard(sent.response);
        throw this.tokens.rejectAfterRetry();
      }
    }
    return sent.response;
  }

  private async sendWithRetry(method: HttpMethod, url: string, options: RequestOptions): Promise<Sent> {
    const retrySafe = options.idempotent === true || isRetrySafe(method, options.idempotencyKey);
    let keyInFlight = false;
    for (let attempt = 0; ; attempt++) {
      throwIfAborted(options.signal);
      let delay: number | undefined;
      let status: number | undefined;
      let error: unknown;
      try {
        const sent = await this.send(method, url, options, attempt);
        status = sent.response.status;
        const retryAfter = sent.response.headers.get('retry-after');
        delay = retryDelayForStatus(status, retryAfter, attempt, retrySafe, this.now(), keyInFlight);
        if (delay === undefined) {
          return sent;
        }
        await discard(sent.response);
      } catch (err) {
        if (isAbortError(err) || options.signal?.aborted) {
          throw err instanceof Error && err.message === REQUEST_ABORTED ? err : requestAbortedError(err);
        }
        if (attempt === 1) {
          // SPEC §4: the network failing on the second attempt means the app is offline.
          this.onOffline?.();
        }
        delay = retryDelayForNetworkError(attempt, retrySafe);
        if (delay === undefined) {
          throw err;
        }
        error = err;
        keyInFlight = options.idempotencyKey !== undefined;
      }
      await this.hooks.beforeRetry({ method, url, attempt, delay, status, error });
      await sleep(delay, options.signal);
    }
  }

  /** One HTTP exchange: attempt number `attempt` of a request. */
  private async send(
    method: HttpMethod,
    url: string,
    options: RequestOptions,
    attempt: number,
  ): Promise<Sent> {
    const headers: Record<string, string> = { ...options.headers };
    setDefaultHeader(headers, 'Accept', `${FHIR_JSON}, ${JSON_CONTENT_TYPE}`);
    const token = this.tokens.getAuthorizationHeader();
    if (token) {
      replaceHeader(headers, 'Authorization', token);
    }
    if (options.idempotencyKey) {
      replaceHeader(headers, IDEMPOTENCY_KEY_HEADER, options.idempotencyKey);
    }
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (isReadyBody(options.body)) {
        body = options.body;
        if (options.contentType) {
          headers['Content-Type'] = options.contentType;
        }
      } else {
        body = JSON.stringify(options.body);
        headers['Content-Type'] = options.contentType ?? FHIR_JSON;
      }
    }
    const outgoing: OutgoingRequest = { method, url, headers, attempt };
    await this.hooks.beforeRequest(outgoing);
    // What was really sent: a 401 renews the session only when it refused the session's token.
    const authorization = Object.entries(headers).find(
      ([name]) => name.toLowerCase() === 'authorization',
    )?.[1];
    const init = {
      method,
      headers,
      body,
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    };
    let response: Response;
    if (options.onUploadProgress) {
      response = this.createXhr
        ? await uploadWithXhr(this.createXhr, url, init, options.onUploadProgress)
        : await uploadWithStream(this.transport, url, init, options.onUploadProgress);
    } else {
      response = await this.transport(url, init);
    }
    response = await this.hooks.afterResponse(response, outgoing);
    return { response, authorization };
  }

  /** Polls a 202 and follows redirects when the options ask (SPEC §4). */
  private async followUp(response: Response, options: RequestOptions): Promise<Response> {
    const location = response.headers.get('content-location') ?? response.headers.get('location');
    if (response.status === 202 && options.pollStatusOnAccepted && location) {
      await discard(response);
      return this.poll(this.url(location), options);
    }
    const follow =
      (response.status === 200 && options.followRedirectOnOk) ||
      (response.status === 201 && options.followRedirectOnCreated);
    if (follow && location) {
      await discard(response);
      return this.sendAuthorized('GET', this.url(location), { signal: options.signal });
    }
    return response;
  }

  private async poll(statusUrl: string, options: RequestOptions): Promise<Response> {
    const period = options.pollStatusPeriod ?? DEFAULT_POLL_STATUS_PERIOD;
    for (;;) {
      await sleep(period, options.signal);
      const response = await this.sendAuthorized('GET', statusUrl, { signal: options.signal });
      if (response.status !== 202) {
        return response;
      }
      await discard(response);
    }
  }

  private async decode<T>(response: Response): Promise<T> {
    if (response.status === 204 || response.status === 304) {
      return undefined as T;
    }
    const text = await response.text();
    let body: unknown = undefined;
    if (text !== '' && isJsonResponse(response)) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    } else if (text !== '') {
      body = text;
    }
    if (response.status >= 400) {
      throw new OperationOutcomeError(outcomeFromBody(response.status, body));
    }
    return body as T;
  }
}
