// Reading the query parameters of the FHIR operations: each given at most once, known by
// name (an unknown one is a 400, never silently ignored), numbers as whole numbers.
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { QueryParams } from '../fhir/paging';

/** Refuses parameters the operation does not know. */
export function checkKnownParams(query: QueryParams, known: readonly string[], operation: string): void {
  for (const name of Object.keys(query)) {
    if (!known.includes(name)) {
      throw new OperationOutcomeError(
        badRequest(`Unsupported parameter '${name}' for ${operation}: use ${known.join(', ')}`, name),
      );
    }
  }
}

export function singleParam(query: QueryParams, name: string): string | undefined {
  const raw = query[name];
  if (Array.isArray(raw)) {
    throw new OperationOutcomeError(badRequest(`Parameter '${name}' is given more than once`, name));
  }
  return raw;
}

export function wholeNumberParam(query: QueryParams, name: string, fallback: number, max: number): number {
  const raw = singleParam(query, name);
  if (raw === undefined) {
    return fallback;
  }
  if (!/^\d{1,9}$/.test(raw)) {
    throw new OperationOutcomeError(
      badRequest(`Parameter '${name}' must be a whole number, got '${raw}'`, name),
    );
  }
  // Larger pages are clamped rather than refused, as FHIR allows for _count.
  return Math.min(Number(raw), max);
}
