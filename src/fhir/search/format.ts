// formatSearchQuery: a SearchRequest → its query string, as SPEC §7 "URL building" says: parameters
// sorted, `_fields`, `_offset`, `_count`, `_total`, `_sort` with a leading '-' for descending,
// `_include`, `_revinclude`. Filters are `code=value`, `code:modifier=value`, and the prefix of an
// ordered type in the value (`date=ge2020`). The reverse of parseSearchRequest (./parse.ts).
import { MODIFIER_OPERATORS } from './parse';
import type { Filter, IncludeTarget, SearchRequest, SortRule } from './types';
import { Operator } from './types';

/**
 * Percent-encodes a value but keeps the characters FHIR search syntax gives meaning to (`,` for OR,
 * `|` in tokens, `:` and `/` in references and URLs) readable; they are legal in a query.
 */
export function encodeSearchValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C|%7C|%3A|%2F/gi, (escaped) => decodeURIComponent(escaped));
}

function formatFilter(filter: Filter): string {
  const isModifier = (MODIFIER_OPERATORS as readonly string[]).includes(filter.operator);
  const key = isModifier ? `${filter.code}:${filter.operator}` : filter.code;
  // eq is the default prefix and is left out; other prefixes only exist for ordered types.
  const prefix = isModifier || filter.operator === Operator.EQUALS ? '' : filter.operator;
  return `${key}=${prefix}${encodeSearchValue(filter.value)}`;
}

function formatSortRules(rules: SortRule[]): string {
  return '_sort=' + rules.map((rule) => (rule.descending ? '-' : '') + rule.code).join(',');
}

function formatIncludeTarget(name: '_include' | '_revinclude', target: IncludeTarget): string {
  const key = target.modifier === Operator.ITERATE ? `${name}:iterate` : name;
  const parts = [target.resourceType, target.searchParam];
  if (target.targetType) {
    parts.push(target.targetType);
  }
  return `${key}=${parts.join(':')}`;
}

/** The parameters of a request as `key=value` strings, sorted. */
export function formatSearchParameters(request: SearchRequest): string[] {
  const params: string[] = [];
  if (request.fields && request.fields.length > 0) {
    params.push('_fields=' + request.fields.map(encodeSearchValue).join(','));
  }
  for (const filter of request.filters ?? []) {
    params.push(formatFilter(filter));
  }
  if (request.sortRules && request.sortRules.length > 0) {
    params.push(formatSortRules(request.sortRules));
  }
  if (request.offset !== undefined) {
    params.push('_offset=' + request.offset);
  }
  if (request.count !== undefined) {
    params.push('_count=' + request.count);
  }
  if (request.total !== undefined) {
    params.push('_total=' + request.total);
  }
  if (request.summary !== undefined) {
    params.push('_summary=' + request.summary);
  }
  for (const target of request.include ?? []) {
    params.push(formatIncludeTarget('_include', target));
  }
  for (const target of request.revInclude ?? []) {
    params.push(formatIncludeTarget('_revinclude', target));
  }
  // Code-point order: the same request always gives the same URL (cache keys, SPEC §7).
  return params.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `?a=1&b=2` (sorted), or '' when the request has no parameters. */
export function formatSearchQuery(request: SearchRequest): string {
  const params = formatSearchParameters(request);
  return params.length === 0 ? '' : '?' + params.join('&');
}
