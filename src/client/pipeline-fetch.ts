// fetch's arguments read as a pipeline request, so a library that takes a fetch (Apollo's HttpLink)
// sends through the pipeline: its method, URL, headers, body and signal, and the pipeline's own
// Authorization and Idempotency-Key in place of any the caller set.
import type { HttpMethod, RequestOptions } from './request';
import { IDEMPOTENCY_KEY_HEADER } from './retry-policy';

/** RequestInit, plus what fetch cannot say: that sending the request twice has the effect of once. */
export interface PipelineFetchInit extends RequestInit {
  /** A read sent as POST (a GraphQL query): retried on 5xx and network errors like a GET. */
  idempotent?: boolean;
}

export type PipelineFetch = (input: string | URL | Request, init?: PipelineFetchInit) => Promise<Response>;

const METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export interface FetchRequest {
  method: HttpMethod;
  url: string;
  options: RequestOptions;
}

function isResendable(body: BodyInit): boolean {
  // A stream is read once: a retry could not send it again.
  return !(typeof ReadableStream !== 'undefined' && body instanceof ReadableStream);
}

export async function fetchRequest(
  input: string | URL | Request,
  init: PipelineFetchInit = {},
): Promise<FetchRequest> {
  const request = typeof input === 'object' && 'url' in input && !(input instanceof URL) ? input : undefined;
  const url = request ? request.url : input.toString();
  const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) {
    throw new TypeError(`The request pipeline does not send ${method} requests`);
  }
  const headers = new Headers(request?.headers);
  new Headers(init.headers).forEach((value, name) => headers.set(name, value));
  const idempotencyKey = headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined;
  headers.delete(IDEMPOTENCY_KEY_HEADER);
  headers.delete('authorization');
  let body: BodyInit | undefined = init.body ?? undefined;
  if (body === undefined && request?.body) {
    body = await request.arrayBuffer();
  }
  if (body !== undefined && !isResendable(body)) {
    throw new TypeError('The request pipeline needs a body it can send again (not a stream)');
  }
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return {
    method: method as HttpMethod,
    url,
    options: {
      headers: record,
      body,
      signal: init.signal ?? request?.signal ?? undefined,
      idempotencyKey,
      idempotent: init.idempotent,
      ...(init.keepalive ? { keepalive: true } : {}),
    },
  };
}
