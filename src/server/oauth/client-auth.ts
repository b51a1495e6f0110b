// How a client identifies itself at the token endpoint: client_secret_basic (Authorization: Basic),
// client_secret_post (client_id and client_secret in the form), private_key_jwt (a signed client
// assertion), or a public client (client_id only).
import type { ClientApplication } from '@medplum/fhirtypes';
import type { FastifyRequest } from 'fastify';
import { findClientBySecret, parseBasicAuth } from '../auth/authenticate';
import type { Database } from '../db';
import { JWT_BEARER_ASSERTION_TYPE, verifyClientAssertion } from './client-assertion';
import { OAuthError } from './oauth-error';

export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
  /** A private_key_jwt client assertion. */
  assertion?: string;
}

export function readClientCredentials(
  request: FastifyRequest,
  form: Record<string, string>,
): ClientCredentials {
  const header = request.headers.authorization;
  if (header?.startsWith('Basic ')) {
    if (form.client_secret) {
      throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    }
    const basic = parseBasicAuth(header);
    if (!basic) {
      throw new OAuthError('invalid_client', 'Malformed Basic client credentials');
    }
    if (form.client_id && form.client_id !== basic.username) {
      throw new OAuthError('invalid_client', 'client_id does not match the Basic credentials');
    }
    return { clientId: decodeURIComponent(basic.username), clientSecret: decodeURIComponent(basic.password) };
  }
  if (form.client_assertion || form.client_assertion_type) {
    if (form.client_assertion_type !== JWT_BEARER_ASSERTION_TYPE || !form.client_assertion) {
      throw new OAuthError('invalid_request', `client_assertion_type must be ${JWT_BEARER_ASSERTION_TYPE}`);
    }
    if (form.client_secret) {
      throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    }
    return { clientId: form.client_id || undefined, assertion: form.client_assertion };
  }
  return { clientId: form.client_id || undefined, clientSecret: form.client_secret || undefined };
}

/** The authenticated confidential client, or invalid_client (401). */
export async function authenticateClient(
  db: Database,
  credentials: ClientCredentials,
  /** The token endpoint's URL: the audience a client assertion must name. */
  tokenUrl: string,
): Promise<ClientApplication> {
  if (credentials.assertion) {
    return verifyClientAssertion(db, credentials.assertion, tokenUrl, credentials.clientId);
  }
  if (!credentials.clientId || !credentials.clientSecret) {
    throw new OAuthError('invalid_client', 'Client authentication is required');
  }
  const client = await findClientBySecret(db, credentials.clientId, credentials.clientSecret);
  if (!client) {
    throw new OAuthError('invalid_client', 'Invalid client credentials');
  }
  return client;
}
