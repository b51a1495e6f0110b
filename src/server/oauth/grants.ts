// The grants of POST oauth2/token (SPEC §7): authorization_code with PKCE, refresh_token with
// rotation and reuse detection, client_credentials. Each change to a Login is a compare-and-set on
// its version, so two requests racing with one code or one refresh token cannot both succeed.
import crypto from 'node:crypto';
import type { ClientApplication, Login, ProjectMembership } from '@medplum/fhirtypes';
import type { FastifyRequest } from 'fastify';
import { OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { clientMembership, secretsEqual } from '../auth/authenticate';
import { loginPredatesCredentials } from '../auth/login-validity';
import { randomSecret } from '../auth/logins';
import { findLoginByCode, findMembershipsByUser, findUserByEmail } from '../repo/lookups';
import { verifySignedByClient } from './client-assertion';
import { authenticateClient, readClientCredentials } from './client-auth';
import { issueGrantedLogin } from './granted-login';
import { OAuthError } from './oauth-error';
import type { RefreshTokenClaims, TokenResponse } from './tokens';
import { issueTokens } from './tokens';

/** An authorization code must be exchanged within this time of being issued. */
export const CODE_LIFETIME_MS = 10 * 60_000;

type Form = Record<string, string>;

function tokenUrl(deps: ServerServices): string {
  return `${deps.config.baseUrl}oauth2/token`;
}

function required(form: Form, name: string): string {
  const value = form[name];
  if (!value) {
    throw new OAuthError('invalid_request', `Missing ${name}`);
  }
  if (value.length > 4096) {
    throw new OAuthError('invalid_request', `${name} is too long`);
  }
  return value;
}

async function readClient(deps: ServerServices, login: Login): Promise<ClientApplication | undefined> {
  const id = login.client?.reference?.split('/')[1];
  if (!id) {
    return undefined;
  }
  return systemRepo(deps.db)
    .readResource<ClientApplication>('ClientApplication', id)
    .catch(() => {
      throw new OAuthError('invalid_client', 'Unknown client');
    });
}

async function readMembership(deps: ServerServices, login: Login): Promise<ProjectMembership> {
  const id = login.membership?.reference?.split('/')[1];
  const membership = id
    ? await systemRepo(deps.db)
        .readResource<ProjectMembership>('ProjectMembership', id)
        .catch(() => undefined)
    : undefined;
  if (!membership || membership.active === false) {
    throw new OAuthError('invalid_grant', 'The sign-in has no active membership');
  }
  return membership;
}

/** Writes the next version of a Login only if nobody else wrote it since it was read. */
async function compareAndSet(deps: ServerServices, login: Login, conflictMessage: string): Promise<Login> {
  try {
    const { resource } = await systemRepo(deps.db).updateResource(login, { ifMatch: login.meta?.versionId });
    return resource;
  } catch (err) {
    if (err instanceof OperationOutcomeError && err.outcome.id === 'precondition-failed') {
      throw new OAuthError('invalid_grant', conflictMessage);
    }
    throw err;
  }
}

export async function revokeLogin(deps: ServerServices, loginId: string): Promise<void> {
  const repo = systemRepo(deps.db);
  await repo.withTransaction(async (txRepo) => {
    const login = await txRepo.readResource<Login>('Login', loginId);
    if (!login.revoked) {
      await txRepo.updateResource<Login>({ ...login, revoked: true });
    }
  });
}

function s256(verifier: string): string {
  return crypto.createHash('sha256').update(verifier).digest('base64url');
}

export async function authorizationCodeGrant(
  deps: ServerServices,
  request: FastifyRequest,
  form: Form,
): Promise<TokenResponse> {
  const code = required(form, 'code');
  const credentials = readClientCredentials(request, form);
  const login = await findLoginByCode(deps.db, code);
  if (!login) {
    throw new OAuthError('invalid_grant', 'Invalid authorization code');
  }
  if (login.granted) {
    // A code presented twice may have been stolen: everything issued from it is revoked (RFC 6749 §4.1.2).
    await revokeLogin(deps, login.id as string);
    throw new OAuthError('invalid_grant', 'Authorization code already used');
  }
  if (login.revoked || (await loginPredatesCredentials(deps.db, login))) {
    throw new OAuthError('invalid_grant', 'Authorization code revoked');
  }
  if (Date.now() - Date.parse(login.meta?.lastUpdated ?? login.authTime) > CODE_LIFETIME_MS) {
    throw new OAuthError('invalid_grant', 'Authorization code expired');
  }
  const client = await readClient(deps, login);
  if (client && credentials.clientId && credentials.clientId !== client.id) {
    throw new OAuthError('invalid_grant', 'Authorization code was issued to another client');
  }
  if (client && form.redirect_uri) {
    // The code can only be redeemed for an address registered for its client (RFC 6749 §4.1.3).
    const registered = [...(client.redirectUris ?? []), ...(client.redirectUri ? [client.redirectUri] : [])];
    if (!registered.includes(form.redirect_uri)) {
      throw new OAuthError('invalid_grant', 'redirect_uri is not registered for this client');
    }
  }
  const clientAuthenticated =
    !!client && ((!!client.secret && !!credentials.clientSecret) || !!credentials.assertion);
  if (clientAuthenticated) {
    const authenticated = await authenticateClient(deps.db, credentials, tokenUrl(deps));
    if (authenticated.id !== client.id) {
      throw new OAuthError('invalid_grant', 'Authorization code was issued to another client');
    }
  }
  if (login.codeChallenge) {
    const verifier = form.code_verifier;
    if (!verifier) {
      throw new OAuthError('invalid_request', 'Missing code_verifier');
    }
    if (login.codeChallengeMethod !== 'S256' || !secretsEqual(s256(verifier), login.codeChallenge)) {
      throw new OAuthError('invalid_grant', 'Invalid code_verifier');
    }
  } else if (!clientAuthenticated) {
    // Without PKCE only a confidential client that proves its secret may exchange a code.
    throw new OAuthError(
      'invalid_request',
      'Missing code_verifier: PKCE (S256) is required for public clients',
    );
  }
  const membership = await readMembership(deps, login);
  const refreshSecret = randomSecret();
  const granted = await compareAndSet(
    deps,
    { ...login, granted: true, refreshSecret, refreshSecretRotatedAt: new Date().toISOString() },
    'Authorization code already used',
  );
  return issueTokens(deps, granted, membership, refreshSecret);
}

export async function refreshTokenGrant(
  deps: ServerServices,
  request: FastifyRequest,
  form: Form,
): Promise<TokenResponse> {
  const token = required(form, 'refresh_token');
  let claims: Partial<RefreshTokenClaims>;
  try {
    claims = (await deps.keys.verify(token)).payload as Partial<RefreshTokenClaims>;
  } catch {
    throw new OAuthError('invalid_grant', 'Invalid refresh token');
  }
  if (typeof claims.login_id !== 'string' || typeof claims.refresh_secret !== 'string') {
    throw new OAuthError('invalid_grant', 'Invalid refresh token');
  }
  const login = await systemRepo(deps.db)
    .readResource<Login>('Login', claims.login_id)
    .catch(() => undefined);
  if (!login?.granted || login.revoked || (await loginPredatesCredentials(deps.db, login))) {
    throw new OAuthError('invalid_grant', 'Refresh token revoked');
  }
  const client = await readClient(deps, login);
  if (client?.secret || client?.jwksUri) {
    // A confidential client's refresh token is useless without the client's credentials.
    const authenticated = await authenticateClient(
      deps.db,
      readClientCredentials(request, form),
      tokenUrl(deps),
    );
    if (authenticated.id !== client.id) {
      throw new OAuthError('invalid_grant', 'Refresh token was issued to another client');
    }
  }
  if (!login.refreshSecret || !secretsEqual(claims.refresh_secret, login.refreshSecret)) {
    // A validly signed token whose secret was rotated away: replayed, perhaps stolen. Revoke it all.
    await revokeLogin(deps, login.id as string);
    throw new OAuthError('invalid_grant', 'Refresh token already used; the sign-in has been revoked');
  }
  const membership = await readMembership(deps, login);
  const refreshSecret = randomSecret();
  const rotated = await compareAndSet(
    deps,
    {
      ...login,
      refreshSecret,
      previousRefreshSecret: login.refreshSecret,
      refreshSecretRotatedAt: new Date().toISOString(),
    },
    'Refresh token already used',
  );
  return issueTokens(deps, rotated, membership, refreshSecret);
}

export async function clientCredentialsGrant(
  deps: ServerServices,
  request: FastifyRequest,
  form: Form,
): Promise<TokenResponse> {
  const client = await authenticateClient(deps.db, readClientCredentials(request, form), tokenUrl(deps));
  const membership = await clientMembership(deps.db, client.id as string);
  if (!membership) {
    throw new OAuthError('invalid_client', 'The client belongs to no project');
  }
  return issueGrantedLogin(deps, request, {
    principal: `ClientApplication/${client.id}`,
    clientId: client.id as string,
    authMethod: 'client',
    membership,
    scope: form.scope,
  });
}

/**
 * JWT bearer authorization grant (RFC 7523 §2.1): a client signs an assertion whose subject is the
 * email of a user of its project (or the client itself); the tokens act as that user's membership
 * in the client's project. No refresh token: the client signs a new assertion instead.
 */
export async function jwtBearerGrant(
  deps: ServerServices,
  request: FastifyRequest,
  form: Form,
): Promise<TokenResponse> {
  const assertion = required(form, 'assertion');
  const { client, subject } = await verifySignedByClient(
    deps.db,
    assertion,
    tokenUrl(deps),
    form.client_id || undefined,
    false,
  );
  const clientMember = await clientMembership(deps.db, client.id as string);
  if (!clientMember) {
    throw new OAuthError('invalid_client', 'The client belongs to no project');
  }
  let principal = `ClientApplication/${client.id}`;
  let membership = clientMember;
  if (subject !== client.id) {
    const user = await findUserByEmail(deps.db, subject);
    const member = user
      ? (await findMembershipsByUser(deps.db, `User/${user.id}`)).find(
          (m) => m.project?.reference === clientMember.project?.reference,
        )
      : undefined;
    if (!user || !member) {
      throw new OAuthError('invalid_grant', "The assertion's subject is not a user of the client's project");
    }
    principal = `User/${user.id}`;
    membership = member;
  }
  return issueGrantedLogin(deps, request, {
    principal,
    clientId: client.id as string,
    authMethod: 'client',
    membership,
    scope: form.scope,
  });
}
