// Tokens for a granted Login: the access token (short-lived JWT with Medplum's claims), the
// refresh token (a JWT naming the login and its current refresh secret, rotated on every use) and,
// for `openid`, an ID token.
import type { Login, ProjectMembership, Reference } from '@medplum/fhirtypes';
import type { JWTPayload } from 'jose';
import type { ServerServices } from '../services';

/** The token response of SPEC §7 / identity.md. */
export interface TokenResponse {
  token_type: 'Bearer';
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  id_token?: string;
  scope: string;
  project?: Reference;
  profile?: Reference;
}

export interface AccessTokenClaims extends JWTPayload {
  login_id: string;
  sub: string;
  username: string;
  scope: string;
  profile?: string;
  client_id?: string;
  cid?: string;
}

export interface RefreshTokenClaims extends JWTPayload {
  login_id: string;
  refresh_secret: string;
}

function idOf(ref: Reference | undefined): string | undefined {
  return ref?.reference?.split('/')[1];
}

export async function issueTokens(
  deps: ServerServices,
  login: Login,
  membership: ProjectMembership,
  /** Present when the grant issues a refresh token: the login's current (new) refresh secret. */
  refreshSecret?: string,
): Promise<TokenResponse> {
  const { keys, config } = deps;
  const userId = idOf(login.user) as string;
  const clientId = idOf(login.client);
  const scope = login.scope ?? 'openid';
  const claims: AccessTokenClaims = {
    login_id: login.id as string,
    sub: userId,
    username: userId,
    scope,
    profile: membership.profile?.reference,
  };
  if (clientId) {
    claims.client_id = clientId;
    claims.cid = clientId;
  }
  const response: TokenResponse = {
    token_type: 'Bearer',
    access_token: await keys.sign(claims, config.accessTokenLifetime),
    expires_in: config.accessTokenLifetime,
    scope,
    project: membership.project,
    profile: membership.profile,
  };
  if (refreshSecret) {
    const refreshClaims: RefreshTokenClaims = { login_id: login.id as string, refresh_secret: refreshSecret };
    response.refresh_token = await keys.sign(refreshClaims, config.refreshTokenLifetime);
  }
  if (scope.split(' ').includes('openid')) {
    const idClaims: JWTPayload = {
      sub: userId,
      aud: clientId ?? 'bloom',
      login_id: login.id,
      fhirUser: membership.profile?.reference,
      auth_time: Math.floor(Date.parse(login.authTime) / 1000),
    };
    if (login.nonce) {
      idClaims.nonce = login.nonce;
    }
    response.id_token = await keys.sign(idClaims, config.accessTokenLifetime);
  }
  return response;
}
