// The retry policy's decisions (SPEC §4, §9), without any request.
import {
  MAX_RETRY_AFTER,
  isRetrySafe,
  newIdempotencyKey,
  parseRetryAfter,
  retryDelayForNetworkError,
  retryDelayForStatus,
} from '../../src/client/retry-policy';

const NOW = Date.UTC(2026, 0, 1);

describe('retry policy', () => {
  test('retry-safe: GET, PUT, DELETE; POST only with a key; PATCH never', () => {
    expect(isRetrySafe('GET', undefined)).toBe(true);
    expect(isRetrySafe('PUT', undefined)).toBe(true);
    expect(isRetrySafe('DELETE', undefined)).toBe(true);
    expect(isRetrySafe('POST', undefined)).toBe(false);
    expect(isRetrySafe('POST', 'k')).toBe(true);
    expect(isRetrySafe('PATCH', 'k')).toBe(false);
  });

  test('Retry-After: seconds, HTTP date, junk', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(new Date(NOW + 10_000).toUTCString(), NOW)).toBe(10_000);
    expect(parseRetryAfter(new Date(NOW - 10_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
  });

  test('status decisions: ≥500 200 ms while attempts remain; 429 Retry-After (or backoff) up to a minute; others final', () => {
    expect(retryDelayForStatus(500, null, 0, true, NOW)).toBe(200);
    expect(retryDelayForStatus(503, null, 1, true, NOW)).toBe(200);
    expect(retryDelayForStatus(500, null, 2, true, NOW)).toBeUndefined();
    expect(retryDelayForStatus(500, null, 0, false, NOW)).toBeUndefined();
    expect(retryDelayForStatus(429, '1', 0, false, NOW)).toBe(1000);
    expect(retryDelayForStatus(429, null, 1, false, NOW)).toBe(400);
    expect(retryDelayForStatus(429, String(MAX_RETRY_AFTER / 1000 + 1), 0, true, NOW)).toBeUndefined();
    expect(retryDelayForStatus(404, null, 0, true, NOW)).toBeUndefined();
    expect(retryDelayForStatus(200, null, 0, true, NOW)).toBeUndefined();
  });

  test('network errors: 200, 400 ms backoff for retry-safe requests only', () => {
    expect(retryDelayForNetworkError(0, true)).toBe(200);
    expect(retryDelayForNetworkError(1, true)).toBe(400);
    expect(retryDelayForNetworkError(2, true)).toBeUndefined();
    expect(retryDelayForNetworkError(0, false)).toBeUndefined();
  });

  test('idempotency keys are fresh and printable', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) {
      expect(key).toMatch(/^[\x21-\x7e]{16,255}$/);
    }
  });
});
