// private_key_jwt client authentication (RFC 7523 §2.2): the client signs a short JWT with its own
// key; we verify it against the JWKS at its ClientApplication.jwksUri, with the token endpoint as
// audience and the client id as issuer and subject. Every assertion must carry a jti, usable once
// (src/server/oauth/used-assertions.ts), so a captured one cannot be replayed.
import type { ClientApplication } from '@medplum/fhirtypes';
import { decodeJwt, jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import type { Database } from '../db';
import { systemRepo } from '../services';
import { remoteKeySet } from '../auth/remote-jwks';
import { OAuthError } from './oauth-error';
import { recordAssertionUse } from './used-assertions';

export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** An assertion is accepted this long after it was issued, whatever its exp says. */
const MAX_ASSERTION_AGE_SECONDS = 5 * 60;
const MAX_JTI_LENGTH = 256;

/** The client the assertion authenticates, or invalid_client. */
export async function verifyClientAssertion(
  db: Database,
  assertion: string,
  tokenUrl: string,
  claimedClientId: string | undefined,
): Promise<ClientApplication> {
  return (await verifySignedByClient(db, assertion, tokenUrl, claimedClientId, true)).client;
}

/**
 * An assertion issued and signed by a client (iss = client id, checked against its JWKS, audience
 * the token endpoint). For client authentication the subject must be the client itself; for the
 * JWT bearer grant it names the user the client asks a token for.
 */
export async function verifySignedByClient(
  db: Database,
  assertion: string,
  tokenUrl: string,
  claimedClientId: string | undefined,
  subjectIsClient: boolean,
): Promise<{ client: ClientApplication; subject: string }> {
  let clientId: string | undefined;
  try {
    clientId = decodeJwt(assertion).iss;
  } catch {
    throw new OAuthError('invalid_client', 'Malformed client assertion');
  }
  if (!clientId || (claimedClientId && claimedClientId !== clientId)) {
    throw new OAuthError('invalid_client', 'Invalid client assertion');
  }
  const client = await systemRepo(db)
    .readResource<ClientApplication>('ClientApplication', clientId)
    .catch(() => undefined);
  if (!client?.jwksUri || client.status === 'off') {
    throw new OAuthError('invalid_client', 'Invalid client assertion');
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, remoteKeySet(client.jwksUri), {
      issuer: clientId,
      subject: subjectIsClient ? clientId : undefined,
      audience: tokenUrl,
      maxTokenAge: MAX_ASSERTION_AGE_SECONDS,
      requiredClaims: ['exp', 'sub'],
    }));
  } catch {
    throw new OAuthError('invalid_client', 'Invalid client assertion');
  }
  // RFC 7523 §3.1: a bad client authentication is invalid_client, a bad authorization grant invalid_grant.
  const refusal = subjectIsClient ? 'invalid_client' : 'invalid_grant';
  const { jti } = payload;
  if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) {
    throw new OAuthError(refusal, `The assertion must carry a jti of 1 to ${MAX_JTI_LENGTH} characters`);
  }
  if (!(await recordAssertionUse(db, clientId, jti, acceptedUntil(payload)))) {
    throw new OAuthError(refusal, 'The assertion was already used (jti replayed)');
  }
  return { client, subject: payload.sub as string };
}

/** The last moment the assertion could be accepted: its exp, or its age limit when that comes first. */
function acceptedUntil(payload: JWTPayload): Date {
  const exp = payload.exp as number;
  const byAge = typeof payload.iat === 'number' ? payload.iat + MAX_ASSERTION_AGE_SECONDS : exp;
  // A minute beyond, for the clock tolerance of whoever checks the expiry.
  return new Date((Math.min(exp, byAge) + 60) * 1000);
}
