// An AccessPolicy entry's `writeConstraint`s, as Medplum's server evaluates them: FHIRPath
// expressions over the resource as it will be stored, with `%before` (the current version, empty on
// a create) and `%after` (the new version); the write is allowed only when every one is `true`.
import type { AccessPolicyResource, Resource } from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import { OperationOutcomeError, badRequest } from '../../fhir';

type Constraint = (before: Resource | undefined, after: Resource) => unknown[];

const compiled = new Map<string, Constraint>();

function compile(expression: string): Constraint {
  let constraint = compiled.get(expression);
  if (!constraint) {
    let evaluate: ReturnType<typeof fhirpath.compile>;
    try {
      evaluate = fhirpath.compile(expression, r4Model);
    } catch (err) {
      // A policy is data an admin wrote: a broken expression refuses the write and says why.
      throw new OperationOutcomeError(
        badRequest(`Invalid AccessPolicy writeConstraint '${expression}': ${(err as Error).message}`),
      );
    }
    constraint = (before, after) => evaluate(after, { before: before ?? [], after }) as unknown[];
    compiled.set(expression, constraint);
  }
  return constraint;
}

/** True when the entry has no write constraints, or every one evaluates to exactly `true`. */
export function writeConstraintsHold(
  entry: AccessPolicyResource | undefined,
  before: Resource | undefined,
  after: Resource,
): boolean {
  return (entry?.writeConstraint ?? []).every(({ expression }) => {
    if (!expression) {
      return false;
    }
    const result = compile(expression)(before, after);
    return result.length === 1 && result[0] === true;
  });
}
