// Grants that sign in without an interactive step (client credentials, JWT bearer, token exchange)
// all record one already-granted Login and issue tokens for it.
import type { Login, ProjectMembership } from '@medplum/fhirtypes';
import type { FastifyRequest } from 'fastify';
import { IP_BLOCKED_TEXT, signInAddressAllowed } from '../auth/authenticate';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { OAuthError } from './oauth-error';
import type { TokenResponse } from './tokens';
import { issueTokens } from './tokens';

const MAX_SCOPE_LENGTH = 1024;

export interface GrantedLoginRequest {
  /** Who signs in: 'User/…' or, for client credentials, 'ClientApplication/…'. */
  principal: string;
  clientId: string;
  authMethod: 'client' | 'exchange';
  membership: ProjectMembership;
  /** The form's scope; 'openid' when absent. */
  scope: string | undefined;
}

export async function issueGrantedLogin(
  deps: ServerServices,
  request: FastifyRequest,
  grant: GrantedLoginRequest,
): Promise<TokenResponse> {
  const scope = grant.scope || 'openid';
  if (scope.length > MAX_SCOPE_LENGTH) {
    throw new OAuthError('invalid_scope', 'scope is too long');
  }
  if (!(await signInAddressAllowed(deps.db, grant.membership, request.ip))) {
    throw new OAuthError('invalid_grant', IP_BLOCKED_TEXT);
  }
  const login = await systemRepo(deps.db).createResource<Login>({
    resourceType: 'Login',
    user: { reference: grant.principal },
    client: { reference: `ClientApplication/${grant.clientId}` },
    authMethod: grant.authMethod,
    authTime: new Date().toISOString(),
    membership: { reference: `ProjectMembership/${grant.membership.id}` },
    project: grant.membership.project,
    granted: true,
    scope,
    remoteAddress: request.ip,
  });
  return issueTokens(deps, login, grant.membership);
}
