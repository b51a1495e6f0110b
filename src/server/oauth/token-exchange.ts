// Token exchange (RFC 8693, SPEC §6): a client whose ClientApplication names an external identity
// provider trades that provider's access token for ours. We read the provider's userinfo with the
// token, then sign in the user it names (by email, or by subject when useSubject) in the client's
// project.
import type { ClientApplication, ProjectMembership, User } from '@medplum/fhirtypes';
import type { FastifyRequest } from 'fastify';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { findMembershipsByUser, findUserByEmail, findUserByExternalId } from '../repo/lookups';
import { issueGrantedLogin } from './granted-login';
import { OAuthError } from './oauth-error';
import type { TokenResponse } from './tokens';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

interface UserInfo {
  sub?: unknown;
  email?: unknown;
}

async function fetchUserInfo(url: string, token: string): Promise<UserInfo> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new OAuthError('invalid_grant', 'The identity provider could not be reached');
  }
  if (!response.ok) {
    throw new OAuthError('invalid_grant', 'The identity provider refused the subject token');
  }
  try {
    return (await response.json()) as UserInfo;
  } catch {
    throw new OAuthError('invalid_grant', 'The identity provider answered with no user information');
  }
}

export async function tokenExchangeGrant(
  deps: ServerServices,
  request: FastifyRequest,
  form: Record<string, string>,
): Promise<TokenResponse> {
  const clientId = form.client_id;
  const subjectToken = form.subject_token;
  if (!clientId || !subjectToken) {
    throw new OAuthError('invalid_request', clientId ? 'Missing subject_token' : 'Missing client_id');
  }
  if (form.subject_token_type !== ACCESS_TOKEN_TYPE) {
    throw new OAuthError('invalid_request', `subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
  }
  const client = await systemRepo(deps.db)
    .readResource<ClientApplication>('ClientApplication', clientId)
    .catch(() => undefined);
  const provider = client?.identityProvider;
  if (!client || client.status === 'off' || !provider?.userInfoUrl) {
    throw new OAuthError('invalid_client', 'The client has no external identity provider');
  }
  const info = await fetchUserInfo(provider.userInfoUrl, subjectToken);
  let user: User | undefined;
  if (provider.useSubject) {
    user =
      typeof info.sub === 'string' && info.sub ? await findUserByExternalId(deps.db, info.sub) : undefined;
  } else {
    user =
      typeof info.email === 'string' && info.email ? await findUserByEmail(deps.db, info.email) : undefined;
  }
  const clientProject = (await findMembershipsByUser(deps.db, `ClientApplication/${client.id}`))[0]?.project;
  const membership: ProjectMembership | undefined = user
    ? (await findMembershipsByUser(deps.db, `User/${user.id}`)).find(
        (m) => !clientProject || m.project?.reference === clientProject.reference,
      )
    : undefined;
  if (!user || !membership) {
    throw new OAuthError('invalid_grant', 'No user of this project matches the subject token');
  }
  return issueGrantedLogin(deps, request, {
    principal: `User/${user.id}`,
    clientId: client.id as string,
    authMethod: 'exchange',
    membership,
    scope: form.scope,
  });
}
