// AccessPolicy entries for FHIRcast (topic-access.ts): only the type and its interactions mean
// something. A FHIRcast topic is no resource, so there is nothing a search `criteria`, a
// `compartment`, field rules or a writeConstraint could be evaluated on, and Medplum's hub has no
// such semantics either. Rather than ignore them silently (a policy that looks narrower than it
// is), a policy naming them is refused when it is written.
import type { AccessPolicy, Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../fhir/outcomes';
import { FHIRCAST_POLICY_TYPE } from './topic-access';

/** The entry fields a FHIRcast entry may not carry. */
const UNSUPPORTED = ['criteria', 'compartment', 'hiddenFields', 'readonlyFields', 'writeConstraint'] as const;

/** Throws a 400 OperationOutcome naming the first FHIRcast entry field that would be ignored. */
export function checkFhircastEntries(resource: Resource): void {
  if (resource.resourceType !== 'AccessPolicy') return;
  (resource as AccessPolicy).resource?.forEach((entry, index) => {
    if (entry.resourceType !== FHIRCAST_POLICY_TYPE) return;
    const field = UNSUPPORTED.find((name) => entry[name] !== undefined);
    if (!field) return;
    throw new OperationOutcomeError({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'not-supported',
          details: {
            text:
              `AccessPolicy.resource[${index}]: ${field} is not supported for ${FHIRCAST_POLICY_TYPE}: ` +
              'a FHIRcast entry grants topics by interaction only (read, create)',
          },
          expression: [`AccessPolicy.resource[${index}].${field}`],
        },
      ],
    });
  });
}
