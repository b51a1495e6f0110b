// private_key_jwt client authentication (RFC 7523 §2.2): the client signs a short JWT with its own
// key; we verify it against the JWKS at its ClientApplication.jwksUri, with the token endpoint as
// audience and the client id as issuer and subject.
import type { ClientApplication } from '@medplum/fhirtypes';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { Database } from '../db';
import { systemRepo } from '../auth/auth-deps';
import { OAuthError } from './oauth-error';

export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

// jose caches and refreshes each remote key set; one per URL for the life of the process.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetFor(url: string): ReturnType<typeof createRemoteJWKSet> {
  let keySet = keySets.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000 });
    keySets.set(url, keySet);
  }
  return keySet;
}

/** The client the assertion authenticates, or invalid_client. */
export async function verifyClientAssertion(
  db: Database,
  assertion: string,
  tokenUrl: string,
  claimedClientId: string | undefined,
): Promise<ClientApplication> {
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
  try {
    await jwtVerify(assertion, keySetFor(client.jwksUri), {
      issuer: clientId,
      subject: clientId,
      audience: tokenUrl,
      maxTokenAge: '5 minutes',
      requiredClaims: ['exp'],
    });
  } catch {
    throw new OAuthError('invalid_client', 'Invalid client assertion');
  }
  return client;
}
