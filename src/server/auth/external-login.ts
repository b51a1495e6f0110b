// Sign-in through an external identity provider.
//
//   app ──GET auth/external/authorize?state={login request}&redirect_uri──▶ here: checked, then
//   302 to the provider's authorizeUrl (client_id, redirect_uri = our auth/external, scope, signed
//   state, PKCE S256 when usePkce) ──▶ provider signs the person in ──▶ GET auth/external?code&state
//   here: state verified, code exchanged at tokenUrl, userInfoUrl read, our User found by email (or
//   by subject = User.externalId when useSubject), a Login made ──▶ 302 to the app's redirect URI
//   with ?login=…&code=… (the app finishes with processCode) or ?login=… when a step remains (MFA,
//   choose profile), or ?error=…&error_description=… when the sign-in failed.
//
// Until the state is known to be ours, errors are answered here (400 OperationOutcome): an address
// we cannot trust is never redirected to.
import type { ClientApplication, Login, User } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { findMembershipsByUser, findUserByEmail, findUserByExternalId } from '../repo/lookups';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { CompleteIdentityProvider } from './external-provider';
import {
  exchangeProviderCode,
  ExternalProviderError,
  fetchProviderUserInfo,
  findIdentityProvider,
  missingProviderField,
  readActiveClient,
} from './external-provider';
import type { ExternalLoginRequest, ExternalState } from './external-state';
import {
  externalCallbackUrl,
  providerCodeVerifier,
  s256Challenge,
  signExternalState,
  verifyExternalState,
} from './external-state';
import type { LoginResponse } from './logins';
import { buildLogin, nextLoginStep } from './logins';
import type { RequestInfo } from './registration';

export type Query = Record<string, string | undefined>;

/** What the provider is asked for: enough to match a user by email or subject. */
const PROVIDER_SCOPE = 'openid profile email';

function badRequestError(message: string, field?: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(message, field));
}

/** A failure after the state was verified: the browser goes back to the app with it. */
export class ExternalSignInError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

function registeredRedirectUris(client: ClientApplication): string[] {
  return [...(client.redirectUris ?? []), ...(client.redirectUri ? [client.redirectUri] : [])];
}

/**
 * The app's address must be one the client registered, or, without a client, an address of one of
 * the app origins this server serves (APP_ORIGINS): never anywhere else.
 */
function checkRedirectUri(
  deps: ServerServices,
  client: ClientApplication | undefined,
  redirectUri: string,
): void {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    throw badRequestError('redirect_uri must be an absolute URL', 'redirect_uri');
  }
  const allowed = client
    ? registeredRedirectUris(client).includes(redirectUri)
    : deps.config.appOrigins.includes(url.origin);
  if (!allowed) {
    throw badRequestError(
      client
        ? 'redirect_uri is not registered for this client'
        : 'redirect_uri is not an address of this app',
      'redirect_uri',
    );
  }
}

function stringField(json: Record<string, unknown>, name: string): string | undefined {
  const value = json[name];
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value !== 'string' || value.length > 2048) {
    throw badRequestError(`state.${name} must be a string`, 'state');
  }
  return value;
}

/** The app's login request: the JSON `state` of the authorize call, with the query's redirect_uri and client_id. */
export function readLoginRequest(query: Query): ExternalLoginRequest {
  if (!query.state) {
    throw badRequestError('Missing state', 'state');
  }
  let json: unknown;
  try {
    json = JSON.parse(query.state);
  } catch {
    throw badRequestError('state must be a JSON object', 'state');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw badRequestError('state must be a JSON object', 'state');
  }
  const state = json as Record<string, unknown>;
  const stateClientId = stringField(state, 'clientId');
  const queryClientId = query.client_id || undefined;
  if (stateClientId && queryClientId && stateClientId !== queryClientId) {
    throw badRequestError('client_id does not match the state', 'client_id');
  }
  const codeChallenge = stringField(state, 'codeChallenge') ?? query.code_challenge;
  const codeChallengeMethod = stringField(state, 'codeChallengeMethod') ?? query.code_challenge_method;
  // SPEC §5: external sign-in with PKCE needs a code challenge method and a code challenge.
  if (!codeChallenge) {
    throw badRequestError('External sign-in needs a codeChallenge', 'codeChallenge');
  }
  if (codeChallengeMethod !== 'S256') {
    throw badRequestError("codeChallengeMethod must be 'S256'", 'codeChallengeMethod');
  }
  const redirectUri = query.redirect_uri || stringField(state, 'redirectUri');
  if (!redirectUri) {
    throw badRequestError('Missing redirect_uri', 'redirect_uri');
  }
  return {
    domain: stringField(state, 'domain')?.toLowerCase(),
    clientId: stateClientId ?? queryClientId,
    projectId: stringField(state, 'projectId'),
    scope: stringField(state, 'scope'),
    codeChallenge,
    codeChallengeMethod: 'S256',
    redirectUri,
  };
}

interface ResolvedRequest {
  client: ClientApplication | undefined;
  idp: CompleteIdentityProvider;
  projectId: string | undefined;
}

