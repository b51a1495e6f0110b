// Who is calling: `Authorization: Bearer <access token>` (signature, expiry, issuer, Login not
// revoked) or `Authorization: Basic client_id:secret` for client applications, turned into the
// RepositoryContext (with `access`) that the FHIR routes act as.
import crypto from 'node:crypto';
import type {
  AccessPolicy,
  ClientApplication,
  Login,
  OperationOutcome,
  Project,
  ProjectMembership,
  Reference,
  Resource,
  User,
} from '@medplum/fhirtypes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OperationOutcomeError } from '../../fhir';
import type { Database, Queryable } from '../db';
import type { RepositoryContext } from '../repo';
import { findMembershipsByUser } from '../repo/lookups';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { authCacheFor } from './auth-cache';
import { issuedBeforeCredentialsChange } from './credentials';
import { isFreshSignIn } from './fresh-sign-in';
import { loginPredatesCredentials } from './login-validity';
import { guardPlatformResources } from './platform-guard';
import { ipAllowed } from '../access/ip-rules';
import { combinePolicies } from '../access/policy';
import type { PolicyGrant } from '../access/policy';

export interface AuthState {
  /** Absent for Basic client authentication, which has no Login. */
  login?: Login;
  /** The signed-in User; absent for a client application. */
  user?: User;
  client?: ClientApplication;
  membership: ProjectMembership;
  project: Project;
  profile: Reference;
  accessPolicy?: AccessPolicy;
  context: RepositoryContext;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on routes that require it. */
    bloomAuth: AuthState | null;
  }
}

/** 401 for a missing, malformed, expired, tampered, foreign-signed or revoked credential. */
export const unauthenticated: OperationOutcome = {
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'login', details: { text: 'Unauthenticated' } }],
};

function fail(): never {
  throw new OperationOutcomeError(unauthenticated);
}

async function readOrFail<T extends Resource>(
  db: Database,
  reference: string | undefined,
  tx?: Queryable,
): Promise<T> {
  const [type, id] = (reference ?? '').split('/');
  if (!type || !id) {
    fail();
  }
  try {
    return await systemRepo(db, tx).readResource<T>(type, id);
  } catch {
    return fail();
  }
}

/**
 * Project, access policy and the AccessContext of a membership. `tx` when the membership (or its
 * project) was written in a transaction not yet committed (registration).
 */
export async function buildAuthState(
  db: Database,
  membership: ProjectMembership,
  extra: Pick<AuthState, 'login' | 'user' | 'client'>,
  tx?: Queryable,
): Promise<AuthState> {
  if (membership.active === false) {
    fail();
  }
  const project = await readOrFail<Project>(db, membership.project?.reference, tx);
  const accessPolicy = membership.accessPolicy
    ? await readOrFail<AccessPolicy>(db, membership.accessPolicy.reference, tx)
    : undefined;
  const profile = membership.profile;
  const profileRef = profile.reference ?? '';
  const grants: PolicyGrant[] = accessPolicy ? [{ policy: accessPolicy }] : [];
  for (const access of membership.access ?? []) {
    grants.push({
      policy: await readOrFail<AccessPolicy>(db, access.policy?.reference, tx),
      parameter: access.parameter,
    });
  }
  // A patient is never granted everything by default: without a policy of her own she gets the
  // project's default patient policy.
  if (grants.length === 0 && profileRef.startsWith('Patient/') && project.defaultPatientAccessPolicy) {
    grants.push({
      policy: await readOrFail<AccessPolicy>(db, project.defaultPatientAccessPolicy.reference, tx),
    });
  }
  const context: RepositoryContext = {
    project: project.id,
    author: profile,
    access: {
      superAdmin: project.superAdmin === true,
      projectAdmin: membership.admin === true,
      profile,
      membership: { reference: `ProjectMembership/${membership.id}` },
      patientCompartment: profileRef.startsWith('Patient/') ? profileRef : undefined,
      accessPolicy,
      policy: combinePolicies(grants, profile),
      freshSignIn: isFreshSignIn(extra.login),
    },
  };
  return { ...extra, membership, project, profile, accessPolicy, context };
}

