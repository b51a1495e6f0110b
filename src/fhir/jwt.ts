// Reading a JWT without verifying it: the client (token renewal, SPEC §5), the agent and the server's
// agent socket (when a verified token expires) all need the payload. Decode only: the server verifies
// signatures with jose where it matters.

export interface JwtPayload {
  exp?: number;
  iat?: number;
  iss?: string;
  sub?: string;
  cid?: string;
  client_id?: string;
  login_id?: string;
  profile?: string;
  scope?: string;
  [claim: string]: unknown;
}

/** Looks like a JWT: three dot-separated parts (SPEC §5). Opaque tokens pass unchecked. */
export function isJwt(token: string): boolean {
  return token.split('.').length === 3;
}

function base64UrlDecode(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The payload of a JWT, without verifying its signature. Throws 'Invalid JWT' when unreadable. */
export function parseJwtPayload(token: string): JwtPayload {
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw new Error('Invalid JWT');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(base64UrlDecode(parts[1]));
  } catch {
    throw new Error('Invalid JWT');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new Error('Invalid JWT');
  }
  return payload as JwtPayload;
}

/** When a JWT expires, in ms since the epoch; undefined for opaque tokens or tokens without exp. */
export function tokenExpiresAt(token: string): number | undefined {
  if (!isJwt(token)) {
    return undefined;
  }
  const { exp } = parseJwtPayload(token);
  return typeof exp === 'number' ? exp * 1000 : undefined;
}
