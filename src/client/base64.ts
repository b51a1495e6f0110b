// Base64 without Buffer (the client runs in browsers and Node): atob/btoa over UTF-8 bytes.
// SPEC §8 'Unable to decode base64' for anything that is not base64.

export const UNABLE_TO_DECODE_BASE64 = 'Unable to decode base64';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of standard base64 (whitespace ignored, padding required). */
export function decodeBase64ToBytes(data: string): Uint8Array {
  const compact = data.replace(/\s+/g, '');
  if (typeof atob !== 'function' || !BASE64.test(compact)) {
    throw new Error(UNABLE_TO_DECODE_BASE64);
  }
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

/** The UTF-8 text that `data` encodes. */
export function decodeBase64(data: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64ToBytes(data));
  } catch {
    throw new Error(UNABLE_TO_DECODE_BASE64);
  }
}

export function encodeBase64(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let binary = '';
  // Chunks keep String.fromCharCode's argument list short on large inputs.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
