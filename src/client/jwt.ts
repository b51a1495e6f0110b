// The client's token checks of SPEC §5: a token that looks like a JWT must not be expired and must be
// meant for this client. Decoding is shared with the server and the agent (src/fhir/jwt.ts); the
// client re-exports it as part of its public surface.
import { isJwt, parseJwtPayload } from '../fhir/jwt';

export { isJwt, parseJwtPayload, tokenExpiresAt } from '../fhir/jwt';
export type { JwtPayload } from '../fhir/jwt';

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
