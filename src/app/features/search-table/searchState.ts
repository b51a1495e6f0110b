// The table's search state (SPEC §3 "Search state") and its place in the URL: the FHIR SearchRequest
// is the single source of truth, written as the page's query string through src/fhir's formatter and
// read back through its parser, so a table URL is shareable and the back button works. The saved
// search name travels beside the FHIR parameters under a key the FHIR query never uses.
import {
  formatSearchQuery,
  parseSearchRequest,
  type Filter,
  type SearchParameterLookup,
  type SearchRequest,
  type SortRule,
} from '../../../fhir/search';
import { defaultFieldsOf } from './defaultFields';
import { filterTarget } from './operators';

/** SPEC §9 leaves the app's page size open; the platform client's default (20) is used. */
export const DEFAULT_PAGE_SIZE = 20;
/** DataGrid's community edition and the server both cap a page at 100 rows. */
export const MAX_PAGE_SIZE = 100;
/** The URL key of the saved-search name (not a FHIR parameter). */
export const SAVED_SEARCH_KEY = '_savedSearch';

export interface TableSearch {
  readonly request: SearchRequest;
  /** The saved search this state came from; any filter change leaves it (SPEC §4). */
  readonly savedSearchName?: string;
}

/** The page's query string (`?a=1`) as the table's state. Throws a 400 outcome for a malformed query. */
export function readTableSearch(
  resourceType: string,
  queryString: string,
  lookup: SearchParameterLookup,
): TableSearch {
  const query = new URLSearchParams(queryString);
  const savedSearchName = query.get(SAVED_SEARCH_KEY) ?? undefined;
  query.delete(SAVED_SEARCH_KEY);
  const request = parseSearchRequest({ resourceType, query }, { lookup });
  return savedSearchName ? { request, savedSearchName } : { request };
}

/** The state as a query string (`?...`, or '' for the bare type). */
export function writeTableSearch(search: TableSearch): string {
  const query = formatSearchQuery(search.request);
  if (!search.savedSearchName) return query;
  const name = `${SAVED_SEARCH_KEY}=${encodeURIComponent(search.savedSearchName)}`;
  return query ? `${query}&${name}` : `?${name}`;
}

/** What is sent to the server: the URL's request with the table's defaults filled in. */
export function effectiveRequest(request: SearchRequest): SearchRequest {
  return {
    ...request,
    fields: shownFields(request),
    offset: request.offset ?? 0,
    count: Math.min(request.count ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    total: request.total ?? 'accurate',
  };
}

/** The columns shown: the URL's fields, else the user's saved choice for the type, else its defaults. */
export function tableFields(request: SearchRequest, savedFields: readonly string[] | undefined): string[] {
  const urlFields = request.fields;
  return urlFields && urlFields.length > 0
    ? shownFields(request)
    : [...(savedFields ?? shownFields(request))];
}

/**
 * The URL's state when reading it needs no schema: a query string without filters (its control
 * parameters, _count, _sort, _fields..., parse the same whatever the type's parameters are).
 * Undefined when it has filters or does not parse; the table then reads it with the schema.
 */
export function readWithoutSchema(resourceType: string, queryString: string): TableSearch | undefined {
  try {
    const search = readTableSearch(resourceType, queryString, () => undefined);
    return search.request.filters ? undefined : search;
  } catch {
    return undefined;
  }
}

export function shownFields(request: SearchRequest): string[] {
  return request.fields && request.fields.length > 0
    ? [...request.fields]
    : defaultFieldsOf(request.resourceType);
}

function withoutOffset(request: SearchRequest): SearchRequest {
  const next = { ...request };
  delete next.offset;
  return next;
}

/** SPEC §4: changing the filters resets the offset to 0 and clears the saved search name. */
export function setFilters(search: TableSearch, filters: readonly Filter[]): TableSearch {
  const request = withoutOffset(search.request);
  if (filters.length > 0) request.filters = [...filters];
  else delete request.filters;
  return { request };
}

export function addFilter(search: TableSearch, filter: Filter): TableSearch {
  return setFilters(search, [...(search.request.filters ?? []), filter]);
}

/** The column menu's 'Clear filters': drops every filter on one parameter ('does not contain' too). */
export function clearFiltersOf(search: TableSearch, code: string): TableSearch {
  return setFilters(
    search,
    (search.request.filters ?? []).filter((filter) => filterTarget(filter).code !== code),
  );
}

/**
 * Makes `code` the first sort rule (the one the grid's header shows); other rules stay behind it.
 * SPEC §4: sorting again by the same field and direction returns the same state, so nothing changes.
 */
export function setSort(search: TableSearch, code: string, descending: boolean): TableSearch {
  const rules = search.request.sortRules ?? [];
  const first = rules[0];
  if (first && first.code === code && (first.descending ?? false) === descending) return search;
  const rule: SortRule = descending ? { code, descending } : { code };
  const request = withoutOffset(search.request);
  request.sortRules = [rule, ...rules.filter((other) => other.code !== code)];
  return { ...search, request };
}

/** Replaces every sort rule (the toolbar's secondary rules); an empty list sorts by the server default. */
export function setSortRules(search: TableSearch, rules: readonly SortRule[]): TableSearch {
  const request = withoutOffset(search.request);
  if (rules.length > 0) request.sortRules = [...rules];
  else delete request.sortRules;
  return { ...search, request };
}

export function setFields(search: TableSearch, fields: readonly string[]): TableSearch {
  const request = { ...search.request };
  if (fields.length > 0) request.fields = [...fields];
  else delete request.fields;
  return { ...search, request };
}

export function setOffset(search: TableSearch, offset: number): TableSearch {
  const request = { ...search.request };
  if (offset > 0) request.offset = offset;
  else delete request.offset;
  return { ...search, request };
}

export function setPageSize(search: TableSearch, count: number): TableSearch {
  const request = withoutOffset(search.request);
  request.count = Math.max(1, Math.min(count, MAX_PAGE_SIZE));
  return { ...search, request };
}
