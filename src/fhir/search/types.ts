// The search request model (SPEC §3 "Search state" and "Search operators"), shared by the server's
// search engine, the platform client's URL building and the app's search table. Names follow
// @medplum/core's SearchRequest so code written for that ecosystem reads the same.

/** SPEC §3 search operators: the FHIR prefixes and modifiers a filter can carry. */
export const Operator = {
  EQUALS: 'eq',
  NOT_EQUALS: 'ne',
  GREATER_THAN: 'gt',
  LESS_THAN: 'lt',
  GREATER_THAN_OR_EQUALS: 'ge',
  LESS_THAN_OR_EQUALS: 'le',
  STARTS_AFTER: 'sa',
  ENDS_BEFORE: 'eb',
  APPROXIMATELY: 'ap',
  CONTAINS: 'contains',
  EXACT: 'exact',
  TEXT: 'text',
  NOT: 'not',
  ABOVE: 'above',
  BELOW: 'below',
  IN: 'in',
  NOT_IN: 'not-in',
  OF_TYPE: 'of-type',
  MISSING: 'missing',
  IDENTIFIER: 'identifier',
  ITERATE: 'iterate',
} as const;
export type Operator = (typeof Operator)[keyof typeof Operator];

/**
 * One search condition. `code` is the search parameter's code as written in the URL before any
 * modifier: 'name', '_id', a chain 'subject:Patient.name' or a reverse chain '_has:Observation:subject:code'.
 * `value` is the raw value (commas mean OR and are kept in it); the operator comes from the
 * modifier or the value's prefix.
 */
export interface Filter {
  code: string;
  operator: Operator;
  value: string;
}

export interface SortRule {
  code: string;
  descending?: boolean;
}

/** `_include` / `_revinclude` target (SPEC §3): `resourceType:searchParam[:targetType]`, optionally iterated. */
export interface IncludeTarget {
  resourceType: string;
  searchParam: string;
  targetType?: string;
  modifier?: typeof Operator.ITERATE;
}

export type TotalMode = 'none' | 'estimate' | 'accurate';
export type SummaryMode = 'true' | 'text' | 'data' | 'count' | 'false';

export interface SearchRequest {
  resourceType: string;
  filters?: Filter[];
  sortRules?: SortRule[];
  offset?: number;
  count?: number;
  total?: TotalMode;
  /** `_fields` / `_elements`: the top-level elements to return (SPEC §3 default id and _lastUpdated in the table). */
  fields?: string[];
  include?: IncludeTarget[];
  revInclude?: IncludeTarget[];
  summary?: SummaryMode;
}
