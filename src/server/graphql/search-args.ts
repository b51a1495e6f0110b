// Search-field arguments (every search parameter of the type, '-' written '_', plus _count, _offset
// and _sort) and their translation into the SearchRequest the search engine takes (SPEC §3).
import { GraphQLInt, GraphQLString } from 'graphql';
import type { GraphQLFieldConfigArgumentMap } from 'graphql';
import { getSearchParameters } from '../../fhir';
import { parseSearchRequest } from '../../fhir/search/parse';
import { Operator } from '../../fhir/search/types';
import type { Filter, SearchRequest } from '../../fhir/search/types';
import { argNameToSearchParam, searchParamToArgName } from './naming';

/** Results per page when the query gives no _count (as the REST search). */
export const DEFAULT_SEARCH_COUNT = 20;

/** The most results one search field returns, whatever _count asks. */
export const MAX_SEARCH_COUNT = 1000;

const argsCache = new Map<string, GraphQLFieldConfigArgumentMap>();

/** Shared by TypeList, TypeConnection and every reverse lookup of the type (built once per type). */
export function searchArgs(resourceType: string): GraphQLFieldConfigArgumentMap {
  let args = argsCache.get(resourceType);
  if (!args) {
    args = {
      _count: { type: GraphQLInt },
      _offset: { type: GraphQLInt },
      _sort: { type: GraphQLString },
    };
    for (const param of getSearchParameters(resourceType)) {
      const name = searchParamToArgName(param.code);
      if (name && !(name in args)) {
        args[name] = { type: GraphQLString };
      }
    }
    argsCache.set(resourceType, args);
  }
  return args;
}

/** Forgets the cached argument maps (a rebuilt schema must not share them with an old one). */
export function clearSearchArgsCache(): void {
  argsCache.clear();
}

export type SearchArgValues = Record<string, unknown>;

/**
 * The SearchRequest of a search field, read by the same parser as a REST search URL (so prefixes,
 * `_sort` and paging mean the same): argument names back to parameter codes ('based_on' →
 * 'based-on'), a reverse lookup's `_reference` filter first (pointing at `reverseTarget`), and the
 * page size defaulted and capped.
 */
export function toSearchRequest(
  resourceType: string,
  args: SearchArgValues,
  reverseTarget?: string,
): SearchRequest {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value !== undefined && value !== null && name !== '_reference') {
      query[argNameToSearchParam(name)] = String(value);
    }
  }
  const request = parseSearchRequest({ resourceType, query });
  if (reverseTarget) {
    const filter: Filter = { code: String(args._reference), operator: Operator.EQUALS, value: reverseTarget };
    request.filters = [filter, ...(request.filters ?? [])];
  }
  request.count = Math.min(request.count ?? DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT);
  request.offset = request.offset ?? 0;
  return request;
}
