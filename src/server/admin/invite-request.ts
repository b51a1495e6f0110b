// Reading the body of POST admin/projects/{projectId}/invite: Medplum's InviteRequest
// (@medplum/core), every field checked for type and size; each refusal is a 400 whose expression
// names the field. The deprecated top-level accessPolicy, access, admin and externalId are merged
// under membership.* as Medplum does, the membership's own value winning.
import type {
  AccessPolicy,
  Identifier,
  Patient,
  ProjectMembership,
  ProjectMembershipAccess,
  ProjectMembershipAccessParameter,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { checkNewPassword } from '../auth/passwords';
import type { Fields } from '../auth/request-fields';
import {
  fieldError,
  optionalBoolean,
  optionalString,
  requiredEmail,
  requiredString,
} from '../auth/request-fields';

export const PROFILE_TYPES = ['Patient', 'Practitioner', 'RelatedPerson'] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

/** What the invite may set on the membership; project and user are the server's to choose. */
export type MembershipTemplate = Partial<
  Pick<
    ProjectMembership,
    'profile' | 'accessPolicy' | 'access' | 'admin' | 'externalId' | 'identifier' | 'active'
  >
>;

export interface InviteRequest {
  resourceType: ProfileType;
  firstName: string;
  lastName: string;
  /** Lower-cased, as Medplum stores it. */
  email?: string;
  /** Medplum: a User invited by externalId belongs to the project; the id is kept on the membership. */
  externalId?: string;
  /** The Patient a new RelatedPerson relates to. */
  patient?: Reference<Patient>;
  scope?: 'project' | 'server';
  password?: string;
  sendEmail: boolean;
  upsert: boolean;
  forceNewMembership: boolean;
  membership: MembershipTemplate;
}

const MEMBERSHIP_FIELDS: readonly string[] = [
  'profile',
  'accessPolicy',
  'access',
  'admin',
  'externalId',
  'identifier',
  'active',
];
/** Top-level fields Medplum still reads in place of membership.* (deprecated there). */
type DeprecatedField = 'accessPolicy' | 'access' | 'admin' | 'externalId';
/** A membership names a handful of policies and identifiers; more is a mistake, not a use. */
const MAX_ENTRIES = 20;
const ID = '[A-Za-z0-9\\-.]{1,64}';
const POLICY_REFERENCE = new RegExp(`^AccessPolicy/${ID}$`);
const PATIENT_REFERENCE = new RegExp(`^Patient/${ID}$`);
const PROFILE_REFERENCE = new RegExp(`^(${PROFILE_TYPES.join('|')})/${ID}$`);
/** A parameter's name as it appears after `%` in a policy: never `profile`, which the server sets. */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const LITERAL_REFERENCE = new RegExp(`^[A-Z][A-Za-z]{1,63}/${ID}$`);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readInviteRequest(fields: Fields): InviteRequest {
  const resourceType = optionalString(fields, 'resourceType', 32);
  if (!(PROFILE_TYPES as readonly (string | undefined)[]).includes(resourceType)) {
    throw fieldError(`resourceType must be one of ${PROFILE_TYPES.join(', ')}`, 'resourceType');
  }
  const firstName = requiredString(fields, 'firstName', 'First name', 128);
  const lastName = requiredString(fields, 'lastName', 'Last name', 128);
  const externalId = optionalString(fields, 'externalId');
  const hasEmail = fields.email !== undefined && fields.email !== null && fields.email !== '';
  if (!hasEmail && externalId === undefined) {
    throw fieldError('Either email or externalId is required', 'email');
  }
  const email = hasEmail ? requiredEmail(fields).toLowerCase() : undefined;
  const password = optionalString(fields, 'password', 1024);
  const passwordProblem = password === undefined ? undefined : checkNewPassword(password);
  if (passwordProblem) {
    throw fieldError(passwordProblem, 'password');
  }
  const scope = fields.scope;
  if (scope !== undefined && scope !== 'project' && scope !== 'server') {
    throw fieldError("scope must be 'project' or 'server'", 'scope');
  }
  if (optionalBoolean(fields, 'mfaRequired') === true) {
    // Bloom has no enforced enrolment at first sign-in: refuse rather than pretend.
    throw fieldError(
      'mfaRequired is not supported: the invited person turns on MFA in their account',
      'mfaRequired',
    );
  }
  return {
    resourceType: resourceType as ProfileType,
    firstName,
    lastName,
    email,
    externalId,
    patient: readReference(
      fields.patient,
      'patient',
      PATIENT_REFERENCE,
      'Patient must be a reference to a Patient resource',
    ),
    scope,
    password,
    sendEmail: optionalBoolean(fields, 'sendEmail') ?? true,
    upsert: optionalBoolean(fields, 'upsert') ?? false,
    forceNewMembership: optionalBoolean(fields, 'forceNewMembership') ?? false,
    membership: readMembership(fields),
  };
}

function readMembership(fields: Fields): MembershipTemplate {
  const membership = fields.membership ?? {};
  if (!isObject(membership)) {
    throw fieldError('membership must be an object', 'membership');
  }
  for (const name of Object.keys(membership)) {
    if (!MEMBERSHIP_FIELDS.includes(name)) {
      throw fieldError(`membership.${name} cannot be set by an invite`, `membership.${name}`);
    }
  }
  // Where each value comes from: membership.* when present, else the deprecated top-level field.
  const source = (name: DeprecatedField): [Fields, string] =>
    membership[name] !== undefined ? [membership, `membership.${name}`] : [fields, name];
  const [policyFields, policyField] = source('accessPolicy');
  const [accessFields, accessField] = source('access');
  const [adminFields, adminField] = source('admin');
  const [externalFields, externalField] = source('externalId');
  const template: MembershipTemplate = {
    profile: readReference(
      membership.profile,
      'membership.profile',
      PROFILE_REFERENCE,
      `membership.profile must reference a ${PROFILE_TYPES.join(', ')}`,
    ),
    accessPolicy: readReference(
      policyFields.accessPolicy,
      policyField,
      POLICY_REFERENCE,
      `${policyField} must reference an AccessPolicy`,
    ),
    access: readAccess(accessFields.access, accessField),
    admin: readBoolean(adminFields.admin, adminField),
    externalId: readText(externalFields.externalId, externalField),
    identifier: readIdentifiers(membership.identifier, 'membership.identifier'),
    active: readBoolean(membership.active, 'membership.active'),
  };
  return Object.fromEntries(
    Object.entries(template).filter(([, value]) => value !== undefined),
  ) as MembershipTemplate;
}

function readBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw fieldError(`${field} must be true or false`, field);
  return value;
}

