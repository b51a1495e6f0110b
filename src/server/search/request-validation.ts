// The edge check of a search: the query string of GET {type}? / POST {type}/_search →
// a SearchRequest the engine may trust, or a 400 OperationOutcome whose expression names the
// parameter. Strict by default; `Prefer: handling=lenient` drops unknown parameters instead.
import type { Filter, IncludeTarget, SearchQuery, SearchRequest, SortRule } from '../../fhir/search';
import {
  getSearchParameter,
  getTypeSchema,
  isResourceType,
  badRequest,
  OperationOutcomeError,
} from '../../fhir';
import {
  MODIFIER_OPERATORS,
  Operator,
  parseSearchRequest,
  resolveSearchParameter,
  splitOrValues,
  splitParameterKey,
} from '../../fhir/search';
import { filterTree } from './filter-expression-sql';
import { SEARCH_KINDS } from './kinds';
import type { SearchKind } from './kinds';
import { valueProblem } from './value-syntax';

export const DEFAULT_SEARCH_COUNT = 20;
/** Larger `_count`s are capped to this, as FHIR allows; the self link shows the count applied. */
export const MAX_SEARCH_COUNT = 1000;
/** Deeper pages are refused: offset paging rescans what it skips. */
export const MAX_SEARCH_OFFSET = 50_000;

export interface SearchValidationOptions {
  /** `Prefer: handling=lenient`: unknown parameters are ignored instead of refused. */
  lenient?: boolean;
}

/** Parameters that control the result, not filter it; checked separately. */
const RESULT_PARAMETERS = new Set([
  '_count',
  '_offset',
  '_total',
  '_summary',
  '_sort',
  '_elements',
  '_fields',
  '_include',
  '_revinclude',
  '_format',
  '_pretty',
]);
/** Given at most once: a second value would silently override the first. */
const SINGLE_PARAMETERS = ['_count', '_offset', '_total', '_summary'];
/** FHIR search parameters this server does not implement: named so the client knows why. */
const UNSUPPORTED_PARAMETERS = new Set(['_list', '_query', '_type', '_contained']);

function fail(message: string, parameter: string): never {
  throw new OperationOutcomeError(badRequest(message, parameter));
}

function filterKey(filter: Filter): string {
  return (MODIFIER_OPERATORS as readonly string[]).includes(filter.operator)
    ? `${filter.code}:${filter.operator}`
    : filter.code;
}

/** Parameters every type has outside the definitions: a filter expression, and full-text search. */
const EXPRESSION_PARAMETERS = new Set(['_filter', '_text', '_content']);

function isKnownFilterParameter(resourceType: string, key: string): boolean {
  if (EXPRESSION_PARAMETERS.has(key.split(':')[0])) {
    return true;
  }
  const [code] = splitParameterKey(key);
  return resolveSearchParameter(resourceType, code) !== undefined;
}

/** Drops (lenient) or refuses (strict) filter parameters the type does not have. */
function checkParameterNames(
  resourceType: string,
  query: URLSearchParams,
  lenient: boolean,
): URLSearchParams {
  const kept = new URLSearchParams();
  for (const [key, value] of query) {
    const name = key.split(':')[0];
    if (RESULT_PARAMETERS.has(name) || isKnownFilterParameter(resourceType, key)) {
      kept.append(key, value);
    } else if (!lenient) {
      const [code] = splitParameterKey(key);
      fail(
        UNSUPPORTED_PARAMETERS.has(name)
          ? `Search parameter '${name}' is not supported`
          : `Unknown search parameter '${code}' for ${resourceType}`,
        key,
      );
    }
  }
  for (const name of SINGLE_PARAMETERS) {
    if (kept.getAll(name).length > 1) {
      fail(`Search parameter '${name}' is given more than once`, name);
    }
  }
  return kept;
}

function checkFilter(resourceType: string, filter: Filter): void {
  if (filter.code === '_filter') {
    if (filter.operator !== Operator.EQUALS) {
      fail(`_filter takes no modifier`, filterKey(filter));
    }
    filterTree(resourceType, filter.value);
    return;
  }
  if (filter.code === '_text' || filter.code === '_content') {
    if (filter.operator !== Operator.EQUALS) {
      fail(`Modifier ':${filter.operator}' is not allowed on '${filter.code}'`, filterKey(filter));
    }
    if (splitOrValues(filter.value).some((part) => part.trim() === '')) {
      fail(`Search parameter '${filter.code}' needs words to search for`, filter.code);
    }
    return;
  }
  const key = filterKey(filter);
  const param = resolveSearchParameter(resourceType, filter.code);
  if (!param) {
    fail(`Unknown search parameter '${filter.code}' for ${resourceType}`, key);
  }
  const isModifier = key !== filter.code;
  // FHIR R4 search §3.1.1.5 modifiers by parameter type (`:not` on more than tokens, as Medplum does).
  const kind: SearchKind | undefined = SEARCH_KINDS[param.type];
  if (isModifier && !kind?.modifiers.includes(filter.operator)) {
    fail(`Modifier ':${filter.operator}' is not allowed on ${param.type} parameter '${filter.code}'`, key);
  }
  if (!isModifier && filter.operator !== Operator.EQUALS && !kind?.prefixes) {
    fail(`Prefix '${filter.operator}' is only allowed on number, date and quantity parameters`, key);
  }
  if (filter.operator === Operator.MISSING) {
    if (filter.value !== 'true' && filter.value !== 'false') {
      fail(`Search parameter '${key}' must be true or false, got '${filter.value}'`, key);
    }
    return;
  }
  // :text, :contains, :in, :above… take free text or a URL; plain and :not values follow the type.
  const typed = !isModifier || filter.operator === Operator.NOT || filter.operator === Operator.EXACT;
  for (const part of splitOrValues(filter.value)) {
    const problem = typed
      ? valueProblem(param.type, part, filter.operator === Operator.EQUALS)
      : part === '' && 'a value';
    if (problem) {
      fail(`Invalid value '${part}' for search parameter '${key}': expected ${problem}`, key);
    }
  }
}