/** A verified access token's Login, or 401, unless its user changed their password since it began. */
export async function verifyAccessToken(deps: ServerServices, token: string): Promise<Login> {
  const { login } = await verifiedLogin(deps, token);
  if (await loginPredatesCredentials(deps.db, login)) {
    fail();
  }
  return login;
}

/**
 * The Login of a valid, unrevoked access token and the token's expiry (ms), or 401. Refresh and ID
 * tokens are not access tokens.
 */
async function verifiedLogin(
  deps: ServerServices,
  token: string,
): Promise<{ login: Login; expiresAt: number }> {
  let payload: Record<string, unknown>;
  try {
    payload = (await deps.keys.verify(token)).payload;
  } catch {
    return fail();
  }
  if (
    typeof payload.login_id !== 'string' ||
    typeof payload.username !== 'string' ||
    'refresh_secret' in payload
  ) {
    fail();
  }
  const login = await readOrFail<Login>(deps.db, `Login/${payload.login_id}`);
  if (login.revoked || !login.granted) {
    fail();
  }
  // jose has checked exp when present; a token without one is never kept beyond this request.
  const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  return { login, expiresAt };
}

/**
 * The caller a bearer token stands for: from the auth cache while none of the resources it was
 * built from has changed and the token has not expired, else verified and built afresh.
 */
export async function authenticateBearer(deps: ServerServices, token: string): Promise<AuthState> {
  const cache = authCacheFor<AuthState>(deps.db);
  const cached = cache?.get(token);
  if (cached) {
    return cached;
  }
  const generation = cache?.startRead() ?? 0;
  const { state, expiresAt } = await buildBearerState(deps, token);
  cache?.set(token, state, expiresAt, generation);
  return state;
}

async function buildBearerState(
  deps: ServerServices,
  token: string,
): Promise<{ state: AuthState; expiresAt: number }> {
  const { login, expiresAt } = await verifiedLogin(deps, token);
  const membership = await readOrFail<ProjectMembership>(deps.db, login.membership?.reference);
  const principal = login.user.reference ?? '';
  if (principal.startsWith('ClientApplication/')) {
    const client = await readOrFail<ClientApplication>(deps.db, principal);
    return { state: await buildAuthState(deps.db, membership, { login, client }), expiresAt };
  }
  // The user is read here anyway: the password-change check needs no second read.
  const user = await readOrFail<User>(deps.db, principal);
  if (issuedBeforeCredentialsChange(user, login.authTime)) {
    fail();
  }
  return { state: await buildAuthState(deps.db, membership, { login, user }), expiresAt };
}

/** Constant-time comparison of two secrets of any length. */
export function secretsEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb) && a.length === b.length;
}

/** A ClientApplication by id and secret, or undefined (unknown client, no secret, wrong secret). */
export async function findClientBySecret(
  db: Database,
  clientId: string,
  secret: string,
): Promise<ClientApplication | undefined> {
  let client: ClientApplication;
  try {
    client = await systemRepo(db).readResource<ClientApplication>('ClientApplication', clientId);
  } catch {
    return undefined;
  }
  // After $rotate-secret the retiring secret still works until the client retires it.
  const matches = [client.secret, client.retiringSecret].some(
    (known) => !!known && secretsEqual(known, secret),
  );
  if (client.status === 'off' || !matches) {
    return undefined;
  }
  return client;
}

/** The client's own membership (its project and access), or undefined. */
export async function clientMembership(
  db: Database,
  clientId: string,
): Promise<ProjectMembership | undefined> {
  return (await findMembershipsByUser(db, `ClientApplication/${clientId}`))[0];
}