function readText(value: unknown, field: string, maxLength = 256): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > maxLength) {
    throw fieldError(`${field} must be a string of at most ${maxLength} characters`, field);
  }
  return value;
}

function readReference<T extends Resource>(
  value: unknown,
  field: string,
  pattern: RegExp,
  message: string,
): Reference<T> | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  const reference = isObject(value) ? value.reference : undefined;
  if (typeof reference !== 'string' || !pattern.test(reference)) {
    throw fieldError(message, field);
  }
  return { reference };
}

function readIdentifiers(value: unknown, field: string): Identifier[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_ENTRIES) {
    throw fieldError(`${field} must be an array of at most ${MAX_ENTRIES} identifiers`, field);
  }
  return value.map((entry: unknown, index): Identifier => {
    const at = `${field}[${index}]`;
    const { system, value: text, ...rest } = isObject(entry) ? entry : { invalid: true };
    if (Object.keys(rest).length > 0 || typeof text !== 'string' || text === '' || text.length > 256) {
      throw fieldError(`${at} must be an identifier with a value (and an optional system)`, at);
    }
    const systemText = readText(system, `${at}.system`, 1024);
    return systemText ? { system: systemText, value: text } : { value: text };
  });
}

/** ProjectMembership.access as Medplum defines it: each entry a policy and its parameters. */
function readAccess(value: unknown, field: string): ProjectMembershipAccess[] | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!Array.isArray(value) || value.length > MAX_ENTRIES) {
    throw fieldError(`${field} must be an array of at most ${MAX_ENTRIES} entries`, field);
  }
  return value.map((entry: unknown, index): ProjectMembershipAccess => {
    const at = `${field}[${index}]`;
    if (!isObject(entry)) {
      throw fieldError(`${at} must be an object with a policy`, at);
    }
    const { policy, parameter, ...rest } = entry;
    const unknownField = Object.keys(rest)[0];
    if (unknownField !== undefined) {
      throw fieldError(
        `${at}.${unknownField} is not a field of ProjectMembership.access`,
        `${at}.${unknownField}`,
      );
    }
    const policyRef = readReference<AccessPolicy>(
      policy,
      `${at}.policy`,
      POLICY_REFERENCE,
      `${at}.policy must reference an AccessPolicy`,
    );
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
  if (!Array.isArray(value) || value.length > MAX_ENTRIES) {
    throw fieldError(`${field} must be an array of at most ${MAX_ENTRIES} parameters`, field);
  }
  return value.map((item: unknown, index): ProjectMembershipAccessParameter => {
    const at = `${field}[${index}]`;
    const { name, valueString, valueReference, ...rest } = isObject(item) ? item : { invalid: true };
    if (Object.keys(rest).length > 0 || typeof name !== 'string' || !PARAMETER_NAME.test(name)) {
      throw fieldError(`${at} must be a parameter with a name and a valueString or valueReference`, at);
    }
    if (name === 'profile') {
      throw fieldError(`${at}: %profile is the signed-in profile and cannot be given`, `${at}.name`);
    }
    const reference = isObject(valueReference) ? valueReference.reference : undefined;
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