function checkSortRule(resourceType: string, rule: SortRule): void {
  const param = getSearchParameter(resourceType, rule.code);
  if (!param) {
    fail(`Cannot sort by '${rule.code}': not a search parameter of ${resourceType}`, '_sort');
  }
  // A composite's values are pairs (code and value) with no one order; its components sort.
  if (SEARCH_KINDS[param.type]?.sortKey === undefined) {
    fail(
      `Cannot sort by ${param.type} parameter '${rule.code}': sort by one of its components instead`,
      '_sort',
    );
  }
}

function checkIncludeTarget(
  resourceType: string,
  name: '_include' | '_revinclude',
  target: IncludeTarget,
): void {
  const label = `${name} '${target.resourceType}:${target.searchParam}${target.targetType ? ':' + target.targetType : ''}'`;
  if (!isResourceType(target.resourceType)) {
    fail(`${label}: unknown resource type '${target.resourceType}'`, name);
  }
  if (name === '_include' && target.modifier !== Operator.ITERATE && target.resourceType !== resourceType) {
    fail(`${label}: without :iterate an _include starts from the searched type ${resourceType}`, name);
  }
  const param = getSearchParameter(target.resourceType, target.searchParam);
  if (param?.type !== 'reference') {
    fail(`${label}: '${target.searchParam}' is not a reference parameter of ${target.resourceType}`, name);
  }
  if (target.targetType && !isResourceType(target.targetType)) {
    fail(`${label}: unknown target type '${target.targetType}'`, name);
  }
  if (target.targetType && param.target && !param.target.includes(target.targetType)) {
    fail(`${label}: '${target.searchParam}' cannot point at ${target.targetType}`, name);
  }
}

/** `_elements`/`_fields`: top-level elements of the type (choice names allowed) or search parameter codes. */
function isKnownField(resourceType: string, field: string): boolean {
  const schema = getTypeSchema(resourceType);
  const top = field.split('.')[0];
  return (
    schema?.elements.has(top) === true ||
    schema?.elements.has(`${top}[x]`) === true ||
    schema?.properties.has(top) === true ||
    getSearchParameter(resourceType, field) !== undefined
  );
}

/** The request the engine runs for this query, or a 400 naming the first bad parameter. */
export function validateSearchQuery(
  resourceType: string,
  query: SearchQuery,
  options: SearchValidationOptions = {},
): SearchRequest {
  const params = query instanceof URLSearchParams ? query : toSearchParams(query);
  const lenient = options.lenient === true;
  const request = parseSearchRequest({
    resourceType,
    query: checkParameterNames(resourceType, params, lenient),
  });
  for (const filter of request.filters ?? []) {
    checkFilter(resourceType, filter);
  }
  for (const rule of request.sortRules ?? []) {
    checkSortRule(resourceType, rule);
  }
  for (const target of request.include ?? []) {
    checkIncludeTarget(resourceType, '_include', target);
  }
  for (const target of request.revInclude ?? []) {
    checkIncludeTarget(resourceType, '_revinclude', target);
  }
  if (request.fields) {
    const unknown = request.fields.filter((field) => !isKnownField(resourceType, field));
    if (unknown.length > 0 && !lenient) {
      fail(`Unknown element '${unknown[0]}' in _elements/_fields for ${resourceType}`, '_elements');
    }
    request.fields = request.fields.filter((field) => isKnownField(resourceType, field));
  }
  if (request.offset !== undefined && request.offset > MAX_SEARCH_OFFSET) {
    fail(`_offset must be at most ${MAX_SEARCH_OFFSET}, got ${request.offset}`, '_offset');
  }
  request.count = Math.min(request.count ?? DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT);
  return request;
}

function toSearchParams(query: Exclude<SearchQuery, URLSearchParams>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of typeof value === 'string' ? [value] : (value ?? [])) {
      params.append(key, item);
    }
  }
  return params;
}

/** `Prefer: handling=lenient` (FHIR R4 search §3.1.1.3.7); anything else is strict. */
export function isLenientHandling(prefer: string | undefined): boolean {
  return (prefer ?? '').split(/[;,]/).some((part) => part.trim().toLowerCase() === 'handling=lenient');
}
