// The search parameter types, one module each: the SQL builder (filter-sql.ts), the in-memory
// matcher (live/criteria-match.ts), _sort (sort-sql.ts) and the edge check (request-validation.ts)
// look a parameter's type up here instead of each knowing every type.
import type { SearchParameterType } from '../../../fhir';
import { composite } from './composite';
import { date, number, quantity } from './ordered';
import { reference } from './reference';
import { special } from './special';
import { string } from './string';
import { token } from './token';
import type { SearchKind } from './types';
import { uri } from './uri';

export const SEARCH_KINDS: Readonly<Record<SearchParameterType, SearchKind>> = {
  token,
  string,
  uri,
  reference,
  number,
  date,
  quantity,
  composite,
  special,
};

export { RESOURCE_PARAMETERS, compartmentsOf } from './special';
export type { FilterContext, MatchTarget, SearchKind, SortKey } from './types';
