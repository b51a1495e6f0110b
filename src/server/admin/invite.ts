// POST admin/projects/{projectId}/invite (Medplum's invite): a project admin adds a person
// to their project. The User is created when the email is new (with a set-password link in the
// invitation), then the profile (Patient or Practitioner) and the ProjectMembership.
// Everything, the email included, happens in one transaction: a failure leaves nothing behind.
import type {
  AccessPolicy,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  ProjectMembershipAccess,
  ProjectMembershipAccessParameter,
  Reference,
  User,
  UserSecurityRequest,
} from '@medplum/fhirtypes';
import { conflict, forbidden, notFound, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { AuthState } from '../auth/authenticate';
import type { Email } from '../auth/mailer';
import { compact } from '../auth/compact';
import { randomSecret } from '../auth/logins';
import type { Fields } from '../auth/request-fields';
import { fieldError, optionalBoolean, requiredEmail, requiredString } from '../auth/request-fields';
import { Repository } from '../repo';
import { findMembershipsByUser, findUserByEmail, lockName } from '../repo/lookups';

// RelatedPerson is left out: it needs the Patient it relates to, which an invite does not name.
const PROFILE_TYPES = ['Patient', 'Practitioner'] as const;
type ProfileType = (typeof PROFILE_TYPES)[number];
type Profile = Patient | Practitioner;

/** An invited person has a week to choose a password (auth/setpassword accepts the link once). */
export const INVITE_LIFETIME_MS = 7 * 24 * 3600_000;
/**
 * The invitation email is sent inside the transaction (so a failure undoes the invite); a mail
 * server that hangs must not hold the transaction (with PGlite: the whole database) for minutes.
 */
export const INVITE_EMAIL_TIMEOUT_MS = 15_000;
/** What the request's `membership` may set; project, user and profile are the server's to choose. */
const MEMBERSHIP_FIELDS = ['accessPolicy', 'access', 'admin'];
/** A membership names a handful of policies; more is a mistake, not a use. */
const MAX_ACCESS_ENTRIES = 20;
const MAX_PARAMETERS = 20;
const POLICY_REFERENCE = /^AccessPolicy\/[A-Za-z0-9\-.]{1,64}$/;
/** A parameter's name as it appears after `%` in a policy: never `profile`, which the server sets. */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const LITERAL_REFERENCE = /^[A-Z][A-Za-z]{1,63}\/[A-Za-z0-9\-.]{1,64}$/;

export interface InviteRequest {
  resourceType: ProfileType;
  firstName: string;
  lastName: string;
  email: string;
  sendEmail: boolean;
  admin: boolean;
  accessPolicy?: Reference<AccessPolicy>;
  /** Policies with their parameters (`%patient`, named ones), combined with accessPolicy as Medplum does. */
  access?: ProjectMembershipAccess[];
}

/** Only the project's own admins (and super admins) invite to it: 403 for everyone else. */
export function checkMayInvite(auth: AuthState, projectId: string): void {
  const superAdmin = auth.project.superAdmin === true;
  if (!superAdmin && !(auth.membership.admin === true && auth.project.id === projectId)) {
    throw new OperationOutcomeError(forbidden);
  }
}

export function readInviteRequest(fields: Fields): InviteRequest {
  const resourceType = requiredString(fields, 'resourceType', 'Resource type', 32);
  if (!(PROFILE_TYPES as readonly string[]).includes(resourceType)) {
    throw fieldError(`resourceType must be one of ${PROFILE_TYPES.join(', ')}`, 'resourceType');
  }
  const membership = fields.membership ?? {};
  if (typeof membership !== 'object' || membership === null || Array.isArray(membership)) {
    throw fieldError('membership must be an object', 'membership');
  }
  const membershipFields = membership as Fields;
  for (const name of Object.keys(membershipFields)) {
    if (!MEMBERSHIP_FIELDS.includes(name)) {
      throw fieldError(`membership.${name} cannot be set by an invite`, `membership.${name}`);
    }
  }
  // Medplum's InviteRequest also takes accessPolicy, access and admin at the top level (deprecated
  // there in favour of membership.*); the membership's own value wins.
  const accessPolicy = readPolicyReference(
    membershipFields.accessPolicy ?? fields.accessPolicy,
    membershipFields.accessPolicy !== undefined ? 'membership.accessPolicy' : 'accessPolicy',
  );
  const accessField = membershipFields.access !== undefined ? 'membership.access' : 'access';
  const access = readAccess(membershipFields.access ?? fields.access, accessField);
  return {
    resourceType: resourceType as ProfileType,
    firstName: requiredString(fields, 'firstName', 'First name', 128),
    lastName: requiredString(fields, 'lastName', 'Last name', 128),
    email: requiredEmail(fields),
    sendEmail: optionalBoolean(fields, 'sendEmail') ?? true,
    admin: (optionalBoolean(fields, 'admin') ?? false) || optionalBoolean(membershipFields, 'admin') === true,
    accessPolicy,
    access,
  };
}

function readPolicyReference(value: unknown, field: string): Reference<AccessPolicy> | undefined {
  if (value === undefined) {
    return undefined;
  }
  const reference = (value as { reference?: unknown } | null)?.reference;
  if (typeof reference !== 'string' || !POLICY_REFERENCE.test(reference)) {
    throw fieldError(`${field} must reference an AccessPolicy`, field);
  }
  return { reference };
}

/** ProjectMembership.access as Medplum defines it: each entry a policy and its parameters. */
function readAccess(value: unknown, field: string): ProjectMembershipAccess[] | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!Array.isArray(value) || value.length > MAX_ACCESS_ENTRIES) {
    throw fieldError(`${field} must be an array of at most ${MAX_ACCESS_ENTRIES} entries`, field);
  }
  return value.map((entry: unknown, index): ProjectMembershipAccess => {
    const at = `${field}[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw fieldError(`${at} must be an object with a policy`, at);
    }
    const { policy, parameter, ...rest } = entry as Record<string, unknown>;
    const unknownField = Object.keys(rest)[0];
    if (unknownField !== undefined) {
      throw fieldError(
        `${at}.${unknownField} is not a field of ProjectMembership.access`,
        `${at}.${unknownField}`,
      );
    }
    const policyRef = readPolicyReference(policy, `${at}.policy`);
    if (!policyRef) {
      throw fieldError(`${at}.policy is required`, `${at}.policy`);
    }
    const parameters = readParameters(parameter, `${at}.parameter`);
    return parameters ? { policy: policyRef, parameter: parameters } : { policy: policyRef };
  });
}

function readParameters(value: unknown, field: string): ProjectMembershipAccessParameter[] | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!Array.isArray(value) || value.length > MAX_PARAMETERS) {
    throw fieldError(`${field} must be an array of at most ${MAX_PARAMETERS} parameters`, field);
  }
  return value.map((item: unknown, index): ProjectMembershipAccessParameter => {
    const at = `${field}[${index}]`;
    const { name, valueString, valueReference, ...rest } = (
      typeof item === 'object' && item !== null && !Array.isArray(item) ? item : { invalid: true }
    ) as Record<string, unknown>;
    if (Object.keys(rest).length > 0 || typeof name !== 'string' || !PARAMETER_NAME.test(name)) {
      throw fieldError(`${at} must be a parameter with a name and a valueString or valueReference`, at);
    }
    if (name === 'profile') {
      throw fieldError(`${at}: %profile is the signed-in profile and cannot be given`, `${at}.name`);
    }
    const reference = (valueReference as { reference?: unknown } | null | undefined)?.reference;
    if (valueString !== undefined && valueReference === undefined) {
      if (typeof valueString !== 'string' || valueString.length > 256) {
        throw fieldError(`${at}.valueString must be a string of at most 256 characters`, `${at}.valueString`);
      }
      return { name, valueString };
    }
    if (valueString === undefined && typeof reference === 'string' && LITERAL_REFERENCE.test(reference)) {
      return { name, valueReference: { reference } };
    }
    throw fieldError(`${at} needs one valueString or one valueReference to a Type/id`, at);
  });
}

function appOrigin(deps: ServerServices): string {
  return deps.config.appOrigins[0] ?? deps.config.baseUrl.replace(/\/$/, '');
}

function invitationText(
  deps: ServerServices,
  invite: InviteRequest,
  project: Project,
  link: string | undefined,
): string {
  const lines = [
    `Hello ${invite.firstName},`,
    '',
    `You have been invited to ${project.name ?? 'a project'} on Bloom.`,
  ];
  if (link) {
    lines.push(
      'To choose your password and sign in, open:',
      link,
      '',
      'The link works once, for seven days.',
    );
  } else {
    lines.push(`Sign in with your existing Bloom account at ${appOrigin(deps)}/signin`);
  }
  return lines.join('\n');
}

/** Sends, or fails once `ms` have passed (the send itself may still finish later; its result is ignored). */
async function sendWithin(deps: ServerServices, email: Email, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`The invitation email was not sent within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([deps.mailer.send(email), timeout]);
  } finally {
    clearTimeout(timer);
  }
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
  // A patient invited without any policy gets the project's default patient policy.
  const accessPolicy =
    invite.accessPolicy ??
    (invite.resourceType === 'Patient' && !invite.access ? project.defaultPatientAccessPolicy : undefined);
  // Every policy named must be one the inviting admin can read in this project.
  const asAdmin = new Repository(deps.db, { ...auth.context, project: projectId });
  const named = [
    ...(invite.accessPolicy ? [{ ref: invite.accessPolicy, field: 'membership.accessPolicy' }] : []),
    ...(invite.access ?? []).map((a, i) => ({ ref: a.policy, field: `membership.access[${i}].policy` })),
  ];
  for (const { ref, field } of named) {
    const id = ref.reference?.split('/')[1] as string;
    await asAdmin.readResource<AccessPolicy>('AccessPolicy', id).catch(() => {
      throw fieldError('Access policy not found', field);
    });
  }
  return deps.db.transaction(async (tx) => {
    await lockName(tx, `bloom:user-email:${invite.email.toLowerCase()}`);
    const system = systemRepo(deps.db, tx);
    let user = await findUserByEmail(tx, invite.email);
    if (user) {
      const memberships = await findMembershipsByUser(tx, `User/${user.id}`);
      if (memberships.some((m) => m.project?.reference === `Project/${projectId}`)) {
        throw new OperationOutcomeError(conflict('This user is already a member of the project'));
      }
    }
    const isNewUser = !user;
    user ??= await system.createResource<User>({
      resourceType: 'User',
      firstName: invite.firstName,
      lastName: invite.lastName,
      email: invite.email,
    });
    // Written as the project, authored by the inviting admin.
    const projectRepo = new Repository(deps.db, { project: projectId, author: auth.profile }, tx);
    const profile = await projectRepo.createResource<Profile>({
      resourceType: invite.resourceType,
      name: [{ given: [invite.firstName], family: invite.lastName }],
      telecom: [{ system: 'email', use: 'work', value: invite.email }],
    } as Profile);
    const membership = await projectRepo.createResource<ProjectMembership>(
      compact({
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${projectId}`, display: project.name },
        user: { reference: `User/${user.id}`, display: invite.email },
        profile: {
          reference: `${invite.resourceType}/${profile.id}`,
          display: `${invite.firstName} ${invite.lastName}`,
        },
        accessPolicy,
        access: invite.access,
        admin: invite.admin || undefined,
      }),
    );
    if (invite.sendEmail) {
      let link: string | undefined;
      if (isNewUser) {
        const request = await system.createResource<UserSecurityRequest>({
          resourceType: 'UserSecurityRequest',
          type: 'invite',
          user: { reference: `User/${user.id}` },
          secret: randomSecret(),
          expiresAt: new Date(Date.now() + INVITE_LIFETIME_MS).toISOString(),
        });
        link = `${appOrigin(deps)}/setpassword/${request.id}/${request.secret}`;
      }
      // Last step of the transaction: an email that cannot be sent undoes the invitation.
      await sendWithin(
        deps,
        {
          to: invite.email,
          subject: `You are invited to ${project.name ?? 'Bloom'}`,
          text: invitationText(deps, invite, project, link),
        },
        emailTimeoutMs,
      );
    }
    return membership;
  });
}
