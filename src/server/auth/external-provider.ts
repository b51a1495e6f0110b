// The external identity provider of a sign-in (SPEC §3 IdentityProvider): found on the email
// domain's DomainConfiguration or on the signing-in ClientApplication, and the two calls made to
// it after the browser comes back: the code exchanged at tokenUrl, then userInfoUrl read with the
// provider's access token.
import type { ClientApplication, IdentityProvider } from '@medplum/fhirtypes';
import type { Database } from '../db';
import { findDomainConfiguration } from '../repo/lookups';
import { systemRepo } from '../services';

/** An IdentityProvider with every field a sign-in needs. */
export type CompleteIdentityProvider = IdentityProvider &
  Required<Pick<IdentityProvider, 'authorizeUrl' | 'tokenUrl' | 'userInfoUrl' | 'clientId'>>;

/** Why a call to the provider failed, in words for the person signing in. */
export class ExternalProviderError extends Error {}

const PROVIDER_TIMEOUT_MS = 10_000;

export async function readActiveClient(
  db: Database,
  clientId: string,
): Promise<ClientApplication | undefined> {
  const client = await systemRepo(db)
    .readResource<ClientApplication>('ClientApplication', clientId)
    .catch(() => undefined);
  return client && client.status !== 'off' ? client : undefined;
}

/**
 * The provider for an email domain and/or client, in the order auth/method answers: the domain's
 * DomainConfiguration first, then the client's own identityProvider.
 */
export async function findIdentityProvider(
  db: Database,
  domain: string | undefined,
  client: ClientApplication | undefined,
): Promise<IdentityProvider | undefined> {
  if (domain) {
    const config = await findDomainConfiguration(db, domain);
    if (config?.identityProvider?.authorizeUrl) {
      return config.identityProvider;
    }
  }
  return client?.identityProvider?.authorizeUrl ? client.identityProvider : undefined;
}

/** The first required field the provider lacks, if any (a misconfiguration, reported as such). */
export function missingProviderField(idp: IdentityProvider): string | undefined {
  const required = ['authorizeUrl', 'tokenUrl', 'userInfoUrl', 'clientId', 'clientSecret'] as const;
  return required.find((field) => !idp[field]);
}

async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

async function callProvider(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch {
    throw new ExternalProviderError('The identity provider could not be reached');
  }
}

function describeProviderError(body: Record<string, unknown> | undefined): string {
  const description = body?.error_description ?? body?.error;
  return typeof description === 'string' && description ? `: ${description.slice(0, 200)}` : '';
}

/**
 * The authorization code exchanged at the provider's tokenUrl (RFC 6749 §4.1.3), the client
 * authenticated with client_secret_basic unless the provider asks for client_secret_post.
 * Returns the provider's access token.
 */
export async function exchangeProviderCode(
  idp: CompleteIdentityProvider,
  code: string,
  redirectUri: string,
  codeVerifier: string | undefined,
): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  if (codeVerifier) {
    form.set('code_verifier', codeVerifier);
  }
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (idp.tokenAuthMethod === 'client_secret_post') {
    form.set('client_id', idp.clientId);
    form.set('client_secret', idp.clientSecret ?? '');
  } else {
    // RFC 6749 §2.3.1: both parts form-encoded before Basic encoding.
    const user = `${encodeURIComponent(idp.clientId)}:${encodeURIComponent(idp.clientSecret ?? '')}`;
    headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
  }
  const response = await callProvider(idp.tokenUrl, { method: 'POST', headers, body: form.toString() });
  const body = await readJson(response);
  if (!response.ok) {
    throw new ExternalProviderError(`The identity provider refused the code${describeProviderError(body)}`);
  }
  const accessToken = body?.access_token;
  if (typeof accessToken !== 'string' || !accessToken) {
    throw new ExternalProviderError('The identity provider sent no access token');
  }
  return accessToken;
}

/** The provider's userinfo (OpenID Connect Core §5.3) read with its access token. */
export async function fetchProviderUserInfo(
  idp: CompleteIdentityProvider,
  accessToken: string,
): Promise<Record<string, unknown>> {
  const response = await callProvider(idp.userInfoUrl, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  });
  const body = await readJson(response);
  if (!response.ok) {
    throw new ExternalProviderError(
      `The identity provider refused the user information request${describeProviderError(body)}`,
    );
  }
  if (!body) {
    throw new ExternalProviderError('The identity provider answered with no user information');
  }
  return body;
}
