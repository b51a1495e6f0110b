// The demo clinic's patient AccessPolicy, as an earlier Bloom seeded it, becomes the current
// buildPatientAccessPolicy on the next start (the Communication writeConstraint that lets a patient
// update her thread header and write read receipts). Only the seed's own policy is written: the one
// the demo Project names as defaultPatientAccessPolicy, in the demo Project, whose content is
// exactly what an earlier seed wrote. The seed gives its policy no identifier of its own, so an
// admin's edit of it (or her own policy set as the default) cannot be told from a seed by id or
// name; content that matches no earlier seed is therefore taken as an admin's and left as it is.
// It keeps its id, so the memberships that refer to it follow.
import type { AccessPolicy, Project } from '@medplum/fhirtypes';
import type { Repository } from '../repo';
import { buildPatientAccessPolicy } from './demo-accounts';

/** Resource types each earlier seed lacked, newest first (from the seed's history). */
const ADDED_SINCE: readonly (readonly string[])[] = [
  ['QuestionnaireResponse', 'CarePlan', 'Coverage', 'Questionnaire', 'HealthcareService'],
  ['Binary'],
  ['Subscription'],
];

/** The policies earlier seeds wrote: the current one without writeConstraint, then each older one. */
export function earlierSeedPolicies(): AccessPolicy[] {
  const current = buildPatientAccessPolicy();
  let shape: AccessPolicy = {
    ...current,
    resource: (current.resource ?? []).map(({ writeConstraint: _dropped, ...entry }) => entry),
  };
  const shapes = [shape];
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
