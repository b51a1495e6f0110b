// Projects, users and memberships written straight into a test database, and HTTP helpers for the
// sign-in flows (real fetch against a real server).
import crypto from 'node:crypto';
import type {
  AccessPolicy,
  ClientApplication,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  User,
} from '@medplum/fhirtypes';
import { compact } from '../../../../src/server/auth/compact';
import { hashPassword } from '../../../../src/server/auth/passwords';
import type { Database } from '../../../../src/server/db';
import { Repository, systemContext } from '../../../../src/server/repo';

export const PASSWORD = 'violet-harbor-1987';

export async function createProject(db: Database, name = 'Test Clinic'): Promise<Project> {
  const id = crypto.randomUUID();
  const repo = new Repository(db, systemContext(id));
  const policy = await repo.createResource<AccessPolicy>({
    resourceType: 'AccessPolicy',
    name: 'Patient',
    // A patient's own compartment: the policy, not code, keeps her to it (SPEC §6).
    resource: [
      { resourceType: 'Patient', compartment: { reference: '%patient' } },
      { resourceType: 'Observation', compartment: { reference: '%patient' } },
      { resourceType: 'Communication', compartment: { reference: '%patient' } },
    ],
  });
  return repo.createResource<Project>(
    { resourceType: 'Project', name, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}` } },
    { assignedId: id },
  );
}

export interface TestAccount {
  user: User;
  email: string;
  password: string;
  memberships: ProjectMembership[];
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${counter}.${crypto.randomBytes(3).toString('hex')}@Example.org`;
}

export async function createUser(db: Database, email = uniqueEmail(), password = PASSWORD): Promise<User> {
  return new Repository(db, systemContext()).createResource<User>({
    resourceType: 'User',
    firstName: 'Test',
    lastName: 'Person',
    email,
    passwordHash: await hashPassword(password),
  });
}

/** A membership of `user` in `project` with a new Patient or Practitioner profile. */
export async function addMembership(
  db: Database,
  user: User,
  project: Project,
  profileType: 'Patient' | 'Practitioner',
  options: { admin?: boolean } = {},
): Promise<ProjectMembership> {
  const repo = new Repository(db, systemContext(project.id));
  const profile = await repo.createResource<Patient | Practitioner>({
    resourceType: profileType,
    name: [{ given: [user.firstName], family: user.lastName }],
  });
  return repo.createResource<ProjectMembership>(
    compact({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project.id}`, display: project.name },
      user: { reference: `User/${user.id}` },
      profile: { reference: `${profileType}/${profile.id}`, display: `${user.firstName} ${user.lastName}` },
      accessPolicy: profileType === 'Patient' ? project.defaultPatientAccessPolicy : undefined,
      admin: options.admin,
    }),
  );
}

/** A new user, practitioner of a new project of her own: her email. */
export async function practitionerAccount(db: Database): Promise<string> {
  const project = await createProject(db);
  const user = await createUser(db);
  await addMembership(db, user, project, 'Practitioner');
  return user.email as string;
}

export async function createClient(
  db: Database,
  project: Project,
  fields: Partial<ClientApplication> = {},
): Promise<ClientApplication> {
  const repo = new Repository(db, systemContext(project.id));
  const client = await repo.createResource<ClientApplication>({
    resourceType: 'ClientApplication',
    name: 'Test client',
    ...fields,
  });
  await repo.createResource<ProjectMembership>({
    resourceType: 'ProjectMembership',
    project: { reference: `Project/${project.id}` },
    user: { reference: `ClientApplication/${client.id}` },
    profile: { reference: `ClientApplication/${client.id}` },
  });
  return client;
}

/** PKCE of SPEC §9: a random verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export async function postJson<T = Record<string, unknown>>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

export async function postForm<T = Record<string, unknown>>(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

export async function getJson<T = Record<string, unknown>>(
  url: string,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const response = await fetch(url, { headers, redirect: 'manual' });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T, headers: response.headers };
}

export function outcomeText(body: unknown): string | undefined {
  return (body as { issue?: { details?: { text?: string } }[] }).issue?.[0]?.details?.text;
}

export function outcomeExpression(body: unknown): string[] | undefined {
  return (body as { issue?: { expression?: string[] }[] }).issue?.[0]?.expression;
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  token_type: string;
  scope: string;
  project?: { reference?: string };
  profile?: { reference?: string };
}

/** auth/login with PKCE, then the code exchanged at oauth2/token: a complete password sign-in. */
export async function signIn(
  baseUrl: string,
  email: string,
  password = PASSWORD,
  extra: Record<string, unknown> = {},
): Promise<Tokens> {
  const { verifier, challenge } = pkce();
  const login = await postJson<{ login: string; code?: string }>(`${baseUrl}auth/login`, {
    email,
    password,
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
    ...extra,
  });
  if (!login.body.code) {
    throw new Error(`sign-in gave no code: ${login.status} ${JSON.stringify(login.body)}`);
  }
  const token = await postForm<Tokens>(`${baseUrl}oauth2/token`, {
    grant_type: 'authorization_code',
    code: login.body.code,
    code_verifier: verifier,
  });
  if (token.status !== 200) {
    throw new Error(`token exchange failed: ${token.status} ${JSON.stringify(token.body)}`);
  }
  return token.body;
}

/** The id and secret of the set-password link in an email (reset or invite). */
export function setPasswordLink(mail: string): { id: string; secret: string } {
  const [, id, secret] = /\/setpassword\/([^/\s]+)\/([0-9a-f]+)/.exec(mail) as RegExpExecArray;
  return { id, secret };
}
