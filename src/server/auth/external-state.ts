// The state of an external sign-in: the app's login request (domain, clientId, projectId,
// its PKCE challenge, where to send the browser back) travels to the identity provider and back
// as a JWT signed by this server, so the callback knows it is ours and unchanged. The provider's
// own PKCE verifier never travels: it is derived from the state's nonce with a server secret.
import crypto from 'node:crypto';
import { errors as joseErrors } from 'jose';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { findActiveJsonWebKeys } from '../repo/lookups';
import type { ServerServices } from '../services';

/** The login request of SPEC §4 "the browser is sent there with a state carrying a code challenge and domain". */
export interface ExternalLoginRequest {
  domain?: string;
  clientId?: string;
  projectId?: string;
  scope?: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256';
  /** The app's address that receives `?code=` (or `?error=`) at the end. */
  redirectUri: string;
}

export interface ExternalState extends ExternalLoginRequest {
  nonce: string;
}

const STATE_PURPOSE = 'bloom-external-login';
/** Time allowed at the identity provider (typing a password, consenting) before the state expires. */
export const EXTERNAL_STATE_LIFETIME_SECONDS = 15 * 60;

function invalidState(message = 'Invalid state'): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(message, 'state'));
}

export function externalCallbackUrl(deps: ServerServices): string {
  return `${deps.config.baseUrl}auth/external`;
}

/** The signed state for the provider, and its nonce (from which the provider's PKCE verifier derives). */
export async function signExternalState(
  deps: ServerServices,
  request: ExternalLoginRequest,
): Promise<{ token: string; nonce: string }> {
  const state: ExternalState = { ...request, nonce: crypto.randomBytes(16).toString('base64url') };
  const token = await deps.keys.sign(
    { ...state, purpose: STATE_PURPOSE, aud: externalCallbackUrl(deps) },
    EXTERNAL_STATE_LIFETIME_SECONDS,
  );
  return { token, nonce: state.nonce };
}

function optionalClaim(payload: Record<string, unknown>, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' && value ? value : undefined;
}

/** The state back from the provider: our signature, not expired, meant for this callback. */
export async function verifyExternalState(
  deps: ServerServices,
  token: string | undefined,
): Promise<ExternalState> {
  if (!token) {
    throw invalidState('Missing state');
  }
  let payload: Record<string, unknown>;
  try {
    payload = (await deps.keys.verify(token)).payload;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) {
      throw invalidState('The external sign-in took too long: its state expired');
    }
    throw invalidState();
  }
  const codeChallenge = optionalClaim(payload, 'codeChallenge');
  const redirectUri = optionalClaim(payload, 'redirectUri');
  const nonce = optionalClaim(payload, 'nonce');
  if (
    payload.purpose !== STATE_PURPOSE ||
    payload.aud !== externalCallbackUrl(deps) ||
    !codeChallenge ||
    payload.codeChallengeMethod !== 'S256' ||
    !redirectUri ||
    !nonce
  ) {
    throw invalidState();
  }
  return {
    domain: optionalClaim(payload, 'domain'),
    clientId: optionalClaim(payload, 'clientId'),
    projectId: optionalClaim(payload, 'projectId'),
    scope: optionalClaim(payload, 'scope'),
    codeChallenge,
    codeChallengeMethod: 'S256',
    redirectUri,
    nonce,
  };
}

/**
 * The PKCE verifier this server uses with the identity provider for one state: HMAC of the state's
 * nonce under a key derived (HKDF) from the server's private signing key, so every instance on the
 * database derives the same one and nobody who only sees the browser's URLs can.
 */
export async function providerCodeVerifier(deps: ServerServices, nonce: string): Promise<string> {
  await deps.keys.publicKeys(); // creates the signing key on first use
  const [key] = await findActiveJsonWebKeys(deps.db);
  if (!key?.d) {
    throw new Error('The server signing key has no private part');
  }
  const secret = Buffer.from(
    crypto.hkdfSync('sha256', Buffer.from(key.d, 'base64url'), 'bloom', 'external-idp-pkce', 32),
  );
  return crypto.createHmac('sha256', secret).update(nonce).digest('base64url');
}

export function s256Challenge(verifier: string): string {
  return crypto.createHash('sha256').update(verifier).digest('base64url');
}
