// The demo clinic's access, as an earlier Bloom seeded it, becomes the current one on the next start:
// the patient AccessPolicy becomes buildPatientAccessPolicy (criteria, interactions and
// writeConstraints as Medplum defines them), and Dr. Chen's and the admin's memberships, which
// earlier seeds left without any policy, get the clinic staff policy (and the admin policy). Only
// what a seed wrote is changed: the patient policy the demo Project names as
// defaultPatientAccessPolicy when its content is exactly an earlier seed's, and a demo account's
// membership whose content is exactly what an earlier seed wrote. The seed gives them no identifier
// of their own, so an admin's edit cannot be told from a seed by id or name; content that matches
// no earlier seed is therefore taken as an admin's and left as it is. The patient policy keeps its
// id, so the patients' memberships that refer to it follow.
import type {
  AccessPolicy,
  AccessPolicyResource,
  Project,
  ProjectMembership,
  Reference,
} from '@medplum/fhirtypes';
import { parseSearchRequest } from '../../fhir/search/parse';
import type { Repository } from '../repo';
import { DEMO_ACCOUNTS } from './demo';
import { withDemoAccess } from './demo-accounts';
import {
  buildAdminAccessPolicy,
  buildPatientAccessPolicy,
  buildPractitionerAccessPolicy,
  THREAD_HEADER_UPDATE,
} from './demo-policies';

/** The patient policy the seed wrote before policies were enforced as Medplum does (types only). */
function typeOnlySeedPolicy(): AccessPolicy {
  const compartment = { reference: '%patient' };
  const readonly = [
    'Appointment',
    'CarePlan',
    'Coverage',
    'DiagnosticReport',
    'DocumentReference',
    'Immunization',
    'Media',
    'MedicationRequest',
    'Specimen',
  ];
  const resource: AccessPolicyResource[] = [
    { resourceType: 'Patient', compartment },
    { resourceType: 'Observation', compartment },
    {
      resourceType: 'Communication',
      compartment,
      writeConstraint: [{ language: 'text/fhirpath', expression: THREAD_HEADER_UPDATE }],
    },
    { resourceType: 'Subscription', compartment },
    { resourceType: 'Binary', compartment },
    { resourceType: 'QuestionnaireResponse', compartment },
    ...readonly.map((resourceType) => ({ resourceType, compartment, readonly: true })),
    ...[
      'Practitioner',
      'Organization',
      'Location',
      'Schedule',
      'Slot',
      'Questionnaire',
      'HealthcareService',
    ].map((resourceType) => ({ resourceType, readonly: true })),
  ];
  return { resourceType: 'AccessPolicy', name: 'Bloom patient', compartment, resource };
}

/** Resource types each earlier seed lacked, newest first (from the seed's history). */
const ADDED_SINCE: readonly (readonly string[])[] = [
  ['QuestionnaireResponse', 'CarePlan', 'Coverage', 'Questionnaire', 'HealthcareService'],
  ['Binary'],
  ['Subscription'],
];

/** The patient policies earlier seeds wrote, newest first. */
export function earlierSeedPolicies(): AccessPolicy[] {
  const typeOnly = typeOnlySeedPolicy();
  let shape: AccessPolicy = {
    ...typeOnly,
    resource: (typeOnly.resource ?? []).map(({ writeConstraint: _dropped, ...entry }) => entry),
  };
  const shapes = [typeOnly, shape];
  for (const added of ADDED_SINCE) {
    shape = {
      ...shape,
      resource: (shape.resource ?? []).filter((e) => !added.includes(e.resourceType ?? '')),
    };
    shapes.push(shape);
  }
  return shapes;
}

/** Updates the demo Project's seeded patient policy when it is an earlier seed's; true when written. */
export async function upgradePatientAccessPolicy(repo: Repository, project: Project): Promise<boolean> {
  const match = /^AccessPolicy\/([A-Za-z0-9\-.]{1,64})$/.exec(
    project.defaultPatientAccessPolicy?.reference ?? '',
  );
  if (!match) {
    return false;
  }
  const stored = await repo.readResource<AccessPolicy>('AccessPolicy', match[1]).catch(() => undefined);
  if (!stored || stored.meta?.project !== project.id) {
    return false;
  }
  const { id, meta: _meta, ...content } = stored;
  const current = buildPatientAccessPolicy();
  if (sameJson(content, current) || !earlierSeedPolicies().some((shape) => sameJson(content, shape))) {
    return false;
  }
  await repo.updateResource<AccessPolicy>({ ...current, id });
  return true;
}

/** The fields an earlier seed wrote on a demo staff membership: no access of any kind. */
const EARLIER_STAFF_FIELDS = ['profile', 'project', 'resourceType', 'user'];

/**
 * Dr. Chen's and the admin's memberships as an earlier seed left them (no policy: everything)
 * get the clinic staff policy, and the admin also the admin policy, created for them in the
 * project. Returns how many memberships were written.
 */
export async function upgradeStaffMemberships(repo: Repository, project: Project): Promise<number> {
  const query = { project: `Project/${project.id}`, _count: '1000' };
  const memberships = (
    await repo.search<ProjectMembership>(parseSearchRequest({ resourceType: 'ProjectMembership', query }))
  ).resources;
  const upgrades: { membership: ProjectMembership; role: 'practitioner' | 'admin' }[] = [];
  for (const membership of memberships) {
    const account = DEMO_ACCOUNTS.find((a) => a.email === membership.user?.display);
    if (!account || account.role === 'patient' || membership.meta?.project !== project.id) {
      continue;
    }
    const { id: _id, meta: _meta, ...content } = membership;
    const expected =
      account.role === 'admin' ? [...EARLIER_STAFF_FIELDS, 'admin'].sort() : EARLIER_STAFF_FIELDS;
    const keys = Object.keys(content).sort();
    const seeded =
      sameJson(keys, expected) &&
      (account.role !== 'admin' || membership.admin === true) &&
      membership.profile?.reference?.startsWith(`${account.profileType}/`);
    if (seeded) {
      upgrades.push({ membership, role: account.role });
    }
  }
  if (upgrades.length === 0) {
    return 0;
  }
  const staffPolicy = await createPolicy(repo, buildPractitionerAccessPolicy());
  const adminPolicy = upgrades.some((u) => u.role === 'admin')
    ? await createPolicy(repo, buildAdminAccessPolicy())
    : staffPolicy;
  const patientPolicy = project.defaultPatientAccessPolicy ?? staffPolicy;
  for (const { membership, role } of upgrades) {
    await repo.updateResource(withDemoAccess(membership, role, { patientPolicy, staffPolicy, adminPolicy }));
  }
  return upgrades.length;
}

async function createPolicy(repo: Repository, policy: AccessPolicy): Promise<Reference<AccessPolicy>> {
  const stored = await repo.createResource(policy);
  return { reference: `AccessPolicy/${stored.id}`, display: stored.name };
}

/** Equal as JSON, whatever the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
