// A fake fetch for the client's unit tests: routes by method and URL, records every call.
import type { FetchLike } from '../../../src/client/settings';

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** fetch's keepalive flag, when the request set it. */
  keepalive?: boolean;
}

export type FakeHandler = (call: RecordedCall) => Response | Promise<Response>;

export interface FakeFetch {
  fetch: FetchLike;
  calls: RecordedCall[];
  /** Handles requests whose method matches and whose URL ends with `urlSuffix` (first match wins). */
  on(method: string, urlSuffix: string, handler: FakeHandler): FakeFetch;
  callsTo(method: string, urlSuffix: string): RecordedCall[];
}

export function jsonResponse(body: unknown, status = 200, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
}

export function fakeFetch(): FakeFetch {
  const routes: { method: string; urlSuffix: string; handler: FakeHandler }[] = [];
  const calls: RecordedCall[] = [];
  const matches = (call: RecordedCall, method: string, suffix: string): boolean =>
    call.method === method && call.url.split('?')[0].endsWith(suffix);
  const self: FakeFetch = {
    calls,
    on(method, urlSuffix, handler) {
      routes.push({ method, urlSuffix, handler });
      return self;
    },
    callsTo(method, urlSuffix) {
      return calls.filter((c) => matches(c, method, urlSuffix));
    },
    async fetch(input, init) {
      const call: RecordedCall = {
        url: input,
        method: init?.method ?? 'GET',
        headers: { ...((init?.headers as Record<string, string> | undefined) ?? {}) },
        body: typeof init?.body === 'string' ? init.body : undefined,
        ...(init?.keepalive ? { keepalive: true } : {}),
      };
      calls.push(call);
      const route = routes.find((r) => matches(call, r.method, r.urlSuffix));
      if (!route) {
        throw new Error(`fake fetch: no route for ${call.method} ${call.url}`);
      }
      return route.handler(call);
    },
  };
  return self;
}
