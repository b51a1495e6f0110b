// Signed, expiring Binary URLs: an attachment shown in an <img> cannot send an
// Authorization header, so the URL itself carries the permission, as Medplum's presigned storage
// URLs do. The signature is a JWT from the server's shared key (any instance verifies it) naming
// the one Binary and expiring after BINARY_URL_LIFETIME; Expires repeats its exp for caches.
import type { SigningKeys } from '../auth/signing-key';

export const BINARY_URL_PURPOSE = 'binary-url';
export const STORAGE_PATH = 'storage/';

export async function signBinaryUrl(
  keys: SigningKeys,
  baseUrl: string,
  binaryId: string,
  lifetimeSeconds: number,
): Promise<string> {
  const signature = await keys.sign(
    { purpose: BINARY_URL_PURPOSE, sub: `Binary/${binaryId}` },
    lifetimeSeconds,
  );
  const expires = Math.floor(Date.now() / 1000) + lifetimeSeconds;
  return `${baseUrl}${STORAGE_PATH}${encodeURIComponent(binaryId)}?Expires=${expires}&Signature=${signature}`;
}

/** Whether `signature` grants reading Binary `binaryId` now (signature, purpose, subject, expiry). */
export async function verifyBinarySignature(
  keys: SigningKeys,
  binaryId: string,
  signature: string | undefined,
): Promise<boolean> {
  if (!signature) return false;
  try {
    const { payload } = await keys.verify(signature);
    return payload.purpose === BINARY_URL_PURPOSE && payload.sub === `Binary/${binaryId}`;
  } catch {
    return false;
  }
}
