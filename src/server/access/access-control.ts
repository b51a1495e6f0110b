// Who may see and write what: a fixed code layer (project isolation, secrets, the platform's own
// identity types, a project admin's rights) under the caller's combined AccessPolicy (policy.ts),
// which decides everything else as data, as Medplum's server does. The Repository asks these rules
// on every path and turns a refusal into 404 (the caller must not learn that the resource exists) or
// 403 (a write the caller knowingly asked for). A leaf module: it imports no other server module, so
// repo/ and search/ both depend on it and not on each other; the one thing it cannot do itself,
// matching a resource against a criteria search, is handed in by the caller (repo/policy-match.ts).
// Absent access is the server's own work and is never restricted.
import type { AccessPolicyResource, Resource } from '@medplum/fhirtypes';
import type { AccessContext, RepositoryContext } from './context';
import { entriesFor } from './policy';
import type { AccessInteraction, PopulatedAccessPolicy } from './policy';

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

/** Identity bookkeeping that only the server's own flows touch, whatever a policy says. */
const SERVER_ONLY: ReadonlySet<string> = new Set([
  'Login',
  'JsonWebKey',
  'DomainConfiguration',
  'UserSecurityRequest',
  'PasswordChangeRequest',
]);

/** What only a project admin manages (a policy naming them grants nothing to other members). */
const ADMIN_ONLY: ReadonlySet<string> = new Set(['User', 'ProjectMembership', 'ClientApplication']);

/** Readable by members as their policy allows, written only by admins (Project: super admins). */
const MEMBER_READ_ONLY: ReadonlySet<string> = new Set(['Project', 'AccessPolicy', 'Bot']);

/**
 * A project admin's entries, added to the policy as Medplum's applyProjectAdminAccessPolicy adds
 * them (project isolation, a fixed rule here, stands for its `_project=` criteria): the project's
 * memberships (never moved to another project or user), clients, policies and bots; its users and
 * the Project itself read-only (the sign-in flows and super admins write them).
 */
const PROJECT_ADMIN_ENTRIES: readonly AccessPolicyResource[] = [
  { resourceType: 'ProjectMembership', readonlyFields: ['project', 'user'] },
  { resourceType: 'ClientApplication' },
  { resourceType: 'AccessPolicy' },
  { resourceType: 'Bot' },
  {
    resourceType: 'User',
    hiddenFields: ['passwordHash', 'mfaSecret'],
    interaction: ['read', 'vread', 'history', 'search'],
  },
  { resourceType: 'Project', interaction: ['read', 'vread', 'history', 'search'] },
];

/** A member (not a patient) reads the Project it belongs to (project isolation keeps it to that one). */
const MEMBER_PROJECT_ENTRY: AccessPolicyResource = {
  resourceType: 'Project',
  interaction: ['read', 'vread', 'history', 'search'],
};

/** Secrets that only the server's own code reads or writes. */
const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  User: ['passwordHash', 'mfaSecret'],
};

export type Refusal = 'not-found' | 'forbidden';

export interface TypeRights {
  /** Any read interaction (read or search): whether lists of the type may hold anything. */
  read: boolean;
  search: boolean;
  readById: boolean;
  vread: boolean;
  history: boolean;
  create: boolean;
  /** Update or patch: which resources, the policy's entries decide one by one. */
  update: boolean;
  delete: boolean;
  /** How a refused write of this type answers: patients never learn platform types exist. */
  refusal: Refusal;
}

const ALL: TypeRights = {
  read: true,
  search: true,
  readById: true,
  vread: true,
  history: true,
  create: true,
  update: true,
  delete: true,
  refusal: 'forbidden',
};

/** True when nothing is restricted: the server's own work or a super admin. */
export function isUnrestricted(access: AccessContext | undefined): access is undefined {
  return !access || access.superAdmin;
}

const withAdminEntries = new WeakMap<PopulatedAccessPolicy, PopulatedAccessPolicy>();

/**
 * The policy the caller acts under: the membership's combined policy, plus a project admin's
 * entries (and, for everyone else, without entries naming admin-only types).
 */
export function effectivePolicy(access: AccessContext): PopulatedAccessPolicy {
  const policy = access.policy;
  let effective = withAdminEntries.get(policy);
  if (!effective) {
    const added = access.projectAdmin
      ? PROJECT_ADMIN_ENTRIES
      : access.patientCompartment
        ? []
        : [MEMBER_PROJECT_ENTRY];
    const own = policy.resource.filter(
      (entry) => !added.some((admin) => admin.resourceType === entry.resourceType),
    );
    effective = added.length === 0 ? policy : { ...policy, resource: [...own, ...added] };
    withAdminEntries.set(policy, effective);
  }
  return effective;
}

