// Registration: a new User (auth/newuser), then either a Patient in an open project
// (auth/newpatient) or a new Project with its admin (auth/newproject). Each is one transaction, so
// a failure leaves nothing half-created (no orphan User, Patient or membership).
import crypto from 'node:crypto';
import type {
  AccessPolicy,
  Login,
  OperationOutcome,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  Reference,
  User,
} from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { Repository } from '../repo';
import { findMembershipsByUser, findUserByEmail, lockName } from '../repo/lookups';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { compact } from './compact';
import type { LoginResponse, NewLogin } from './logins';
import { assertMfaDone, buildLogin, checkClientId, grantCode, readPendingLogin } from './logins';
import { checkNewPassword, hashPassword } from './passwords';
import { checkRecaptcha } from './recaptcha';
import type { Fields } from './request-fields';
import {
  fieldError,
  optionalString,
  readCodeChallenge,
  requiredEmail,
  requiredPassword,
  requiredString,
} from './request-fields';

export interface RequestInfo {
  remoteAddress?: string;
  userAgent?: string;
}

/**
 * A projectId at auth/newuser names the project the user registers in (then auth/newpatient), or
 * "new" (then auth/newproject): an unknown project is refused before a User exists.
 */
async function checkRegistrationProject(deps: ServerServices, projectId: string | undefined): Promise<void> {
  if (!projectId || projectId === 'new') {
    return;
  }
  const project = await systemRepo(deps.db)
    .readResource<Project>('Project', projectId)
    .catch(() => undefined);
  if (!project) {
    throw fieldError(`Project/${projectId} not found`, 'projectId');
  }
}

export async function newUser(
  deps: ServerServices,
  fields: Fields,
  info: RequestInfo,
): Promise<LoginResponse> {
  const firstName = requiredString(fields, 'firstName', 'First name', 128);
  const lastName = requiredString(fields, 'lastName', 'Last name', 128);
  const email = requiredEmail(fields);
  const password = requiredPassword(fields);
  const passwordProblem = checkNewPassword(password);
  if (passwordProblem) {
    throw fieldError(passwordProblem, 'password');
  }
  const projectId = optionalString(fields, 'projectId', 64);
  const clientId = optionalString(fields, 'clientId', 64);
  const scope = optionalString(fields, 'scope', 1024);
  const challenge = readCodeChallenge(fields);
  await checkClientId(deps.db, clientId);
  await checkRegistrationProject(deps, projectId);
  // Before anything is created (reCAPTCHA when a secret is configured).
  await checkRecaptcha(deps.config, fields, info.remoteAddress);
  // Hashing is slow: do it before the transaction holds its lock.
  const passwordHash = await hashPassword(password);
  const login = await deps.db.transaction(async (tx) => {
    await lockName(tx, `bloom:user-email:${email.toLowerCase()}`);
    if (await findUserByEmail(tx, email)) {
      throw fieldError('Email already registered', 'email');
    }
    const repo = systemRepo(deps.db, tx);
    const user = await repo.createResource<User>({
      resourceType: 'User',
      firstName,
      lastName,
      email,
      passwordHash,
    });
    const input: NewLogin = {
      user,
      authMethod: 'password',
      projectId,
      clientId,
      scope,
      ...challenge,
      ...info,
    };
    return repo.createResource<Login>(buildLogin(input));
  });
  return { login: login.id as string };
}

async function readLoginUser(deps: ServerServices, login: Login): Promise<User> {
  return systemRepo(deps.db).readResource<User>('User', login.user.reference?.split('/')[1] as string);
}

