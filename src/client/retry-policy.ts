// When a request is tried again (SPEC §4 "Status 500 or more is retried", SPEC §9 "Retries:
// 3 attempts, 200 ms apart") and when it must not be:
// - a write is never duplicated by a retry: a POST or PATCH is retried only when it carries an
//   Idempotency-Key the server honours; GET, PUT and DELETE are idempotent by HTTP's definition;
// - a 429 was refused before any work, so it is retried whatever the method, after Retry-After;
// - a network error backs off (200, 400 ms ...) instead of retrying at once.
import type { HttpMethod } from './request';

/** SPEC §9: three attempts in all. */
export const MAX_ATTEMPTS = 3;
/** SPEC §9: 200 ms between attempts after a status of 500 or more. */
export const RETRY_DELAY = 200;
/** A Retry-After longer than this is not waited for: the 429 goes back to the caller. */
export const MAX_RETRY_AFTER = 60_000;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** A fresh key per logical request; its retries reuse it. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') {
    return c.randomUUID();
  }
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);

/** True when sending the request twice has the effect of sending it once. */
export function isRetrySafe(method: HttpMethod, idempotencyKey: string | undefined): boolean {
  return IDEMPOTENT_METHODS.has(method) || (method === 'POST' && !!idempotencyKey);
}

/**
 * Retry-After (RFC 9110 §10.2.3) in ms from now: delay-seconds or an HTTP date. Undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') {
    return undefined;
  }
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    return Number(trimmed) * 1000;
  }
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function hasAttemptsLeft(attempt: number): boolean {
  return attempt + 1 < MAX_ATTEMPTS;
}

/** Exponential backoff for network failures: 200 ms after the first, 400 ms after the second... */
export function networkBackoff(attempt: number): number {
  return RETRY_DELAY * 2 ** attempt;
}

/**
 * How long to wait before trying again after attempt number `attempt` (0-based) was answered with
 * `status`; undefined when the answer is final. `keyInFlight`: an earlier attempt of this call,
 * sent with its Idempotency-Key, got no answer, so a 409 means the server is still running that
 * first request (it answers 409 'still being processed' to the same key meanwhile).
 */
export function retryDelayForStatus(
  status: number,
  retryAfter: string | null,
  attempt: number,
  retrySafe: boolean,
  now: number,
  keyInFlight = false,
): number | undefined {
  if (!hasAttemptsLeft(attempt)) {
    return undefined;
  }
  if (status === 409 && keyInFlight) {
    return networkBackoff(attempt);
  }
  if (status === 429) {
    const wait = parseRetryAfter(retryAfter, now) ?? networkBackoff(attempt);
    return wait <= MAX_RETRY_AFTER ? wait : undefined;
  }
  if (status >= 500 && retrySafe) {
    return RETRY_DELAY;
  }
  return undefined;
}

/** How long to wait after attempt `attempt` failed without an answer; undefined: give up. */
export function retryDelayForNetworkError(attempt: number, retrySafe: boolean): number | undefined {
  return retrySafe && hasAttemptsLeft(attempt) ? networkBackoff(attempt) : undefined;
}