/** The client, provider and project of a login request, each checked. */
async function resolveRequest(deps: ServerServices, request: ExternalLoginRequest): Promise<ResolvedRequest> {
  let client: ClientApplication | undefined;
  if (request.clientId) {
    client = await readActiveClient(deps.db, request.clientId);
    if (!client) {
      throw badRequestError('Client not found', 'clientId');
    }
  }
  checkRedirectUri(deps, client, request.redirectUri);
  const idp = await findIdentityProvider(deps.db, request.domain, client);
  if (!idp) {
    throw badRequestError('Identity provider not found', request.domain ? 'domain' : 'clientId');
  }
  const missing = missingProviderField(idp);
  if (missing) {
    throw badRequestError(`The identity provider configuration has no ${missing}`);
  }
  let projectId = request.projectId;
  const clientProject = client?.meta?.project;
  if (clientProject) {
    if (projectId && projectId !== 'new' && projectId !== clientProject) {
      throw badRequestError('Invalid project: the client belongs to another project', 'projectId');
    }
    projectId = clientProject;
  }
  return { client, idp: idp as CompleteIdentityProvider, projectId };
}

/** GET auth/external/authorize: the provider's authorize URL for the app's login request. */
export async function externalAuthorizeRedirect(deps: ServerServices, query: Query): Promise<string> {
  const request = readLoginRequest(query);
  const { idp, projectId } = await resolveRequest(deps, request);
  const { token, nonce } = await signExternalState(deps, { ...request, projectId });
  const url = new URL(idp.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', idp.clientId);
  url.searchParams.set('redirect_uri', externalCallbackUrl(deps));
  url.searchParams.set('scope', PROVIDER_SCOPE);
  url.searchParams.set('state', token);
  if (idp.usePkce) {
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('code_challenge', s256Challenge(await providerCodeVerifier(deps, nonce)));
  }
  return url.href;
}

/** Our User for the provider's account: by subject (User.externalId) when useSubject, else by verified email. */
async function matchUser(
  deps: ServerServices,
  idp: CompleteIdentityProvider,
  state: ExternalState,
  info: Record<string, unknown>,
): Promise<User> {
  if (idp.useSubject) {
    const sub = info.sub;
    if (typeof sub !== 'string' || !sub) {
      throw new ExternalSignInError('access_denied', 'The identity provider sent no subject');
    }
    const user = await findUserByExternalId(deps.db, sub);
    if (!user) {
      throw new ExternalSignInError('access_denied', 'User not found for this identity provider account');
    }
    return user;
  }
  const email = info.email;
  if (typeof email !== 'string' || !email) {
    throw new ExternalSignInError('access_denied', 'The identity provider sent no email address');
  }
  if (info.email_verified === false) {
    throw new ExternalSignInError(
      'access_denied',
      'The identity provider has not verified this email address',
    );
  }
  if (state.domain && !email.toLowerCase().endsWith(`@${state.domain}`)) {
    throw new ExternalSignInError('access_denied', 'Email address does not match domain');
  }
  const user = await findUserByEmail(deps.db, email);
  if (!user) {
    throw new ExternalSignInError('access_denied', 'User not found');
  }
  return user;
}

async function signInUser(
  deps: ServerServices,
  state: ExternalState,
  resolved: ResolvedRequest,
  user: User,
  info: RequestInfo,
): Promise<LoginResponse> {
  if (resolved.projectId && resolved.projectId !== 'new') {
    const memberships = await findMembershipsByUser(deps.db, `User/${user.id}`);
    if (!memberships.some((m) => m.project?.reference === `Project/${resolved.projectId}`)) {
      throw new ExternalSignInError('access_denied', 'User not found in this project');
    }
  }
  const login = await systemRepo(deps.db).createResource<Login>(
    buildLogin({
      user,
      authMethod: 'external',
      projectId: resolved.projectId,
      clientId: resolved.client?.id,
      scope: state.scope,
      codeChallenge: state.codeChallenge,
      codeChallengeMethod: state.codeChallengeMethod,
      ...info,
    }),
  );
  return nextLoginStep(deps.db, login, user);
}

function appRedirect(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) {
      url.searchParams.set(name, value);
    }
  }
  return url.href;
}

/** GET auth/external: the provider's answer. Returns where the browser goes next. */
export async function externalCallback(
  deps: ServerServices,
  query: Query,
  info: RequestInfo,
): Promise<string> {
  const state = await verifyExternalState(deps, query.state);
  // The client's registered addresses may have changed since the start: checked again.
  const resolved = await resolveRequest(deps, state);
  try {
    if (query.error) {
      const detail = query.error_description ? `: ${query.error_description.slice(0, 200)}` : '';
      throw new ExternalSignInError(
        query.error,
        `The identity provider refused the sign-in (${query.error})${detail}`,
      );
    }
    if (!query.code) {
      throw new ExternalSignInError('invalid_request', 'The identity provider sent no code');
    }
    const verifier = resolved.idp.usePkce ? await providerCodeVerifier(deps, state.nonce) : undefined;
    const accessToken = await exchangeProviderCode(
      resolved.idp,
      query.code,
      externalCallbackUrl(deps),
      verifier,
    );
    const userInfo = await fetchProviderUserInfo(resolved.idp, accessToken);
    const user = await matchUser(deps, resolved.idp, state, userInfo);
    const response = await signInUser(deps, state, resolved, user, info);
    return appRedirect(state.redirectUri, { login: response.login, code: response.code });
  } catch (err) {
    if (err instanceof ExternalSignInError) {
      return appRedirect(state.redirectUri, { error: err.error, error_description: err.message });
    }
    if (err instanceof ExternalProviderError) {
      return appRedirect(state.redirectUri, { error: 'server_error', error_description: err.message });
    }
    throw err;
  }
}