export async function newPatient(deps: ServerServices, fields: Fields): Promise<LoginResponse> {
  const login = await readPendingLogin(deps.db, requiredString(fields, 'login', 'Login', 64));
  const projectId = requiredString(fields, 'projectId', 'Project', 64);
  let project: Project;
  try {
    project = await systemRepo(deps.db).readResource<Project>('Project', projectId);
  } catch {
    throw fieldError('Project not found', 'projectId');
  }
  if (!project.defaultPatientAccessPolicy) {
    throw fieldError('This project does not allow patient registration', 'projectId');
  }
  // As Medplum's newpatient: the membership gets the project's default patient policy, which must
  // exist in the project (a dangling default would sign her in with no policy at all).
  const defaultPolicy = await readDefaultPatientPolicy(deps, project);
  const user = await readLoginUser(deps, login);
  assertMfaDone(login, user);
  const existing = await findMembershipsByUser(deps.db, `User/${user.id}`);
  if (existing.some((m) => m.project?.reference === `Project/${projectId}`)) {
    throw fieldError('Already registered in this project', 'projectId');
  }
  return deps.db.transaction(async (tx) => {
    const repo = new Repository(
      deps.db,
      { project: projectId, author: { reference: `User/${user.id}` } },
      tx,
    );
    const patient = await repo.createResource<Patient>(
      compact({
        resourceType: 'Patient',
        name: [{ given: [user.firstName], family: user.lastName }],
        telecom: user.email ? [{ system: 'email', use: 'home', value: user.email }] : undefined,
      }),
    );
    const membership = await repo.createResource<ProjectMembership>(
      compact({
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${projectId}`, display: project.name },
        user: { reference: `User/${user.id}`, display: user.email },
        profile: { reference: `Patient/${patient.id}`, display: `${user.firstName} ${user.lastName}` },
        accessPolicy: defaultPolicy,
      }),
    );
    return grantCode(deps.db, { ...login, project: membership.project }, membership, tx);
  });
}

/** The project's defaultPatientAccessPolicy, as a reference to an AccessPolicy stored in the project. */
async function readDefaultPatientPolicy(
  deps: ServerServices,
  project: Project,
): Promise<Reference<AccessPolicy>> {
  const match = /^AccessPolicy\/([A-Za-z0-9\-.]{1,64})$/.exec(
    project.defaultPatientAccessPolicy?.reference ?? '',
  );
  const policy =
    match &&
    (await systemRepo(deps.db)
      .readResource<AccessPolicy>('AccessPolicy', match[1])
      .catch(() => undefined));
  if (!policy || policy.meta?.project !== project.id) {
    throw fieldError('This project does not allow patient registration', 'projectId');
  }
  return { reference: `AccessPolicy/${policy.id}`, display: policy.name };
}

/** SPEC §5: the app shows project name errors in the firstName slot, so the issue names both. */
function projectNameRequired(): OperationOutcomeError {
  const outcome: OperationOutcome = badRequest('Project name is required', 'projectName');
  outcome.issue![0].expression = ['projectName', 'firstName'];
  return new OperationOutcomeError(outcome);
}

export async function newProject(deps: ServerServices, fields: Fields): Promise<LoginResponse> {
  const login = await readPendingLogin(deps.db, requiredString(fields, 'login', 'Login', 64));
  const rawName = optionalString(fields, 'projectName', 128);
  if (!rawName?.trim()) {
    throw projectNameRequired();
  }
  const projectName = rawName.trim();
  const user = await readLoginUser(deps, login);
  assertMfaDone(login, user);
  return deps.db.transaction(async (tx) => {
    const projectId = crypto.randomUUID();
    const author = { reference: `User/${user.id}` };
    const repo = new Repository(deps.db, { project: projectId, author }, tx);
    const project = await repo.createResource<Project>(
      { resourceType: 'Project', name: projectName, owner: author, strictMode: true },
      { assignedId: projectId },
    );
    const practitioner = await repo.createResource<Practitioner>(
      compact({
        resourceType: 'Practitioner',
        name: [{ given: [user.firstName], family: user.lastName }],
        telecom: user.email ? [{ system: 'email', use: 'work', value: user.email }] : undefined,
      }),
    );
    const membership = await repo.createResource<ProjectMembership>({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project.id}`, display: project.name },
      user: { reference: `User/${user.id}`, display: user.email },
      profile: {
        reference: `Practitioner/${practitioner.id}`,
        display: `${user.firstName} ${user.lastName}`,
      },
      admin: true,
    });
    return grantCode(deps.db, { ...login, project: membership.project }, membership, tx);
  });
}
