// parseSearchRequest: a FHIR search URL (or a type and its query parameters) → the SearchRequest
// model of SPEC §3. The reverse of formatSearchQuery (./format.ts). Pure: the server, the client
// and the app share it. Structural errors (an unknown modifier, a non-integer _count, a malformed
// _include) throw a 400 OperationOutcomeError naming the parameter; whether a parameter exists
// for the type and whether its values are well-formed is the server's validation's job.
import { badRequest, OperationOutcomeError } from '../outcomes';
import type { SearchParameterLookup, SearchParameterShape } from './parameter-types';
import { definitionsLookup, isOrderedType, withCommonParameters } from './parameter-types';
import type { Filter, IncludeTarget, SearchRequest, SortRule, SummaryMode, TotalMode } from './types';
import { Operator } from './types';

/** Query parameters as a framework hands them over (repeated keys as arrays) or as URLSearchParams. */
export type SearchQuery = URLSearchParams | Record<string, string | readonly string[] | undefined>;

export interface ParseSearchOptions {
  /** How to find a parameter's type; defaults to the FHIR definitions index. */
  lookup?: SearchParameterLookup;
}

/** The comparison prefixes of ordered types, in the value (`date=ge2020`). */
export const PREFIX_OPERATORS: readonly Operator[] = [
  Operator.EQUALS,
  Operator.NOT_EQUALS,
  Operator.GREATER_THAN,
  Operator.LESS_THAN,
  Operator.GREATER_THAN_OR_EQUALS,
  Operator.LESS_THAN_OR_EQUALS,
  Operator.STARTS_AFTER,
  Operator.ENDS_BEFORE,
  Operator.APPROXIMATELY,
];

/** The modifiers a filter can carry after its code (`name:exact`). `iterate` belongs to _include only. */
export const MODIFIER_OPERATORS: readonly Operator[] = [
  Operator.CONTAINS,
  Operator.EXACT,
  Operator.TEXT,
  Operator.NOT,
  Operator.ABOVE,
  Operator.BELOW,
  Operator.IN,
  Operator.NOT_IN,
  Operator.OF_TYPE,
  Operator.MISSING,
  Operator.IDENTIFIER,
];

const TOTAL_MODES: readonly TotalMode[] = ['none', 'estimate', 'accurate'];
const SUMMARY_MODES: readonly SummaryMode[] = ['true', 'text', 'data', 'count', 'false'];
/** Result parameters with no place in the model: output formatting only. */
const IGNORED_PARAMETERS = new Set(['_format', '_pretty']);

function fail(message: string, parameter: string): never {
  throw new OperationOutcomeError(badRequest(message, parameter));
}

function isModifierOperator(value: string): value is Operator {
  return (MODIFIER_OPERATORS as readonly string[]).includes(value);
}

function isPrefixOperator(value: string): value is Operator {
  return (PREFIX_OPERATORS as readonly string[]).includes(value);
}

/** A `:Patient` style modifier on a reference parameter (resource type names start upper case). */
function isTypeModifier(modifier: string): boolean {
  return /^[A-Z][A-Za-z]+$/.test(modifier);
}

/**
 * The definition a (possibly chained or reverse-chained) parameter code ends in:
 * 'name', 'subject:Patient.name', 'subject.organization.name', '_has:Observation:subject:code'.
 */
export function resolveSearchParameter(
  resourceType: string,
  code: string,
  lookup: SearchParameterLookup = definitionsLookup,
): SearchParameterShape | undefined {
  const find = withCommonParameters(lookup);
  if (code.startsWith('_has:')) {
    const [, type, , ...rest] = code.split(':');
    return type && rest.length > 0 ? resolveSearchParameter(type, rest.join(':'), lookup) : undefined;
  }
  const dot = code.indexOf('.');
  if (dot < 0) {
    return find(resourceType, code);
  }
  const [name, typeModifier] = code.slice(0, dot).split(':');
  const link = find(resourceType, name);
  if (link?.type !== 'reference') {
    return undefined;
  }
  const targets = typeModifier ? [typeModifier] : (link.target ?? []);
  for (const target of targets) {
    const resolved = resolveSearchParameter(target, code.slice(dot + 1), lookup);
    if (resolved) {
      return resolved;
    }
  }
  return undefined;
}

/** Splits a URL key into the parameter code and its modifier: 'name:exact' → ['name', 'exact']. */
export function splitParameterKey(key: string): [code: string, modifier: string | undefined] {
  if (key.startsWith('_has:')) {
    // _has:Type:referenceParam:innerKey, where innerKey may itself be a _has or carry a modifier.
    const parts = key.split(':');
    if (parts.length < 4) {
      return [key, undefined];
    }
    const [innerCode, modifier] = splitParameterKey(parts.slice(3).join(':'));
    return [`${parts.slice(0, 3).join(':')}:${innerCode}`, modifier];
  }
  // In a chain only the last link's modifier modifies the filter; earlier ones are link types.
  const lastDot = key.lastIndexOf('.');
  const colon = key.indexOf(':', lastDot + 1);
  return colon < 0 ? [key, undefined] : [key.slice(0, colon), key.slice(colon + 1)];
}

/** `ge2020-01` → ['ge', '2020-01']; values without a prefix → [undefined, value]. */
export function splitValuePrefix(value: string): [prefix: Operator | undefined, rest: string] {
  const prefix = value.slice(0, 2);
  return value.length > 2 && isPrefixOperator(prefix) ? [prefix, value.slice(2)] : [undefined, value];
}

/** Splits on commas that are not escaped as `\,` (FHIR R4 search §3.1.1.4.1: OR). */
export function splitOrValues(value: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\') {
      i++;
    } else if (value[i] === ',') {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts;
}

