// Client-side JWT reading and the checks of SPEC §5: decode only (the server verifies signatures);
// a token that looks like a JWT must not be expired and must be meant for this client.

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

export interface TokenCheckOptions {
  /** The client the token must have been issued to; no audience check without one. */
  clientId?: string;
  now?: number;
}

/** SPEC §5 client token rules: throws 'Token expired' or 'Token was not issued for this audience'. */
export function checkToken(token: string, { clientId, now = Date.now() }: TokenCheckOptions = {}): void {
  if (!isJwt(token)) {
    return;
  }
  const payload = parseJwtPayload(token);
  if (typeof payload.exp === 'number' && now >= payload.exp * 1000) {
    throw new Error('Token expired');
  }
  // Strict, as Medplum: with a clientId set, a token naming no audience is not ours either.
  const audience = payload.cid ?? payload.client_id;
  if (clientId && audience !== clientId) {
    throw new Error('Token was not issued for this audience');
  }
}
