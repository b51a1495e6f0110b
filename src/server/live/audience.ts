// Who a live subscription speaks for, and what of a new version it may receive: the
// criteria must match, and the subscriber's access rules apply exactly as to a read (project,
// patient compartment, access policy), so a patient's subscription never sees another patient's
// resources. Secret fields are removed as the repository removes them from reads.
import type { Resource } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../fhir/search';
import { canSee, secretFields } from '../access/access-control';
import type { RepositoryContext } from '../repo';
import { compartmentsOf, matchesCriteria } from './criteria-match';
import type { MatchTarget } from './criteria-match';

export interface LiveAudience {
  context: RepositoryContext;
  criteria: SearchRequest;
}

/** The version as this audience may receive it, or undefined when it does not match or is not theirs to see. */
export function deliverableTo(audience: LiveAudience, target: MatchTarget): Resource | undefined {
  const resource = target.resource;
  const meta = resource.meta as { project?: string } | undefined;
  const visible = canSee(audience.context, {
    resourceType: resource.resourceType,
    id: resource.id ?? '',
    project: meta?.project,
    compartments: compartmentsOf(resource),
  });
  if (!visible || !matchesCriteria(audience.criteria, target)) {
    return undefined;
  }
  const secrets = secretFields(resource.resourceType);
  if (!secrets) {
    return resource;
  }
  const copy: Record<string, unknown> = { ...resource };
  for (const field of secrets) delete copy[field];
  return copy as unknown as Resource;
}
