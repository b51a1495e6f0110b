// POST admin/projects/{projectId}/invite (Medplum's invite): a project admin adds a person to
// their project. As Medplum's server: the User is found or created at its scope (an invited
// patient's User belongs to the project, a practitioner's is server-wide), a profile of the
// requested type that already has the email in the project is reused, and the membership is
// created (or, with upsert, updated; with forceNewMembership, added beside the existing one).
// Everything, the invitation email included, happens in one transaction: a failure leaves nothing.
import type {
  AccessPolicy,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  Reference,
  RelatedPerson,
  User,
} from '@medplum/fhirtypes';
import { badRequest, conflict, forbidden, notFound, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { AuthState } from '../auth/authenticate';
import { compact } from '../auth/compact';
import { hashPassword } from '../auth/passwords';
import { fieldError } from '../auth/request-fields';
import type { Queryable } from '../db';
import { Repository } from '../repo';
import { findUserByEmailAtScope, lockName } from '../repo/lookups';
import { INVITE_EMAIL_TIMEOUT_MS, sendInvitation } from './invite-email';
import {
  findMembershipAtOtherScope,
  findMembershipByExternalId,
  findMembershipOfUser,
  findProfileByEmail,
} from './invite-lookups';
import type { InviteRequest, MembershipTemplate } from './invite-request';

type Profile = Patient | Practitioner | RelatedPerson;

/** Only the project's own admins (and super admins) invite to it: 403 for everyone else. */
export function checkMayInvite(auth: AuthState, projectId: string): void {
  const superAdmin = auth.project.superAdmin === true;
  if (!superAdmin && !(auth.membership.admin === true && auth.project.id === projectId)) {
    throw new OperationOutcomeError(forbidden);
  }
}

function idOf(reference: Reference | undefined): string {
  return reference?.reference?.split('/')[1] ?? '';
}

/** Medplum: a patient's User (unless scope is 'server'), an externalId's, or scope 'project' belong to the project. */
function scopedToProject(invite: InviteRequest): boolean {
  return (
    (invite.resourceType === 'Patient' && invite.scope !== 'server') ||
    invite.externalId !== undefined ||
    invite.scope === 'project'
  );
}

/** Every policy named must be one the inviting admin can read in this project. */
async function checkPolicies(
  deps: ServerServices,
  auth: AuthState,
  projectId: string,
  template: MembershipTemplate,
) {
  const asAdmin = new Repository(deps.db, { ...auth.context, project: projectId });
  const named = [
    ...(template.accessPolicy ? [{ ref: template.accessPolicy, field: 'membership.accessPolicy' }] : []),
    ...(template.access ?? []).map((a, i) => ({ ref: a.policy, field: `membership.access[${i}].policy` })),
  ];
  for (const { ref, field } of named) {
    await asAdmin.readResource<AccessPolicy>('AccessPolicy', idOf(ref)).catch(() => {
      throw fieldError('Access policy not found', field);
    });
  }
}

/** A resource of the project, read unrestricted; undefined when it is absent or in another project. */
async function readInProject<T extends Profile>(deps: ServerServices, ref: Reference, projectId: string) {
  const [type, id] = (ref.reference ?? '').split('/');
  const found = await systemRepo(deps.db)
    .readResource<T>(type, id)
    .catch(() => undefined);
  return found && found.meta?.project === projectId ? found : undefined;
}

/** Medplum's defaults when the invite names no policy: by profile type, from Project.defaultAccessPolicies. */
function withDefaultPolicy(
  template: MembershipTemplate,
  invite: InviteRequest,
  project: Project,
  profile: Profile,
) {
  if (template.accessPolicy || template.access?.length) {
    return template;
  }
  const defaultFor = (type: string) =>
    project.defaultAccessPolicies?.find((p) => p.profileType === type)?.accessPolicy;
  if (invite.resourceType === 'Patient') {
    const policy = defaultFor('Patient') ?? project.defaultPatientAccessPolicy;
    return policy ? { ...template, accessPolicy: policy } : template;
  }
  if (invite.resourceType === 'Practitioner') {
    const policy = defaultFor(template.admin ? 'Admin' : 'Practitioner');
    return policy ? { ...template, accessPolicy: policy } : template;
  }
  const policy = defaultFor('RelatedPerson');
  const patient = (profile as RelatedPerson).patient;
  return policy && patient
    ? { ...template, access: [{ policy, parameter: [{ name: 'patient', valueReference: patient }] }] }
    : template;
}

export async function inviteUser(
  deps: ServerServices,
  auth: AuthState,
  projectId: string,
  invite: InviteRequest,
  emailTimeoutMs = INVITE_EMAIL_TIMEOUT_MS,
): Promise<ProjectMembership> {
  checkMayInvite(auth, projectId);
  const project = await systemRepo(deps.db)
    .readResource<Project>('Project', projectId)
    .catch(() => {
      throw new OperationOutcomeError(notFound);
    });
  await checkPolicies(deps, auth, projectId, invite.membership);
  const chosenProfile = invite.membership.profile && (await readChosenProfile(deps, invite, projectId));
  const patient =
    invite.resourceType === 'RelatedPerson' && invite.patient && (await readPatient(deps, invite, projectId));
  // Hashing is slow: before the transaction holds its lock.
  const passwordHash = invite.password ? await hashPassword(invite.password) : undefined;
  const scoped = scopedToProject(invite);
  const { email } = invite;

  return deps.db.transaction(async (tx) => {
    const system = systemRepo(deps.db, tx);
    let user: User | undefined;
    if (email) {
      await lockName(tx, `bloom:user-email:${email}`);
      if (!invite.forceNewMembership && (await findMembershipAtOtherScope(tx, email, projectId, scoped))) {
        throw new OperationOutcomeError(conflict('User is already a member of this project'));
      }
      user = await findUserByEmailAtScope(tx, email, scoped ? projectId : undefined);
    }
    const isNewUser = !user;
    user ??= await system.createResource<User>(
      compact({
        resourceType: 'User',
        firstName: invite.firstName,
        lastName: invite.lastName,
        email,
        passwordHash,
        project: scoped ? { reference: `Project/${projectId}` } : undefined,
      }),
    );
    // Written as the project, authored by the inviting admin.
    const projectRepo = new Repository(deps.db, { project: projectId, author: auth.profile }, tx);
    const profile =
      chosenProfile ||
      (email && (await findProfileByEmail<Profile>(tx, invite.resourceType, projectId, email))) ||
      (await createProfile(projectRepo, invite, patient || undefined));
    const template = withDefaultPolicy(invite.membership, invite, project, profile);
    const membership = await upsertMembership(tx, projectRepo, invite, {
      project,
      user,
      profile,
      fields: compact({ ...template, invitedBy: auth.membership.user }),
    });
    if (email && invite.sendEmail) {
      // Last step of the transaction: an email that cannot be sent undoes the invitation.
      await sendInvitation(
        deps,
        system,
        { user, isNewUser, firstName: invite.firstName, project },
        emailTimeoutMs,
      );
    }
    return membership;
  });
}

async function readChosenProfile(
  deps: ServerServices,
  invite: InviteRequest,
  projectId: string,
): Promise<Profile> {
  const ref = invite.membership.profile as Reference;
  const profile = await readInProject<Profile>(deps, ref, projectId);
  if (!profile) {
    throw fieldError('Profile does not belong to project', 'membership.profile');
  }
  if (profile.resourceType !== invite.resourceType) {
    throw fieldError('Profile resourceType does not match request', 'membership.profile');
  }
  return profile;
}

async function readPatient(deps: ServerServices, invite: InviteRequest, projectId: string): Promise<Patient> {
  const patient = await readInProject<Patient>(deps, invite.patient as Reference, projectId);
  if (!patient) {
    throw fieldError(`Patient ${invite.patient?.reference} does not exist`, 'patient');
  }
  return patient;
}

function createProfile(
  repo: Repository,
  invite: InviteRequest,
  patient: Patient | undefined,
): Promise<Profile> {
  if (invite.resourceType === 'RelatedPerson' && !patient) {
    throw new OperationOutcomeError(badRequest('Patient is required to create a RelatedPerson', 'patient'));
  }
  return repo.createResource<Profile>(
    compact({
      resourceType: invite.resourceType,
      name: [{ given: [invite.firstName], family: invite.lastName }],
      telecom: invite.email ? [{ system: 'email', use: 'work', value: invite.email }] : undefined,
      patient: patient ? { reference: `Patient/${patient.id}` } : undefined,
    }) as Profile,
  );
}

const CLEARED_ON_UPSERT: Partial<ProjectMembership> = {
  accessPolicy: undefined,
  access: undefined,
  admin: undefined,
  externalId: undefined,
};

interface MembershipParts {
  project: Project;
  user: User;
  profile: Profile;
  fields: Partial<ProjectMembership>;
}

/** Medplum's upsertProjectMembership: one membership per user and project unless forced. */
async function upsertMembership(
  tx: Queryable,
  repo: Repository,
  invite: InviteRequest,
  { project, user, profile, fields }: MembershipParts,
): Promise<ProjectMembership> {
  const profileRef = `${profile.resourceType}/${profile.id}`;
  const fixed = {
    resourceType: 'ProjectMembership' as const,
    project: { reference: `Project/${project.id}`, display: project.name },
    user: { reference: `User/${user.id}`, display: user.email ?? invite.externalId },
    profile: { reference: profileRef, display: `${invite.firstName} ${invite.lastName}` },
  };
  const existing = invite.forceNewMembership
    ? undefined
    : await findMembershipOfUser(tx, user.id as string, project.id as string);
  if (existing && !invite.upsert) {
    throw new OperationOutcomeError(conflict('User is already a member of this project'));
  }
  if (existing && existing.profile?.reference !== profileRef) {
    throw new OperationOutcomeError(
      conflict('User is already a member of this project with a different profile'),
    );
  }
  if (
    fields.externalId &&
    (await findMembershipByExternalId(tx, project.id as string, fields.externalId, existing?.id))
  ) {
    throw new OperationOutcomeError(
      conflict(`A membership with externalId ${fields.externalId} already exists in this project`),
    );
  }
  if (existing) {
    // The existing membership keeps its id, project, user and profile; the invite's fields replace the rest.
    // As Medplum, the access fields the invite leaves out are cleared, not kept.
    const updated = await repo.updateResource<ProjectMembership>(
      compact({
        ...existing,
        ...CLEARED_ON_UPSERT,
        ...fields,
        ...fixed,
        profile: existing.profile ?? fixed.profile,
        id: existing.id,
      }),
    );
    return updated.resource;
  }
  return repo.createResource<ProjectMembership>({ ...fields, ...fixed });
}
