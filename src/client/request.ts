// The request pipeline, minimal for now (issue #5 grows it: cache, batch, retry, poll):
// build the URL → wait for a due refresh → send with the auth header → on 401 renew and retry
// once → decode, turning error responses into the OperationOutcomeError of src/fhir (SPEC §4, §8).
import type { OperationOutcome } from '@medplum/fhirtypes';
import { OperationOutcomeError, badRequest, isOperationOutcome, notFound } from '../fhir/outcomes';
import { resolveUrl } from './settings';
import type { FetchLike } from './settings';
import type { TokenManager } from './token-manager';

export const FHIR_JSON = 'application/fhir+json';
export const JSON_CONTENT_TYPE = 'application/json';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** A JSON value (sent as `contentType`, FHIR JSON by default) or a ready body (string, Blob, form). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** false: no refresh and no 401 handling (sign-out must not renew the session it ends). */
  authRenewal?: boolean;
}

export interface RequestPipelineOptions {
  baseUrl: string;
  fetch: FetchLike;
  tokens: TokenManager;
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

function isJsonResponse(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return type.includes('json');
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
    return notFound;
  }
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: status >= 500 ? 'exception' : 'processing',
        details: { text: `HTTP ${status}` },
      },
    ],
  };
}

export class RequestPipeline {
  private readonly baseUrl: string;
  private readonly fetch: FetchLike;
  private readonly tokens: TokenManager;

  constructor(options: RequestPipelineOptions) {
    this.baseUrl = options.baseUrl;
    this.fetch = options.fetch;
    this.tokens = options.tokens;
  }

  /** A path relative to the base URL ('auth/me'), or an absolute URL. */
  url(pathOrUrl: string): string {
    return resolveUrl(this.baseUrl, pathOrUrl);
  }

  async request<T>(method: HttpMethod, pathOrUrl: string, options: RequestOptions = {}): Promise<T> {
    const url = this.url(pathOrUrl);
    const renew = options.authRenewal !== false;
    if (renew) {
      await this.tokens.refreshIfExpiring();
    }
    let sent = await this.send(method, url, options);
    if (renew && sent.response.status === 401) {
      await this.tokens.handleUnauthorized(sent.authorization);
      sent = await this.send(method, url, options);
      if (sent.response.status === 401) {
        throw this.tokens.rejectAfterRetry();
      }
    }
    return this.decode<T>(sent.response);
  }

  private async send(
    method: HttpMethod,
    url: string,
    options: RequestOptions,
  ): Promise<{ response: Response; authorization: string | undefined }> {
    const headers: Record<string, string> = {
      Accept: `${FHIR_JSON}, ${JSON_CONTENT_TYPE}`,
      ...options.headers,
    };
    const authorization = this.tokens.getAuthorizationHeader();
    if (authorization) {
      headers.Authorization = authorization;
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
    const response = await this.fetch(url, { method, headers, body, signal: options.signal });
    return { response, authorization };
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
