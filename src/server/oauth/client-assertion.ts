// private_key_jwt client authentication (RFC 7523 §2.2): the client signs a short JWT with its own
// key; we verify it against the JWKS at its ClientApplication.jwksUri, with the token endpoint as
// audience and the client id as issuer and subject.
import type { ClientApplication } from '@medplum/fhirtypes';
import { decodeJwt, jwtVerify } from 'jose';
import type { Database } from '../db';
import { systemRepo } from '../auth/auth-deps';
import { remoteKeySet } from '../auth/remote-jwks';
import { OAuthError } from './oauth-error';

export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

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
  let subject: string | undefined;
  try {
    const { payload } = await jwtVerify(assertion, remoteKeySet(client.jwksUri), {
      issuer: clientId,
      subject: subjectIsClient ? clientId : undefined,
      audience: tokenUrl,
      maxTokenAge: '5 minutes',
      requiredClaims: ['exp', 'sub'],
    });
    subject = payload.sub;
  } catch {
    throw new OAuthError('invalid_client', 'Invalid client assertion');
  }
  return { client, subject: subject as string };
}
