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
const MEMBERSHIP_FIELDS = ['accessPolicy', 'admin'];

export interface InviteRequest {
  resourceType: ProfileType;
  firstName: string;
  lastName: string;
  email: string;
  sendEmail: boolean;
  admin: boolean;
  accessPolicy?: Reference<AccessPolicy>;
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
  const accessPolicy = membershipFields.accessPolicy as Reference<AccessPolicy> | undefined;
  if (
    accessPolicy !== undefined &&
    (typeof accessPolicy?.reference !== 'string' ||
      !/^AccessPolicy\/[A-Za-z0-9\-.]{1,64}$/.test(accessPolicy.reference))
  ) {
    throw fieldError('membership.accessPolicy must reference an AccessPolicy', 'membership.accessPolicy');
  }
  return {
    resourceType: resourceType as ProfileType,
    firstName: requiredString(fields, 'firstName', 'First name', 128),
    lastName: requiredString(fields, 'lastName', 'Last name', 128),
    email: requiredEmail(fields),
    sendEmail: optionalBoolean(fields, 'sendEmail') ?? true,
    admin: (optionalBoolean(fields, 'admin') ?? false) || optionalBoolean(membershipFields, 'admin') === true,
    accessPolicy: accessPolicy && { reference: accessPolicy.reference },
  };
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
  // The policy must be one the inviting admin can read in this project.
  const accessPolicy =
    invite.accessPolicy ??
    (invite.resourceType === 'Patient' ? project.defaultPatientAccessPolicy : undefined);
  if (invite.accessPolicy) {
    const id = invite.accessPolicy.reference?.split('/')[1] as string;
    await new Repository(deps.db, { ...auth.context, project: projectId })
      .readResource<AccessPolicy>('AccessPolicy', id)
      .catch(() => {
        throw fieldError('Access policy not found', 'membership.accessPolicy');
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
