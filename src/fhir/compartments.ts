// Patient compartments of a resource (stored in meta.compartment, SPEC §3): the Patients its
// Patient CompartmentDefinition params point at, found by evaluating those params' search
// expressions with fhirpath. A Patient is in its own compartment.
import type { Reference, Resource } from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import { getPatientCompartmentParams, getSearchParameter } from './definitions';
import { parseReference } from './references';

type Evaluator = (resource: Resource) => unknown[];

const compiled = new Map<string, Evaluator>();

/**
 * `.where(resolve() is Patient)` needs a resolver to load the target; for a literal reference the
 * type is in the reference itself, so test that instead.
 */
function withoutResolve(expression: string): string {
  return expression.replace(
    /\.where\(\s*resolve\(\)\s+is\s+([A-Za-z]+)\s*\)/g,
    (_match, type: string) => `.where(reference.startsWith('${type}/'))`,
  );
}

function getEvaluator(expression: string): Evaluator {
  let evaluator = compiled.get(expression);
  if (!evaluator) {
    const compiledExpression = fhirpath.compile(withoutResolve(expression), r4Model);
    evaluator = (resource) => compiledExpression(resource) as unknown[];
    compiled.set(expression, evaluator);
  }
  return evaluator;
}

function patientIdOf(value: unknown): string | undefined {
  const ref = typeof value === 'string' ? value : (value as { reference?: unknown } | null)?.reference;
  if (typeof ref !== 'string' || !ref.startsWith('Patient/')) {
    return undefined;
  }
  try {
    return parseReference(ref)[1];
  } catch {
    return undefined; // not a literal Patient/id reference (e.g. a search URL): not a compartment
  }
}

/** The Patient compartments a resource belongs to, as references 'Patient/id', without duplicates. */
export function getPatientCompartments(resource: Resource): Reference[] {
  const ids = new Set<string>();
  if (resource.resourceType === 'Patient' && resource.id) {
    ids.add(resource.id);
  }
  // Binary has no Patient CompartmentDefinition entry: as in Medplum, its securityContext (the
  // resource whose access governs it) places it, so a patient's uploads live in her compartment.
  if (resource.resourceType === 'Binary') {
    const id = patientIdOf(resource.securityContext);
    if (id) ids.add(id);
  }
  for (const code of getPatientCompartmentParams(resource.resourceType) ?? []) {
    const param = getSearchParameter(resource.resourceType, code);
    if (!param) {
      continue;
    }
    for (const value of getEvaluator(param.expression)(resource)) {
      const id = patientIdOf(value);
      if (id) ids.add(id);
    }
  }
  return [...ids].map((id) => ({ reference: `Patient/${id}` }));
}
