// What the invite form holds and the body it sends to POST admin/projects/{id}/invite, Medplum's
// InviteRequest (SPEC §6 project administration, §7): the person's role, name and email, and what
// the membership grants (an access policy, the admin flag). Checked here before anything is sent.
import type { InviteRequest } from '../../../client';
import { validateEmail } from '../../components/emailValidation';

export const INVITE_FIELDS = ['resourceType', 'firstName', 'lastName', 'email', 'membership'] as const;
export type InviteField = (typeof INVITE_FIELDS)[number];

export type InviteRole = 'Practitioner' | 'Patient';

export interface InviteValues {
  readonly resourceType: InviteRole;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  /** An AccessPolicy id, or '' for none (a patient then gets the project's default patient policy). */
  readonly accessPolicy: string;
  readonly admin: boolean;
  readonly sendEmail: boolean;
}

export const EMPTY_INVITE: InviteValues = {
  resourceType: 'Practitioner',
  firstName: '',
  lastName: '',
  email: '',
  accessPolicy: '',
  admin: false,
  sendEmail: true,
};

/** The server's limit on a name (src/server/admin/invite.ts). */
const MAX_NAME = 128;

function nameProblem(value: string, label: string): string | undefined {
  if (value.trim() === '') return `${label} is required`;
  if (value.trim().length > MAX_NAME) return `${label} must be at most ${MAX_NAME} characters`;
  return undefined;
}

/** The problems by field, empty when the form may be sent. */
export function validateInvite(values: InviteValues): Partial<Record<InviteField, string>> {
  const problems: Partial<Record<InviteField, string>> = {
    firstName: nameProblem(values.firstName, 'First name'),
    lastName: nameProblem(values.lastName, 'Last name'),
    email: validateEmail(values.email),
  };
  return Object.fromEntries(Object.entries(problems).filter(([, text]) => text !== undefined));
}

export function inviteBody(values: InviteValues): InviteRequest {
  return {
    resourceType: values.resourceType,
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    sendEmail: values.sendEmail,
    membership: {
      ...(values.accessPolicy ? { accessPolicy: { reference: `AccessPolicy/${values.accessPolicy}` } } : {}),
      ...(values.admin ? { admin: true } : {}),
    },
  };
}

/** The policy choices: named ones by name, an unnamed one by its id. */
export function policyOptions(
  list: readonly ({ id: string | null; name: string | null } | null)[] | null | undefined,
): { id: string; label: string }[] {
  return (list ?? []).flatMap((policy) =>
    policy?.id ? [{ id: policy.id, label: policy.name?.trim() || `AccessPolicy ${policy.id}` }] : [],
  );
}
