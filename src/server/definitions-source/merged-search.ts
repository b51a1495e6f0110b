// A search of StructureDefinition or SearchParameter over both sources: the database's (stored by a
// project, access-controlled) first, then the base definitions (readable by every signed-in user),
// as one list for paging and totals. _sort orders each part; the base part is in id order.
import type { Resource } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../fhir/search';
import { DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT } from '../search/search-engine';
import type { SearchResult } from '../search/types';
import { BASE_DEFINITION_TYPES, searchBaseDefinitions } from './base-definitions';

export async function searchWithBaseDefinitions<T extends Resource>(
  request: SearchRequest,
  searchStored: (request: SearchRequest) => Promise<SearchResult<T>>,
): Promise<SearchResult<T>> {
  if (!BASE_DEFINITION_TYPES.has(request.resourceType)) {
    return searchStored(request);
  }
  // The stored part's total places the base part on the right page.
  const [stored, base] = await Promise.all([
    searchStored({ ...request, total: 'accurate' }),
    searchBaseDefinitions(request) as Promise<T[]>,
  ]);
  const count = Math.min(request.count ?? DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT);
  const offset = request.offset ?? 0;
  const storedTotal = stored.total ?? 0;
  const room = Math.max(0, count - stored.resources.length);
  const baseOffset = Math.max(0, offset - storedTotal);
  const total = storedTotal + base.length;
  return {
    resources: [...stored.resources, ...base.slice(baseOffset, baseOffset + room)],
    included: stored.included,
    total: request.total && request.total !== 'none' ? total : undefined,
    hasMore: offset + count < total,
  };
}
