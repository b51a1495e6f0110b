// Password hashing (Node's scrypt, salted, parameters in the stored string, constant-time compare)
// and the password rules: 8 to 72 bytes, and none of the most common passwords.
import crypto from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_BYTES = 8;
export const MAX_PASSWORD_BYTES = 72;

// OWASP's scrypt minimum (N=2^17 is slower than a sign-in should be on a laptop; 2^15 is a fair middle).
const SCRYPT_N = 1 << 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: 256 * n * r },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** 'scrypt$N$r$p$salt$hash' (base64url): every parameter travels with the hash, so they can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P);
  return ['scrypt', SCRYPT_N, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    return false;
  }
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every((value) => Number.isSafeInteger(value) && value > 0)) {
    return false;
  }
  const expected = Buffer.from(parts[5], 'base64url');
  const actual = await scrypt(password, Buffer.from(parts[4], 'base64url'), n, r, p);
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

/**
 * A hash of a random password, verified against when the email is unknown, so that an unknown
 * email takes as long as a wrong password and timing does not tell which emails exist.
 */
let decoyHash: Promise<string> | undefined;
export function getDecoyHash(): Promise<string> {
  decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  return decoyHash;
}

let commonPasswords: Set<string> | undefined;

/** The common-passwords dictionary of @zxcvbn-ts/language-common (MIT), lower-cased. */
export function getCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  return commonPasswords;
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function checkNewPassword(password: string): string | undefined {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes < MIN_PASSWORD_BYTES) {
    return `Password must be at least ${MIN_PASSWORD_BYTES} characters`;
  }
  if (bytes > MAX_PASSWORD_BYTES) {
    return `Password must be at most ${MAX_PASSWORD_BYTES} bytes`;
  }
  if (getCommonPasswords().has(password.toLowerCase())) {
    return 'Password is too common: choose one that is harder to guess';
  }
  return undefined;
}
