import { createHash, webcrypto } from 'node:crypto';
import {
  CODE_CHALLENGE_METHOD,
  base64UrlEncode,
  computeCodeChallenge,
  createPkcePair,
  getRandomString,
} from '../../src/client/pkce';

function sha256Base64Url(text: string): string {
  return createHash('sha256').update(text, 'ascii').digest('base64url');
}

describe('SPEC §9 PKCE', () => {
  test('random strings come from 28 random 32-bit numbers (224 hex characters)', () => {
    const calls: number[] = [];
    const crypto = {
      subtle: webcrypto.subtle,
      getRandomValues<T extends ArrayBufferView | null>(array: T): T {
        const words = array as unknown as Uint32Array;
        calls.push(words.length);
        expect(words).toBeInstanceOf(Uint32Array);
        words.fill(0xdeadbeef);
        return array;
      },
    } as unknown as Crypto;
    const value = getRandomString(crypto);
    expect(calls).toEqual([28]);
    expect(value).toHaveLength(224);
    expect(value).toBe('efbeadde'.repeat(28));
  });

  test('random strings differ and are hex only', () => {
    const a = getRandomString();
    const b = getRandomString();
    expect(a).toMatch(/^[0-9a-f]{224}$/);
    expect(a).not.toBe(b);
  });

  test('the code challenge method is S256', async () => {
    expect(CODE_CHALLENGE_METHOD).toBe('S256');
    expect((await createPkcePair()).codeChallengeMethod).toBe('S256');
  });

  test('verifier and challenge pair: challenge = base64url(SHA-256(verifier)), checked with node:crypto', async () => {
    const pair = await createPkcePair();
    expect(pair.codeVerifier).toMatch(/^[0-9a-f]{128}$/);
    expect(pair.codeChallenge).toBe(sha256Base64Url(pair.codeVerifier));
    expect(pair.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('RFC 7636 appendix B example', async () => {
    expect(await computeCodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  test('base64url has no padding and uses - and _', () => {
    expect(base64UrlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64UrlEncode(new Uint8Array([]))).toBe('');
  });

  test('without Web Crypto: a clear error', async () => {
    expect(() => getRandomString({} as Crypto)).toThrow('Web Crypto not available in this environment');
    await expect(computeCodeChallenge('x', {} as Crypto)).rejects.toThrow('Web Crypto not available');
  });
});
