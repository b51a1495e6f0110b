// A membership's access as one policy, the way Medplum's server builds it: every policy the
// membership names (`accessPolicy`, then each `access[]` entry) with its parameters substituted
// (`%profile`, `%patient` — the profile unless given — and named ones), their resource entries
// concatenated (a resource is allowed when any entry allows it), the last compartment winning, the IP
// rules gathered. Pure: the identity layer reads the AccessPolicy resources and hands them in.
import type {
  AccessPolicy,
  AccessPolicyIpAccessRule,
  AccessPolicyResource,
  ProjectMembershipAccessParameter,
  Reference,
} from '@medplum/fhirtypes';

export type AccessInteraction = 'read' | 'vread' | 'update' | 'delete' | 'history' | 'create' | 'search';

/** What `readonly: true` allows when an entry lists no `interaction`. */
export const READ_INTERACTIONS: readonly AccessInteraction[] = ['read', 'vread', 'history', 'search'];

/** An AccessPolicy whose resource list is always present: the combined policy of one membership. */
export interface PopulatedAccessPolicy extends AccessPolicy {
  resource: AccessPolicyResource[];
}

/** One policy a membership names, with the parameters it is given. */
export interface PolicyGrant {
  policy: AccessPolicy;
  parameter?: ProjectMembershipAccessParameter[];
}

/** Types only ever granted by name: a `*` entry never covers them (Medplum's project admin types). */
export const NAMED_ONLY_TYPES: ReadonlySet<string> = new Set([
  'PasswordChangeRequest',
  'UserSecurityRequest',
  'Project',
  'ProjectMembership',
  'User',
]);

/** Definitions every member reads, as Medplum grants them when a policy does not name them. */
const DEFAULT_READABLE_TYPES = ['SearchParameter', 'StructureDefinition'];

/**
 * The combined policy of a membership's grants. No grant at all is Medplum's legacy "everything"
 * (`*`); the caller decides whether a membership may have none (a patient's falls back to the
 * project's default patient policy instead).
 */
export function combinePolicies(grants: readonly PolicyGrant[], profile: Reference): PopulatedAccessPolicy {
  const resource: AccessPolicyResource[] = [];
  const ipAccessRule: AccessPolicyIpAccessRule[] = [];
  let compartment: Reference | undefined;
  for (const grant of grants) {
    const policy = substituteParameters(grant.policy, grant.parameter ?? [], profile);
    compartment = policy.compartment ?? compartment;
    for (const entry of policy.resource ?? []) {
      resource.push(
        !entry.interaction && entry.readonly ? { ...entry, interaction: [...READ_INTERACTIONS] } : entry,
      );
    }
    ipAccessRule.push(...(policy.ipAccessRule ?? []));
  }
  if (grants.length === 0) {
    resource.push({ resourceType: '*' });
  }
  for (const resourceType of DEFAULT_READABLE_TYPES) {
    if (!resource.some((entry) => entry.resourceType === resourceType)) {
      resource.push({ resourceType, readonly: true, interaction: [...READ_INTERACTIONS] });
    }
  }
  return {
    resourceType: 'AccessPolicy',
    basedOn: grants.flatMap((grant) =>
      grant.policy.id ? [{ reference: `AccessPolicy/${grant.policy.id}` }] : [],
    ),
    compartment,
    resource,
    ipAccessRule: ipAccessRule.length > 0 ? ipAccessRule : undefined,
  };
}

/**
 * The policy with `%name` (and `%name.id` for references) replaced by its parameter's value
 * wherever it appears; `%profile` is the signed-in profile and `%patient` defaults to it.
 */
export function substituteParameters(
  policy: AccessPolicy,
  parameters: readonly ProjectMembershipAccessParameter[],
  profile: Reference,
): AccessPolicy {
  const all = [...parameters, { name: 'profile', valueReference: profile }];
  if (!parameters.some((p) => p.name === 'patient')) {
    all.push({ name: 'patient', valueReference: profile });
  }
  // Longest names first, so `%patientOrg` is not read as `%patient` followed by `Org`.
  all.sort((a, b) => (b.name?.length ?? 0) - (a.name?.length ?? 0));
  let json = JSON.stringify(policy);
  for (const parameter of all) {
    if (!parameter.name) {
      continue;
    }
    const name = `%${parameter.name}`;
    if (parameter.valueString !== undefined) {
      json = json.replaceAll(name, escapeJson(parameter.valueString));
    } else if (parameter.valueReference?.reference) {
      const reference = parameter.valueReference.reference;
      json = json.replaceAll(`${name}.id`, escapeJson(reference.slice(reference.indexOf('/') + 1)));
      json = json.replaceAll(name, escapeJson(reference));
    }
  }
  return JSON.parse(json) as AccessPolicy;
}

/** A value placed inside a JSON string literal. */
function escapeJson(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * The entries that may allow an interaction on a type, before looking at any resource: those naming
 * the type (or `*`, except for the named-only types) whose `interaction` lists it, or, without
 * `interaction`, every interaction unless `readonly`.
 */
export function entriesFor(
  policy: PopulatedAccessPolicy,
  resourceType: string,
  interaction: AccessInteraction,
): AccessPolicyResource[] {
  return policy.resource.filter(
    (entry) =>
      (entry.resourceType === resourceType ||
        (entry.resourceType === '*' && !NAMED_ONLY_TYPES.has(resourceType))) &&
      (entry.interaction
        ? (entry.interaction as string[]).includes(interaction)
        : !entry.readonly || READ_INTERACTIONS.includes(interaction)),
  );
}
