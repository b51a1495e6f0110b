// What the search URL parser needs to know about a search parameter: its type (to tell a prefix in
// `gt100` from a value) and a reference's targets (to follow chains). Injectable, because a browser
// may not have the definitions index loaded; the default reads src/fhir/definitions.
import type { SearchParameterType } from '../definitions';
import { getSearchParameter } from '../definitions';

export interface SearchParameterShape {
  type: SearchParameterType;
  /** for reference parameters: the resource types it may point at */
  target?: string[];
}

/** The definition of `code` on `resourceType`, or undefined for an unknown parameter. */
export type SearchParameterLookup = (resourceType: string, code: string) => SearchParameterShape | undefined;

/** Looks parameters up in the FHIR definitions index (needs the index: Node reads it, a browser sets it). */
export const definitionsLookup: SearchParameterLookup = (resourceType, code) =>
  getSearchParameter(resourceType, code);

/**
 * Parameters every type has that are not in the definitions index (SPEC §7 `_compartment`, and
 * Medplum's `_project`, a token on meta.project that access policy criteria use).
 */
const EXTRA_COMMON_PARAMETERS: Record<string, SearchParameterShape> = {
  _compartment: { type: 'reference' },
  _project: { type: 'token' },
};

/** Wraps a lookup so it also knows the common parameters the definitions do not list. */
export function withCommonParameters(lookup: SearchParameterLookup): SearchParameterLookup {
  return (resourceType, code) =>
    Object.hasOwn(EXTRA_COMMON_PARAMETERS, code) ? EXTRA_COMMON_PARAMETERS[code] : lookup(resourceType, code);
}

/** Types whose values may carry a comparison prefix (FHIR R4 search §3.1.1.4). */
export function isOrderedType(type: SearchParameterType): boolean {
  return type === 'number' || type === 'date' || type === 'quantity';
}