export function parseBasicAuth(header: string): { username: string; password: string } | undefined {
  const decoded = Buffer.from(header.slice('Basic '.length).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) {
    return undefined;
  }
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

async function authenticateBasic(deps: ServerServices, header: string): Promise<AuthState> {
  const credentials = parseBasicAuth(header);
  const client =
    credentials && (await findClientBySecret(deps.db, credentials.username, credentials.password));
  const membership = client && (await clientMembership(deps.db, client.id as string));
  if (!client || !membership) {
    return fail();
  }
  return buildAuthState(deps.db, membership, { client });
}

/** The caller of this request, or a 401 OperationOutcomeError (403 when its policy's IP rules refuse the address). */
export async function authenticateRequest(deps: ServerServices, request: FastifyRequest): Promise<AuthState> {
  const header = request.headers.authorization ?? '';
  let state: AuthState;
  if (header.startsWith('Bearer ')) {
    state = await authenticateBearer(deps, header.slice('Bearer '.length).trim());
  } else if (header.startsWith('Basic ')) {
    state = await authenticateBasic(deps, header);
  } else {
    return fail();
  }
  checkIpAccess(state, request.ip);
  return state;
}

/** AccessPolicy.ipAccessRule on a caller's address, as Medplum checks it on every request. */
export function checkIpAccess(state: AuthState, address: string): void {
  if (!ipAllowed(state.context.access?.policy.ipAccessRule, address)) {
    throw ipBlockedError();
  }
}

/** The 403 of a blocked address, at sign-in as on a request. */
export function ipBlockedError(): OperationOutcomeError {
  return new OperationOutcomeError(ipBlocked);
}

/**
 * Sign-in's check (Medplum checks it when a login gets its membership): the membership's combined
 * policy must let `address` in, or no code or token is issued for it.
 */
export async function signInAddressAllowed(
  db: Database,
  membership: ProjectMembership,
  address: string,
  tx?: Queryable,
): Promise<boolean> {
  const state = await buildAuthState(db, membership, {}, tx);
  return ipAllowed(state.context.access?.policy.ipAccessRule, address);
}

export const IP_BLOCKED_TEXT = 'IP address not allowed by your access policy';

const ipBlocked: OperationOutcome = {
  resourceType: 'OperationOutcome',
  id: 'forbidden',
  issue: [
    {
      severity: 'error',
      code: 'forbidden',
      details: { text: IP_BLOCKED_TEXT },
    },
  ],
};

/** The authenticated caller of a route, authenticating on first use. */
export async function requireAuth(deps: ServerServices, request: FastifyRequest): Promise<AuthState> {
  request.bloomAuth ??= await authenticateRequest(deps, request);
  return request.bloomAuth;
}

/** Paths under the FHIR base that answer without a token (the CapabilityStatement, as in Medplum). */
const PUBLIC_FHIR_PATHS = new Set(['/fhir/R4/metadata']);

/**
 * Every FHIR request must be authenticated: the hook runs before routing's handlers, so even a 404
 * route under /fhir/R4 answers 401 to an anonymous caller and never tells what exists.
 */
export function registerFhirAuthentication(app: FastifyInstance, deps: ServerServices): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0].replace(/\/+$/, '');
    if (!path.startsWith('/fhir/R4') || PUBLIC_FHIR_PATHS.has(path) || request.method === 'OPTIONS') {
      return;
    }
    reply.header('WWW-Authenticate', 'Bearer');
    await requireAuth(deps, request);
  });
  // After body parsing, so that batch and transaction entries are checked too.
  app.addHook('preHandler', async (request) => {
    if (request.url.startsWith('/fhir/R4') && request.bloomAuth) {
      guardPlatformResources(request);
    }
  });
}

/** The FHIR routes' getContext: the context the hook put on the request. */
export function contextFromRequest(request: FastifyRequest): RepositoryContext {
  if (!request.bloomAuth) {
    throw new OperationOutcomeError(unauthenticated);
  }
  return request.bloomAuth.context;
}

export function decorateAuth(app: FastifyInstance): void {
  app.decorateRequest('bloomAuth', null);
}
