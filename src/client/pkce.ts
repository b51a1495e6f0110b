// PKCE for the sign-in flows (SPEC §9): random strings from 28 random 32-bit numbers, and the S256
// code challenge (RFC 7636). Web Crypto only, so the same code runs in browsers and Node.

export type CodeChallengeMethod = 'S256';
export const CODE_CHALLENGE_METHOD: CodeChallengeMethod = 'S256';
const RANDOM_WORDS = 28;
/** RFC 7636 §4.1: a code verifier is 43 to 128 characters. */
const MAX_VERIFIER_LENGTH = 128;

export interface PkcePair {
  codeVerifier: string;
  codeChallenge: string;
  codeChallengeMethod: CodeChallengeMethod;
}

function webCrypto(crypto: Crypto | undefined): Crypto {
  if (!crypto?.subtle || typeof crypto.getRandomValues !== 'function') {
    throw new Error('Web Crypto not available in this environment');
  }
  return crypto;
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) {
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

/** 28 random 32-bit numbers as hex: 224 characters, 896 bits of entropy. */
export function getRandomString(crypto: Crypto | undefined = globalThis.crypto): string {
  const words = new Uint32Array(RANDOM_WORDS);
  webCrypto(crypto).getRandomValues(words);
  return toHex(new Uint8Array(words.buffer));
}

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** S256: base64url(SHA-256(ASCII(verifier))). */
export async function computeCodeChallenge(
  codeVerifier: string,
  crypto: Crypto | undefined = globalThis.crypto,
): Promise<string> {
  const digest = await webCrypto(crypto).subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64UrlEncode(new Uint8Array(digest));
}

export async function createPkcePair(crypto: Crypto | undefined = globalThis.crypto): Promise<PkcePair> {
  const codeVerifier = getRandomString(crypto).slice(0, MAX_VERIFIER_LENGTH);
  return {
    codeVerifier,
    codeChallenge: await computeCodeChallenge(codeVerifier, crypto),
    codeChallengeMethod: CODE_CHALLENGE_METHOD,
  };
}
