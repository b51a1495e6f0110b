// Media helpers: base64 (SPEC §8 'Unable to decode base64') and signed URL reuse (SPEC §9).
import { decodeBase64, decodeBase64ToBytes, encodeBase64 } from '../../src/client/base64';
import { SignedUrlCache } from '../../src/client/signed-urls';

describe('base64', () => {
  test('round trip of UTF-8 text and bytes', () => {
    expect(encodeBase64('Grüße, Bloom')).toBe(Buffer.from('Grüße, Bloom').toString('base64'));
    expect(decodeBase64(encodeBase64('Grüße, Bloom'))).toBe('Grüße, Bloom');
    expect([...decodeBase64ToBytes('AAEC/w==')]).toEqual([0, 1, 2, 255]);
    expect(decodeBase64('SGVs\nbG8=')).toBe('Hello');
    const big = new Uint8Array(100_000).map((_, i) => i % 256);
    expect(decodeBase64ToBytes(encodeBase64(big))).toEqual(big);
  });

  test.each(['not base64!', 'abc', 'ab=c', '=abc'])("SPEC §8: %p → 'Unable to decode base64'", (bad) => {
    expect(() => decodeBase64ToBytes(bad)).toThrow('Unable to decode base64');
  });

  test("bytes that are not UTF-8 text → 'Unable to decode base64' from decodeBase64", () => {
    expect(() => decodeBase64('/w==')).toThrow('Unable to decode base64');
  });
});

describe('SignedUrlCache (SPEC §9: reused while more than 5 s remain)', () => {
  const start = Date.UTC(2026, 0, 1);
  const url = (expiresInSeconds: number, signature: string): string =>
    `https://storage.test/binary/b1?Expires=${Math.floor(start / 1000) + expiresInSeconds}&Signature=${signature}`;

  test('a newer signed URL of the same resource is replaced by the one in use while > 5 s remain', () => {
    let now = start;
    const cache = new SignedUrlCache(() => now);
    expect(cache.get(url(10, 'a'))).toBe(url(10, 'a'));
    expect(cache.get(url(60, 'b'))).toBe(url(10, 'a'));
    now = start + 4_999; // 5.001 s left
    expect(cache.get(url(60, 'b'))).toBe(url(10, 'a'));
    now = start + 5_000; // exactly 5 s left: not more than 5 s
    expect(cache.get(url(60, 'b'))).toBe(url(60, 'b'));
    expect(cache.get(url(90, 'c'))).toBe(url(60, 'b'));
  });

  test('URLs without Expires, and other resources, pass through', () => {
    const cache = new SignedUrlCache(() => start);
    expect(cache.get('https://storage.test/binary/b1')).toBe('https://storage.test/binary/b1');
    cache.get(url(60, 'a'));
    const other = url(60, 'z').replace('b1', 'b2');
    expect(cache.get(other)).toBe(other);
    cache.clear();
    expect(cache.get(url(90, 'c'))).toBe(url(90, 'c'));
  });
});