/** One query parameter of a search on `resourceType` as a Filter (SPEC §3 search operators). */
export function parseFilter(
  resourceType: string,
  key: string,
  value: string,
  lookup: SearchParameterLookup = definitionsLookup,
): Filter {
  const [code, modifier] = splitParameterKey(key);
  const param = resolveSearchParameter(resourceType, code, lookup);
  if (modifier !== undefined) {
    if (isModifierOperator(modifier)) {
      return { code, operator: modifier, value };
    }
    if (isTypeModifier(modifier) && (param === undefined || param.type === 'reference')) {
      // subject:Patient=123 means subject=Patient/123 (FHIR R4 search §3.1.1.4.12).
      const typed = splitOrValues(value).map((part) => (part.includes('/') ? part : `${modifier}/${part}`));
      return { code, operator: Operator.EQUALS, value: typed.join(',') };
    }
    fail(`Unknown modifier ':${modifier}' on search parameter '${code}'`, key);
  }
  if (param && isOrderedType(param.type)) {
    // One operator per filter: the prefix is taken off only when every OR value carries the same one.
    const parts = splitOrValues(value).map(splitValuePrefix);
    const prefix = parts[0][0];
    if (prefix && parts.every(([p]) => p === prefix)) {
      return { code, operator: prefix, value: parts.map(([, rest]) => rest).join(',') };
    }
  }
  return { code, operator: Operator.EQUALS, value };
}

function parseWholeNumber(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) {
    fail(`Search parameter '${name}' must be a whole number, got '${value}'`, name);
  }
  return Number(value);
}

function parseSortRules(value: string): SortRule[] {
  return value.split(',').map((part) => {
    const descending = part.startsWith('-');
    const code = descending ? part.slice(1) : part;
    if (!code) {
      fail(`Empty sort key in _sort '${value}'`, '_sort');
    }
    return descending ? { code, descending } : { code };
  });
}

function parseIncludeTarget(key: string, modifier: string | undefined, value: string): IncludeTarget {
  const [resourceType, searchParam, targetType, ...extra] = value.split(':');
  if (!resourceType || !searchParam || extra.length > 0 || targetType === '') {
    fail(`${key} must be 'Type:searchParam' or 'Type:searchParam:TargetType', got '${value}'`, key);
  }
  const target: IncludeTarget = { resourceType, searchParam };
  if (targetType) {
    target.targetType = targetType;
  }
  // ':recurse' is the STU3 name of ':iterate'.
  if (modifier === 'iterate' || modifier === 'recurse') {
    target.modifier = Operator.ITERATE;
  } else if (modifier !== undefined) {
    fail(`Unknown modifier ':${modifier}' on ${key}`, `${key}:${modifier}`);
  }
  return target;
}

function pickOne<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    fail(`Search parameter '${name}' must be one of ${allowed.join(', ')}, got '${value}'`, name);
  }
  return value as T;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

function applyParameter(
  request: SearchRequest,
  key: string,
  value: string,
  lookup: SearchParameterLookup,
): void {
  const colon = key.indexOf(':');
  const name = colon < 0 ? key : key.slice(0, colon);
  const modifier = colon < 0 ? undefined : key.slice(colon + 1);
  switch (name) {
    case '_count':
      request.count = parseWholeNumber(key, value);
      return;
    case '_offset':
      request.offset = parseWholeNumber(key, value);
      return;
    case '_total':
      request.total = pickOne(key, value, TOTAL_MODES);
      return;
    case '_summary':
      request.summary = pickOne(key, value, SUMMARY_MODES);
      return;
    case '_sort':
      request.sortRules = [...(request.sortRules ?? []), ...parseSortRules(value)];
      return;
    case '_fields':
    case '_elements':
      request.fields = [...(request.fields ?? []), ...splitList(value)];
      return;
    case '_include':
      (request.include ??= []).push(parseIncludeTarget(name, modifier, value));
      return;
    case '_revinclude':
      (request.revInclude ??= []).push(parseIncludeTarget(name, modifier, value));
      return;
    default:
      if (!IGNORED_PARAMETERS.has(name)) {
        (request.filters ??= []).push(parseFilter(request.resourceType, key, value, lookup));
      }
  }
}

function queryEntries(query: SearchQuery): [string, string][] {
  if (query instanceof URLSearchParams) {
    return [...query.entries()];
  }
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    if (typeof value === 'string') {
      entries.push([key, value]);
    } else if (value) {
      for (const item of value) {
        entries.push([key, item]);
      }
    }
  }
  return entries;
}

/** 'Patient?name=x', '/fhir/R4/Patient?name=x' or an absolute URL → its type and parameters. */
function splitSearchUrl(url: string | URL): { resourceType: string; query: URLSearchParams } {
  const text = url.toString();
  const question = text.indexOf('?');
  const path = (question < 0 ? text : text.slice(0, question)).replace(/\/+$/, '');
  const resourceType = path.slice(path.lastIndexOf('/') + 1);
  return { resourceType, query: new URLSearchParams(question < 0 ? '' : text.slice(question + 1)) };
}

/** A search URL, or a resource type and its query parameters, as a SearchRequest. */
export function parseSearchRequest(
  input: string | URL | { resourceType: string; query: SearchQuery },
  options: ParseSearchOptions = {},
): SearchRequest {
  const { resourceType, query } =
    typeof input === 'string' || input instanceof URL ? splitSearchUrl(input) : input;
  const lookup = options.lookup ?? definitionsLookup;
  const request: SearchRequest = { resourceType };
  for (const [key, value] of queryEntries(query)) {
    applyParameter(request, key, value, lookup);
  }
  return request;
}
