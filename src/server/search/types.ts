// What the search engine answers, before the REST layer turns it into a searchset Bundle
// (src/server/fhir) or GraphQL turns it into a list or connection (src/server/graphql).
import type { Resource } from '@medplum/fhirtypes';
import type { Filter } from '../../fhir/search';

export interface SearchResult<T extends Resource = Resource> {
  /** The matches of this page, in the requested order (entry.search.mode 'match'). */
  resources: T[];
  /** Resources added by _include and _revinclude (entry.search.mode 'include'), without duplicates. */
  included: Resource[];
  /** Present when the request's total mode is 'estimate' or 'accurate' (or by the engine's default). */
  total?: number;
  /** True when another page exists after this one (drives the Bundle's next link). */
  hasMore: boolean;
}

/**
 * A Filter as the SQL builder takes it: `_filter` comparisons (filter-expression-sql.ts) with no
 * URL form say how a string or date compares: a whole folded string, its end, or overlapping ranges.
 */
export interface SqlFilter extends Filter {
  match?: 'equals' | 'ends-with' | 'overlaps';
}
