// Who may see and write what. Pure rules over
// an AccessContext: the Repository asks them on every path, and turns a refusal into 404 (the
// caller must not learn that the resource exists) or 403 (a write the caller knowingly asked for);
// search turns them into SQL conditions of the same query. A leaf module: it imports no other server
// module, so repo/ and search/ both depend on it and not on each other.
// Absent access is the server's own work and is never restricted.
import type { AccessPolicyResource } from '@medplum/fhirtypes';
import type { AccessContext, RepositoryContext } from './context';

/** Medplum's platform resource types: never a patient's, mostly an administrator's. */
export const PLATFORM_TYPES: ReadonlySet<string> = new Set([
  'AccessPolicy',
  'Agent',
  'AsyncJob',
  'Bot',
  'BulkDataExport',
  'ClientApplication',
  'DomainConfiguration',
  'JsonWebKey',
  'Login',
  'PasswordChangeRequest',
  'Project',
  'ProjectMembership',
  'SmartAppLaunch',
  'User',
  'UserConfiguration',
  'UserSecurityRequest',
]);

/** Identity bookkeeping a practitioner never touches (404 on read, 403 on write). */
const HIDDEN_FROM_MEMBERS: ReadonlySet<string> = new Set([
  'User',
  'Login',
  'ProjectMembership',
  'ClientApplication',
  'JsonWebKey',
  'UserSecurityRequest',
  'PasswordChangeRequest',
  'DomainConfiguration',
]);

/** What a project admin manages on top of a practitioner's rights. */
const ADMIN_MANAGED: ReadonlySet<string> = new Set([
  'ProjectMembership',
  'ClientApplication',
  'AccessPolicy',
  'Bot',
]);

/** Readable by admins (their project's users, hashes stripped) but written only by the sign-in flows. */
const ADMIN_READ_ONLY: ReadonlySet<string> = new Set(['User']);

/** Readable by members, written only by admins (or, for Project, super admins). */
const MEMBER_READ_ONLY: ReadonlySet<string> = new Set(['Project', 'AccessPolicy', 'Bot']);

/**
 * What a patient may create, within their own compartment (SPEC §6); Subscription for her live
 * updates, placed in her compartment as its author (repository.ts prepareVersion);
 * Binary for a message's attachment, placed in her compartment by its securityContext;
 * QuestionnaireResponse for her answers to the clinic's forms, about herself only.
 */
const PATIENT_CREATABLE: ReadonlySet<string> = new Set([
  'Communication',
  'Observation',
  'Subscription',
  'Binary',
  'QuestionnaireResponse',
]);

/** Secrets that only the server's own code reads or writes. */
const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  User: ['passwordHash', 'mfaSecret'],
};

export type Refusal = 'not-found' | 'forbidden';

export interface TypeRights {
  read: boolean;
  create: boolean;
  /**
   * Update or patch (a patient: her own Patient, or a type whose policy entry has writeConstraints,
   * which are checked per resource).
   */
  update: boolean;
  delete: boolean;
  /** How a refused write of this type answers: patients never learn platform types exist. */
  refusal: Refusal;
}

const ALL: TypeRights = { read: true, create: true, update: true, delete: true, refusal: 'forbidden' };
const NONE_HIDDEN: TypeRights = {
  read: false,
  create: false,
  update: false,
  delete: false,
  refusal: 'not-found',
};
const NONE_FORBIDDEN: TypeRights = { ...NONE_HIDDEN, refusal: 'forbidden' };
const READ_ONLY: TypeRights = { ...NONE_FORBIDDEN, read: true };

/** True when nothing is restricted: the server's own work or a super admin. */
export function isUnrestricted(access: AccessContext | undefined): access is undefined {
  return !access || access.superAdmin;
}

/** The AccessPolicy's entry for a type (or its '*' entry), if the policy lists one. */
export function policyEntry(access: AccessContext, resourceType: string): AccessPolicyResource | undefined {
  return access.accessPolicy?.resource?.find(
    (e) => e.resourceType === resourceType || e.resourceType === '*',
  );
}

/** The AccessPolicy's resource list, when it has one: read and write allow-lists that only narrow. */
function policyAllows(access: AccessContext, resourceType: string): { read: boolean; write: boolean } {
  const entries = access.accessPolicy?.resource;
  if (!entries || entries.length === 0) {
    return { read: true, write: true };
  }
  const entry = policyEntry(access, resourceType);
  return entry ? { read: true, write: entry.readonly !== true } : { read: false, write: false };
}

/**
 * A patient updates a type other than her Patient only where her policy says which updates, with
 * writeConstraints (the demo policy: a thread header she is the subject of, which Medplum's
 * ThreadChat PATCHes after each message). A writable entry without them still means create-only.
 */
function patientUpdatable(access: AccessContext, resourceType: string): boolean {
  return resourceType === 'Patient' || (policyEntry(access, resourceType)?.writeConstraint?.length ?? 0) > 0;
}

