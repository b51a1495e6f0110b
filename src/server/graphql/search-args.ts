// Search-field arguments (every search parameter of the type, '-' written '_', plus the common
// _count, _offset, _sort, _id, _lastUpdated, _filter and _compartment, as Medplum offers them) and
// their translation into the SearchRequest the search engine takes (SPEC §3), through the REST
// search's own edge check so an argument means and refuses exactly what the URL parameter does.
import { GraphQLInt, GraphQLString } from 'graphql';
import type { GraphQLFieldConfigArgumentMap } from 'graphql';
import { getSearchParameters } from '../../fhir';
import { Operator } from '../../fhir/search/types';
import type { Filter, SearchRequest } from '../../fhir/search/types';
import { DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT, validateSearchQuery } from '../search/request-validation';
import { argNameToSearchParam, searchParamToArgName } from './naming';

export { DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT };

/**
 * The arguments every search field has, whatever its type's own search parameters (no
 * descriptions: the schema has none, which keeps the snapshot small). `_id` and `_lastUpdated` are
 * also definitions of every type; naming them here keeps them first, where Medplum has them.
 */
function commonArgs(): GraphQLFieldConfigArgumentMap {
  return {
    _count: { type: GraphQLInt },
    _offset: { type: GraphQLInt },
    _sort: { type: GraphQLString },
    _id: { type: GraphQLString },
    _lastUpdated: { type: GraphQLString },
    _filter: { type: GraphQLString },
    _compartment: { type: GraphQLString },
  };
}

const argsCache = new Map<string, GraphQLFieldConfigArgumentMap>();

/** Shared by TypeList, TypeConnection and every reverse lookup of the type (built once per type). */
export function searchArgs(resourceType: string): GraphQLFieldConfigArgumentMap {
  let args = argsCache.get(resourceType);
  if (!args) {
    args = commonArgs();
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
 * The SearchRequest of a search field, checked as a REST search URL is (validateSearchQuery: so
 * prefixes, `_filter`, `_sort` and paging mean the same, and a bad one is the same 400 naming the
 * parameter): argument names back to parameter codes ('based_on' → 'based-on'), a reverse lookup's
 * `_reference` filter first (pointing at `reverseTarget`), the page size defaulted and capped.
 */
export function toSearchRequest(
  resourceType: string,
  args: SearchArgValues,
  reverseTarget?: string,
): SearchRequest {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value !== undefined && value !== null && name !== '_reference') {
      query.append(argNameToSearchParam(name), String(value));
    }
  }
  const request = validateSearchQuery(resourceType, query);
  if (reverseTarget) {
    const filter: Filter = { code: String(args._reference), operator: Operator.EQUALS, value: reverseTarget };
    request.filters = [filter, ...(request.filters ?? [])];
  }
  request.offset = request.offset ?? 0;
  return request;
}
