// The Login resource through a sign-in: created when the password (or registration) is accepted,
// then the next step (MFA, choose a profile, create a project), then an authorization code that
// the token endpoint exchanges once (SPEC §3 Login response, §4 Login).
import crypto from 'node:crypto';
import type { ClientApplication, Login, ProjectMembership, Reference, User } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { Database, Queryable } from '../db';
import { findMembershipsByUser } from '../repo/lookups';
import { systemRepo } from '../services';
import { ipBlockedError, signInAddressAllowed } from './authenticate';
import { compact } from './compact';

/** SPEC §3 "Login response". */
export interface LoginResponse {
  login: string;
  code?: string;
  mfaRequired?: boolean;
  memberships?: { id: string; profile?: Reference; project?: Reference }[];
}

/** A sign-in must be finished within this time of the password being accepted. */
export const LOGIN_FLOW_LIFETIME_MS = 60 * 60_000;

export function randomSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('hex');
}

export interface NewLogin {
  user: User;
  authMethod: 'password' | 'client' | 'exchange' | 'google' | 'external';
  projectId?: string;
  clientId?: string;
  scope?: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
  nonce?: string;
  remoteAddress?: string;
  userAgent?: string;
}

export function buildLogin(input: NewLogin): Login {
  const login: Login = {
    resourceType: 'Login',
    user: { reference: `User/${input.user.id}` },
    authMethod: input.authMethod,
    authTime: new Date().toISOString(),
    scope: input.scope ?? 'openid offline',
    remoteAddress: input.remoteAddress,
    userAgent: input.userAgent?.slice(0, 256),
  };
  if (input.projectId && input.projectId !== 'new') {
    login.project = { reference: `Project/${input.projectId}` };
  }
  if (input.clientId) {
    login.client = { reference: `ClientApplication/${input.clientId}` };
  }
  if (input.codeChallenge) {
    login.codeChallenge = input.codeChallenge;
    login.codeChallengeMethod = input.codeChallengeMethod;
  }
  if (input.nonce) {
    login.nonce = input.nonce;
  }
  return compact(login);
}

/** Reads a Login by id for the next step of a sign-in; refuses finished, revoked or stale ones. */
export async function readPendingLogin(db: Database, loginId: string): Promise<Login> {
  let login: Login;
  try {
    login = await systemRepo(db).readResource<Login>('Login', loginId);
  } catch {
    throw new OperationOutcomeError(badRequest('Login not found', 'login'));
  }
  if (login.revoked) {
    throw new OperationOutcomeError(badRequest('Login revoked', 'login'));
  }
  if (login.granted) {
    throw new OperationOutcomeError(badRequest('Login already granted', 'login'));
  }
  if (Date.now() - Date.parse(login.authTime) > LOGIN_FLOW_LIFETIME_MS) {
    throw new OperationOutcomeError(badRequest('Login expired', 'login'));
  }
  return login;
}

function membershipSummary(membership: ProjectMembership): NonNullable<LoginResponse['memberships']>[number] {
  return { id: membership.id as string, profile: membership.profile, project: membership.project };
}

/** The user's memberships a login may choose from (only its project's when one was asked for). */
export async function loginMemberships(db: Database, login: Login): Promise<ProjectMembership[]> {
  const memberships = await findMembershipsByUser(db, login.user.reference as string);
  const project = login.project?.reference;
  return project ? memberships.filter((m) => m.project?.reference === project) : memberships;
}

/**
 * The next step of a sign-in whose credentials were accepted: MFA first, then the one membership
 * (code), a choice of memberships, or none yet (the project or patient step follows).
 */
export async function nextLoginStep(db: Database, login: Login, user: User): Promise<LoginResponse> {
  const id = login.id as string;
  if (login.code) {
    return { login: id, code: login.code };
  }
  if (user.mfaEnrolled && !login.mfaVerified) {
    return { login: id, mfaRequired: true };
  }
  const memberships = await loginMemberships(db, login);
  if (memberships.length === 1) {
    return grantCode(db, login, memberships[0]);
  }
  if (memberships.length > 1) {
    return { login: id, memberships: memberships.map(membershipSummary) };
  }
  return { login: id };
}

/**
 * Binds the login to a membership and gives it a fresh authorization code, unless the membership's
 * policy blocks the address the sign-in came from (403). Compare-and-set on the Login's version:
 * two steps racing on one login cannot both hand out a code.
 */
export async function grantCode(
  db: Database,
  login: Login,
  membership: ProjectMembership,
  tx?: Queryable,
): Promise<LoginResponse> {
  if (login.remoteAddress && !(await signInAddressAllowed(db, membership, login.remoteAddress, tx))) {
    throw ipBlockedError();
  }
  const updated: Login = compact({
    ...login,
    membership: { reference: `ProjectMembership/${membership.id}` },
    project: membership.project,
    profileType: membership.profile?.reference?.split('/')[0] as Login['profileType'],
    admin: membership.admin ?? false,
    code: randomSecret(),
  });
  const { resource } = await systemRepo(db, tx).updateResource(updated, { ifMatch: login.meta?.versionId });
  return { login: resource.id as string, code: resource.code };
}

/** The membership chosen by id (auth/profile), which must be the login's user's. */
export async function chooseMembership(
  db: Database,
  login: Login,
  membershipId: string,
): Promise<ProjectMembership> {
  const membership = (await loginMemberships(db, login)).find((m) => m.id === membershipId);
  if (!membership) {
    throw new OperationOutcomeError(badRequest('Profile not found', 'profile'));
  }
  return membership;
}

/**
 * A sign-in that names a project must be able to end in it: without a membership there
 * it is refused, naming the project, instead of a Login with neither a code nor memberships.
 * "new" is the project step of registration, which no membership precedes.
 */
export async function assertMemberOfProject(
  db: Database,
  user: User,
  projectId: string | undefined,
): Promise<void> {
  if (!projectId || projectId === 'new') {
    return;
  }
  const memberships = await findMembershipsByUser(db, `User/${user.id}`);
  if (!memberships.some((m) => m.project?.reference === `Project/${projectId}`)) {
    throw new OperationOutcomeError(badRequest(`User is not a member of Project/${projectId}`, 'projectId'));
  }
}

/** A user with MFA must pass the MFA step before any step that leads to a code. */
export function assertMfaDone(login: Login, user: User): void {
  if (user.mfaEnrolled && !login.mfaVerified) {
    throw new OperationOutcomeError(badRequest('MFA verification is required first', 'login'));
  }
}

/**
 * A clientId given at sign-in must name an active ClientApplication (checked before any Login is
 * made); answers the client's project, where its users sign in.
 */
export async function checkClientId(db: Database, clientId: string | undefined): Promise<string | undefined> {
  if (!clientId) {
    return undefined;
  }
  const client = await systemRepo(db)
    .readResource<ClientApplication>('ClientApplication', clientId)
    .catch(() => undefined);
  if (!client || client.status === 'off') {
    throw new OperationOutcomeError(badRequest('Client not found', 'clientId'));
  }
  return client.meta?.project;
}