/** What the caller may do with resources of a type, before looking at any particular resource. */
export function typeRights(access: AccessContext | undefined, resourceType: string): TypeRights {
  if (isUnrestricted(access)) {
    return ALL;
  }
  if (access.patientCompartment) {
    if (PLATFORM_TYPES.has(resourceType)) {
      return NONE_HIDDEN;
    }
    const policy = policyAllows(access, resourceType);
    return {
      read: policy.read,
      create: policy.write && PATIENT_CREATABLE.has(resourceType),
      update: policy.write && patientUpdatable(access, resourceType),
      delete: false,
      refusal: 'forbidden',
    };
  }
  const adminManaged = access.projectAdmin && ADMIN_MANAGED.has(resourceType);
  if (!adminManaged) {
    if (access.projectAdmin && ADMIN_READ_ONLY.has(resourceType)) {
      return READ_ONLY;
    }
    if (HIDDEN_FROM_MEMBERS.has(resourceType)) {
      return NONE_FORBIDDEN;
    }
    if (MEMBER_READ_ONLY.has(resourceType)) {
      return READ_ONLY;
    }
  }
  const policy = adminManaged ? { read: true, write: true } : policyAllows(access, resourceType);
  return policy.write ? ALL : policy.read ? READ_ONLY : NONE_FORBIDDEN;
}

/** Where a stored resource lives: its `project` column and `compartments` (also meta.project / meta.compartment). */
export interface ResourcePlacement {
  resourceType: string;
  id: string;
  project: string | null | undefined;
  compartments: readonly string[];
}

/**
 * Whether the caller may see this resource at all: same project (super admins: any), and for a
 * patient inside their compartment. Cheap field comparisons, for the cached read path too.
 */
export function canSee(context: RepositoryContext, placement: ResourcePlacement): boolean {
  const access = context.access;
  if (isUnrestricted(access)) {
    return true;
  }
  if (!typeRights(access, placement.resourceType).read) {
    return false;
  }
  if (!context.project || placement.project !== context.project) {
    return false;
  }
  if (placement.resourceType === 'Project' && placement.id !== context.project) {
    return false;
  }
  return (
    !access.patientCompartment ||
    !compartmentApplies(access, placement.resourceType) ||
    placement.compartments.includes(access.patientCompartment)
  );
}

/**
 * Whether a patient's reads of this type are limited to their compartment. A policy entry with
 * neither compartment nor criteria (the demo patient policy's read-only Practitioner, Schedule,
 * Slot…) grants the type project-wide: a patient must see the practitioners and slots they book.
 */
export function compartmentApplies(access: AccessContext, resourceType: string): boolean {
  const entry = policyEntry(access, resourceType);
  return !entry || entry.compartment !== undefined || entry.criteria !== undefined;
}

/**
 * SQL conditions that keep only what the caller may see, for lists and history (so paging stays
 * right). `alias` prefixes the columns; parameters are numbered from `firstParam`.
 */
export function visibilitySql(
  context: RepositoryContext,
  alias: string,
  firstParam: number,
  /** The type searched: a type the policy grants project-wide drops the compartment condition. */
  resourceType?: string,
): { where: string[]; params: string[] } {
  const access = context.access;
  if (isUnrestricted(access)) {
    return { where: [], params: [] };
  }
  const where = [`${alias}project = $${firstParam}`];
  const params = [context.project ?? ''];
  // A Project row's project is itself; the extra condition keeps any other Project out regardless.
  where.push(`(${alias}resource_type <> 'Project' OR ${alias}id = $${firstParam})`);
  if (access.patientCompartment && (!resourceType || compartmentApplies(access, resourceType))) {
    where.push(`${alias}compartments @> ARRAY[$${firstParam + 1}::text]`);
    params.push(access.patientCompartment);
  }
  return { where, params };
}

/** The same conditions on one stored version's content (a version may have lived elsewhere before). */
export function versionVisibilitySql(
  context: RepositoryContext,
  contentColumn: string,
  firstParam: number,
  resourceType?: string,
): { where: string[]; params: string[] } {
  const access = context.access;
  if (isUnrestricted(access)) {
    return { where: [], params: [] };
  }
  const where = [`(${contentColumn} IS NULL OR ${contentColumn}->'meta'->>'project' = $${firstParam})`];
  const params = [context.project ?? ''];
  if (access.patientCompartment && (!resourceType || compartmentApplies(access, resourceType))) {
    where.push(
      `(${contentColumn} IS NULL OR ${contentColumn}->'meta'->'compartment' @> $${firstParam + 1}::jsonb)`,
    );
    params.push(JSON.stringify([{ reference: access.patientCompartment }]));
  }
  return { where, params };
}

/**
 * A Patient other than the patient's own: never hers to update. Her updates of other types (only
 * those with writeConstraints) are judged by the constraints on the new version.
 */
export function isOtherPatient(access: AccessContext, resourceType: string, id: string): boolean {
  return resourceType === 'Patient' && access.patientCompartment !== `Patient/${id}`;
}

/** The fields of a resource type that only the server's own code sees, if any. */
export function secretFields(resourceType: string): readonly string[] | undefined {
  return SECRET_FIELDS[resourceType];
}
