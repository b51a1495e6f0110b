// Who a live subscription speaks for, and what of a new version it may receive: the
// criteria must match, and the subscriber's AccessPolicy applies exactly as to a read by id (the
// same per-resource decision, repo/policy-match.ts), so a patient's subscription never sees another
// patient's resources. Secrets and the policy's hidden fields are removed as the repository
// removes them from reads.
import type { Resource } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../fhir/search';
import type { RepositoryContext } from '../repo';
import { entryFor, redactFor } from '../repo/policy-match';
import { matchesCriteria } from './criteria-match';
import type { MatchTarget } from './criteria-match';

export interface LiveAudience {
  context: RepositoryContext;
  criteria: SearchRequest;
}

/** The version as this audience may receive it, or undefined when it does not match or is not theirs to see. */
export function deliverableTo(audience: LiveAudience, target: MatchTarget): Resource | undefined {
  const resource = target.resource;
  if (!matchesCriteria(audience.criteria, target) || !entryFor(audience.context, resource, 'read')) {
    return undefined;
  }
  return redactFor(audience.context, resource);
}
