// A fake Bloom API for the screens' tests: answers by "METHOD path" (path relative to the base URL), one
// queued answer per call or a standing one, and records every request so tests check what was sent.
import { webcrypto } from 'node:crypto';
import { TextEncoder } from 'node:util';
import type { OperationOutcome, Patient } from '@medplum/fhirtypes';
import { recordSentDocument } from './sentDocuments';

/** The API origin the app's tests talk to (renderApp's config and the fake API's answers). */
export const testBaseUrl = 'http://api.test:8103/';

/** A minimal fetch Response for the calls the app makes (jsdom has no fetch of its own). */
export function fakeResponse(status: number, body: unknown, statusText = ''): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    headers: new Headers({ 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }),
    json: async () => JSON.parse(text),
    text: async () => text,
  } as Response;
}

export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly headers: Headers;
}

type Answer = { status: number; body: unknown } | Error;

export class FakeApi {
  readonly sent: SentRequest[] = [];
  private readonly queued = new Map<string, Answer[]>();
  private readonly standing = new Map<string, Answer>();

  /** The next call of `route` gets this answer. */
  once(route: string, status: number, body: unknown): this {
    const list = this.queued.get(route) ?? [];
    list.push({ status, body });
    this.queued.set(route, list);
    return this;
  }

  /** Every call of `route` gets this answer (after the queued ones). */
  always(route: string, status: number, body: unknown): this {
    this.standing.set(route, { status, body });
    return this;
  }

  /** The next call of `route` fails as a network error. */
  unreachable(route: string): this {
    const list = this.queued.get(route) ?? [];
    list.push(new TypeError('Failed to fetch'));
    this.queued.set(route, list);
    return this;
  }

  bodiesOf(route: string): unknown[] {
    return this.sent.filter((r) => `${r.method} ${r.path}` === route).map((r) => r.body);
  }

  readonly fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const method = init.method ?? 'GET';
    const path = input.startsWith(testBaseUrl) ? input.slice(testBaseUrl.length) : input;
    const raw = init.body === undefined || init.body === null ? undefined : String(init.body);
    const headers = new Headers(init.headers);
    const isForm = headers.get('Content-Type')?.startsWith('application/x-www-form-urlencoded');
    const body =
      raw === undefined ? undefined : isForm ? Object.fromEntries(new URLSearchParams(raw)) : parseBody(raw);
    this.sent.push({ method, path, body, headers });
    const query = (body as { query?: unknown } | undefined)?.query;
    if (path.endsWith('$graphql') && typeof query === 'string') recordSentDocument(query);
    const route = `${method} ${path}`;
    const answer = this.queued.get(route)?.shift() ?? this.standing.get(route);
    if (!answer) return fakeResponse(404, outcome(`No fake answer for ${route}`));
    if (answer instanceof Error) throw answer;
    return fakeResponse(answer.status, answer.body);
  };
}

/** JSON bodies parsed; text bodies (key-value values, SPEC §7) as sent. */
function parseBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function outcome(text: string, expression?: string[]): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'invalid', details: { text }, ...(expression ? { expression } : {}) }],
  };
}

function base64Url(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An unsigned JWT with the claims the client reads (the client does not verify signatures). */
export function fakeAccessToken(profile: string): string {
  const now = Math.floor(Date.now() / 1000);
  return `${base64Url({ alg: 'none', typ: 'JWT' })}.${base64Url({
    sub: 'user-1',
    login_id: 'login-1',
    profile,
    scope: 'openid',
    iat: now,
    exp: now + 3600,
  })}.sig`;
}

export const maria: Patient = {
  resourceType: 'Patient',
  id: 'maria-1',
  name: [{ given: ['Maria'], family: 'Garcia' }],
};

/** A stored login of Maria, as an earlier page load leaves it in localStorage (SPEC §3 Stored login). */
export function storeMariaLogin(): void {
  const login = {
    accessToken: fakeAccessToken('Patient/maria-1'),
    refreshToken: 'refresh-1',
    profile: { reference: 'Patient/maria-1' },
    project: { reference: 'Project/clinic' },
  };
  localStorage.setItem('@bloom/activeLogin', JSON.stringify(login));
  localStorage.setItem('@bloom/logins', JSON.stringify([login]));
}

/** The token exchange and auth/me answers that end a sign-in as `profile`. */
export function signInAnswers(api: FakeApi, profile: Patient = maria): FakeApi {
  return api
    .once('POST oauth2/token', 200, {
      token_type: 'Bearer',
      access_token: fakeAccessToken(`Patient/${profile.id}`),
      refresh_token: 'refresh-1',
      expires_in: 3600,
      scope: 'openid',
      profile: { reference: `Patient/${profile.id}` },
      project: { reference: 'Project/clinic' },
    })
    .always('GET auth/me', 200, {
      profile,
      project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
      membership: {
        resourceType: 'ProjectMembership',
        id: 'm1',
        profile: { reference: `Patient/${profile.id}` },
      },
    });
}

/** Installs a fresh fake API as the global fetch, with an empty localStorage. */
export function installFakeApi(): FakeApi {
  // jsdom has no Web Crypto; the client's PKCE (SPEC §9) needs it, as a browser has it.
  if (!globalThis.crypto?.subtle) {
    Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  }
  if (typeof globalThis.TextEncoder === 'undefined') {
    Object.defineProperty(globalThis, 'TextEncoder', { value: TextEncoder, configurable: true });
  }
  const api = new FakeApi();
  globalThis.fetch = api.fetch as unknown as typeof fetch;
  localStorage.clear();
  return api;
}