/** Whether the fixed layer lets this caller do an interaction on a type at all. */
function fixedLayerAllows(
  access: AccessContext,
  resourceType: string,
  interaction: AccessInteraction,
): boolean {
  if (SERVER_ONLY.has(resourceType)) {
    return false;
  }
  if (access.projectAdmin) {
    return true;
  }
  if (ADMIN_ONLY.has(resourceType)) {
    return false;
  }
  return !MEMBER_READ_ONLY.has(resourceType) || READ_ONLY_INTERACTIONS.has(interaction);
}

const READ_ONLY_INTERACTIONS: ReadonlySet<AccessInteraction> = new Set([
  'read',
  'vread',
  'history',
  'search',
]);

/** The entries that may allow an interaction on a type once the fixed layer allows it (Medplum's shallow match). */
export function candidateEntries(
  access: AccessContext,
  resourceType: string,
  interaction: AccessInteraction,
): AccessPolicyResource[] {
  if (!fixedLayerAllows(access, resourceType, interaction)) {
    return [];
  }
  return entriesFor(effectivePolicy(access), resourceType, interaction);
}

/** What the caller may do with resources of a type, before looking at any particular resource. */
export function typeRights(access: AccessContext | undefined, resourceType: string): TypeRights {
  if (isUnrestricted(access)) {
    return ALL;
  }
  const may = (interaction: AccessInteraction): boolean =>
    candidateEntries(access, resourceType, interaction).length > 0;
  const search = may('search');
  const readById = may('read');
  return {
    read: search || readById,
    search,
    readById,
    vread: may('vread'),
    history: may('history'),
    create: may('create'),
    update: may('update'),
    delete: may('delete'),
    // A patient never learns that the platform's own types exist.
    refusal: access.patientCompartment && PLATFORM_TYPES.has(resourceType) ? 'not-found' : 'forbidden',
  };
}

/** Where a stored resource lives: its `project` column and `compartments` (also meta.project / meta.compartment). */
export interface ResourcePlacement {
  resourceType: string;
  id: string;
  project: string | null | undefined;
  compartments: readonly string[];
}

/** The fixed layer on one resource: same project (super admins: any), and a Project only the caller's own. */
function inCallersProject(context: RepositoryContext, placement: ResourcePlacement): boolean {
  if (!context.project || placement.project !== context.project) {
    return false;
  }
  return placement.resourceType !== 'Project' || placement.id === context.project;
}

/**
 * Whether a resource matches an entry's criteria search (evaluated as the system: no access rules
 * inside), handed in by the caller because matching needs the search engine.
 */
export type CriteriaMatcher = (criteria: string, resource: Resource) => boolean;

/** What nothing restricts: the server's own work and super admins satisfy this entry. */
export const UNRESTRICTED_ENTRY: AccessPolicyResource = Object.freeze({ resourceType: '*' });

/**
 * The first entry of the caller's policy that allows `interaction` on this resource (Medplum's
 * satisfiedAccessPolicy): the type and interaction match, the resource is in the entry's compartment
 * and matches its criteria; undefined when none does or the fixed layer refuses. The resource's
 * compartments are the placement's (the stored row's, or the new version's).
 */
export function satisfiedEntry(
  context: RepositoryContext,
  placement: ResourcePlacement,
  resource: Resource,
  interaction: AccessInteraction,
  matches: CriteriaMatcher,
): AccessPolicyResource | undefined {
  const access = context.access;
  if (isUnrestricted(access)) {
    return UNRESTRICTED_ENTRY;
  }
  if (!inCallersProject(context, placement)) {
    return undefined;
  }
  return candidateEntries(access, placement.resourceType, interaction).find(
    (entry) =>
      (!entry.compartment?.reference || placement.compartments.includes(entry.compartment.reference)) &&
      (!entry.criteria || matches(entry.criteria, resource)),
  );
}

/**
 * Whether the caller may see this resource at all, judged on its placement alone: the fixed layer,
 * and some read entry whose compartment holds it. Criteria need the resource (satisfiedEntry); this
 * is the cheap first cut for paths that add criteria as SQL.
 */
export function canSee(context: RepositoryContext, placement: ResourcePlacement): boolean {
  const access = context.access;
  if (isUnrestricted(access)) {
    return true;
  }
  if (!inCallersProject(context, placement)) {
    return false;
  }
  return [
    ...candidateEntries(access, placement.resourceType, 'read'),
    ...candidateEntries(access, placement.resourceType, 'search'),
  ].some(
    (entry) => !entry.compartment?.reference || placement.compartments.includes(entry.compartment.reference),
  );
}

/** The fields of a resource type that only the server's own code sees, if any. */
export function secretFields(resourceType: string): readonly string[] | undefined {
  return SECRET_FIELDS[resourceType];
}
