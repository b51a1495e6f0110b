// Whether one resource version matches a subscription's criteria, decided in memory.
// The values come from the search engine's own extraction (extractIndexRows: the same FHIRPath,
// the same folding, the same date ranges), and each comparison below mirrors the SQL condition of
// src/server/search/value-conditions.ts for that parameter type, so a live criteria string selects
// exactly what the same search would return. Criteria the live engine cannot decide on one resource
// (chains, _has, value sets) are refused when the criteria are parsed (criteria.ts). `_filter` is
// decided here too, comparison by comparison as the SQL builds it (filter-expression-sql.ts), for
// the base definitions searched in memory (definitions-source: Medplum's requestSchema asks for
// `StructureDefinitionList(_filter: "name eq Patient")`); subscriptions still refuse it.
import type { Resource } from '@medplum/fhirtypes';
import { getSearchParameter } from '../../fhir';
import { Operator, splitOrValues, splitValuePrefix } from '../../fhir/search';
import type { Filter, SearchRequest } from '../../fhir/search';
import { parseDateRange } from '../search/date-range';
import { filterTree } from '../search/filter-expression-sql';
import type { FilterTree } from '../search/filter-expression-sql';
import type { DateRange } from '../search/date-range';
import type {
  DateRow,
  IndexRows,
  QuantityRow,
  ReferenceRow,
  StringRow,
  TokenRow,
  UriRow,
} from '../search/index-rows';
import type { SqlFilter } from '../search/types';
import { normalizeText } from '../search/normalize-text';
import { invalid, parseNumberRange, splitBar, unescapeValue } from '../search/value-conditions';

/** One resource version with its index rows, computed once and shared by every subscription. */
export interface MatchTarget {
  resource: Resource;
  rows: IndexRows;
}

export function matchesCriteria(request: SearchRequest, target: MatchTarget): boolean {
  if (target.resource.resourceType !== request.resourceType) {
    return false;
  }
  return (request.filters ?? []).every((filter) => matchesFilter(target, filter));
}

/** A `_filter` expression: and / or / not around comparisons, each a filter as the SQL has it. */
function matchesTree(target: MatchTarget, tree: FilterTree): boolean {
  switch (tree.kind) {
    case 'filter':
      return matchesFilter(target, tree.filter);
    case 'not':
      return !matchesTree(target, tree.operand);
    case 'and':
      return tree.operands.every((operand) => matchesTree(target, operand));
    default:
      return tree.operands.some((operand) => matchesTree(target, operand));
  }
}

function matchesFilter(target: MatchTarget, filter: SqlFilter): boolean {
  const { resource, rows } = target;
  switch (filter.code) {
    case '_filter':
      return matchesTree(target, filterTree(resource.resourceType, filter.value));
    case '_id':
      return matchId(resource.id ?? '', filter);
    case '_lastUpdated':
      return matchLastUpdated(resource.meta?.lastUpdated, filter);
    case '_compartment':
      return matchCompartment(resource, filter);
  }
  const param = getSearchParameter(resource.resourceType, filter.code);
  if (!param) {
    return invalid(`Unknown search parameter '${filter.code}' for ${resource.resourceType}`, filter.code);
  }
  const of = <R extends { code: string }>(list: R[], code = filter.code): R[] =>
    list.filter((r) => r.code === code);
  if (filter.operator === Operator.MISSING) {
    const present =
      param.type === 'reference'
        ? of(rows.reference).length > 0 || of(rows.token, `${filter.code}:identifier`).length > 0
        : presentRows(rows, param.type, filter.code);
    return filter.value === 'true' ? !present : present;
  }
  const values = splitOrValues(filter.value);
  switch (param.type) {
    case 'token':
      return matchToken(of(rows.token), of(rows.token, `${filter.code}:of-type`), filter, values);
    case 'string':
      return of(rows.string).some((row) =>
        values.some((v) => stringMatches(row, filter.operator, v, filter.match)),
      );
    case 'uri': {
      const operator = filter.operator === Operator.NOT ? Operator.EQUALS : filter.operator;
      const found = of(rows.uri).some((row) => values.some((v) => uriMatches(row, operator, v)));
      return filter.operator === Operator.NOT ? !found : found;
    }
    case 'reference': {
      if (filter.operator === Operator.IDENTIFIER) {
        return of(rows.token, `${filter.code}:identifier`).some((row) =>
          values.some((v) => tokenMatches(row, v)),
        );
      }
      const found = of(rows.reference).some((row) =>
        values.some((v) => referenceMatches(row, v, param.target)),
      );
      return filter.operator === Operator.NOT ? !found : found;
    }
    case 'date':
      if (filter.match === 'overlaps') {
        // _filter's po: the value's range and the query's share an instant, as the SQL asks.
        return of(rows.date).some(
          (row) =>
            dateMatches(rangeOf(row), Operator.GREATER_THAN_OR_EQUALS, filter.value, filter.code) &&
            dateMatches(rangeOf(row), Operator.LESS_THAN_OR_EQUALS, filter.value, filter.code),
        );
      }
      return matchOrdered(filter, values, (operator, value) =>
        of(rows.date).some((row) => dateMatches(rangeOf(row), operator, value, filter.code)),
      );
    case 'number':
      return matchOrdered(filter, values, (operator, value) =>
        of(rows.number).some((row) => numberMatches(row.value, operator, value, filter.code)),
      );
    case 'quantity':
      return matchOrdered(filter, values, (operator, value) =>
        of(rows.quantity).some((row) => quantityMatches(row, operator, value, filter.code)),
      );
    default:
      return invalid(
        `Search parameter '${filter.code}' of type ${param.type} is not supported in criteria`,
        filter.code,
      );
  }
}

function presentRows(rows: IndexRows, type: string, code: string): boolean {
  const lists: Record<string, { code: string }[]> = {
    token: rows.token,
    string: rows.string,
    uri: rows.uri,
    date: rows.date,
    number: rows.number,
    quantity: rows.quantity,
    composite: rows.composite,
  };
  return (lists[type] ?? []).some((row) => row.code === code);
}

function matchToken(rows: TokenRow[], ofTypeRows: TokenRow[], filter: Filter, values: string[]): boolean {
  switch (filter.operator) {
    case Operator.EQUALS:
      return rows.some((row) => values.some((v) => tokenMatches(row, v)));
    case Operator.NOT:
      return !rows.some((row) => values.some((v) => tokenMatches(row, v)));
    case Operator.TEXT:
      return rows.some((row) => values.some((v) => textMatches(row.text, unescapeValue(v))));
    case Operator.OF_TYPE:
      return ofTypeRows.some((row) =>
        values.some((v) => {
          const parts = splitBar(v);
          if (parts.length !== 3 || !parts[1] || !parts[2]) {
            invalid(`:of-type on '${filter.code}' needs system|code|value, got '${v}'`, filter.code);
          }
          return (
            (parts[0] ? row.system === parts[0] : row.system === null) &&
            row.value === `${parts[1]}|${parts[2]}`
          );
        }),
      );
    default:
      return invalid(
        `Modifier ':${filter.operator}' is not supported on token parameter '${filter.code}'`,
        `${filter.code}:${filter.operator}`,
      );
  }
}

/** value-conditions.ts tokenCondition: code, system|code, |code (no system), system| (any code). */
function tokenMatches(row: TokenRow, value: string): boolean {
  const parts = splitBar(value);
  if (parts.length === 1) return row.value === parts[0];
  const [system, code] = parts;
  if (!system) return row.system === null && row.value === code;
  if (!code) return row.system === system;
  return row.system === system && row.value === code;
}

/** textCondition: a word of the folded text starts with the folded value. */
function textMatches(text: string | null, value: string): boolean {
  if (text === null) return false;
  const folded = normalizeText(value);
  return text.startsWith(folded) || text.includes(` ${folded}`);
}

/** `match` is _filter's eq and ew (stringCondition's): the whole folded value, or its end. */
function stringMatches(
  row: StringRow,
  operator: Operator,
  value: string,
  match?: SqlFilter['match'],
): boolean {
  const plain = unescapeValue(value);
  if (match === 'equals') {
    return row.value === normalizeText(plain);
  }
  if (match === 'ends-with') {
    return row.value.endsWith(normalizeText(plain));
  }
  switch (operator) {
    case Operator.EXACT:
      return row.exact === plain;
    case Operator.CONTAINS:
      return row.value.includes(normalizeText(plain));
    case Operator.TEXT:
      return textMatches(row.value, plain);
    case Operator.EQUALS:
      return row.value.startsWith(normalizeText(plain));
    default:
      return invalid(`Modifier ':${operator}' is not supported on string parameter '${row.code}'`, row.code);
  }
}

function uriMatches(row: UriRow, operator: Operator, value: string): boolean {
  const plain = unescapeValue(value);
  switch (operator) {
    case Operator.BELOW:
      return row.value.startsWith(plain);
    case Operator.ABOVE:
      return plain.startsWith(row.value);
    case Operator.EQUALS:
      return row.value === plain;
    default:
      return invalid(`Modifier ':${operator}' is not supported on uri parameter '${row.code}'`, row.code);
  }
}

/** referenceCondition: Type/id, an absolute URL (as written or by its Type/id tail), or a bare id. */
function referenceMatches(row: ReferenceRow, value: string, targets: readonly string[] | undefined): boolean {
  const plain = unescapeValue(value);
  const typed = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(plain);
  if (typed) {
    return row.targetId === typed[2] && row.targetType === typed[1];
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(plain)) {
    const tail = /\/([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(plain);
    return (
      row.reference === plain ||
      (!!tail &&
        row.targetId === tail[2] &&
        row.targetType === tail[1] &&
        row.reference === `${tail[1]}/${tail[2]}`)
    );
  }
  return (
    row.targetId === plain && (!targets || targets.length === 0 || targets.includes(row.targetType ?? ''))
  );
}

const ORDERED: ReadonlySet<string> = new Set(['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap']);

/** orderedFilter: OR of the positive values; each ne value is a separate 'no value equal to it'. */
function matchOrdered(
  filter: Filter,
  values: string[],
  any: (operator: Operator, value: string) => boolean,
): boolean {
  const parts: [Operator, string][] = values.map((value) => {
    if (filter.operator !== Operator.EQUALS) return [filter.operator, value];
    const [prefix, rest] = splitValuePrefix(value);
    return prefix ? [prefix, rest] : [Operator.EQUALS, value];
  });
  for (const [operator] of parts) {
    if (!ORDERED.has(operator)) {
      invalid(`Modifier ':${operator}' is not supported on '${filter.code}'`, `${filter.code}:${operator}`);
    }
  }
  const positive = parts.filter(([o]) => o !== Operator.NOT_EQUALS);
  const negative = parts.filter(([o]) => o === Operator.NOT_EQUALS);
  return (
    (positive.length > 0 && positive.some(([o, v]) => any(o, v))) || negative.some(([o, v]) => !any(o, v))
  );
}

function instant(value: string): number {
  if (value === '-infinity') return -Infinity;
  if (value === 'infinity') return Infinity;
  return Date.parse(value);
}

function rangeOf(row: DateRow): [number, number] {
  return [instant(row.low), instant(row.high)];
}

/** dateCompare over [low, high) ranges. */
function dateMatches([low, high]: [number, number], operator: Operator, text: string, code: string): boolean {
  const range: DateRange | undefined = parseDateRange(text);
  if (!range) {
    return invalid(`'${text}' is not a date for '${code}'`, code);
  }
  const ql = instant(range.low);
  const qh = instant(range.high);
  switch (operator) {
    case Operator.EQUALS:
    case Operator.NOT_EQUALS:
      return low >= ql && high <= qh;
    case Operator.GREATER_THAN:
      return high > qh;
    case Operator.LESS_THAN:
      return low < ql;
    case Operator.GREATER_THAN_OR_EQUALS:
      return high > ql;
    case Operator.LESS_THAN_OR_EQUALS:
      return low < qh;
    case Operator.STARTS_AFTER:
      return low >= qh;
    case Operator.ENDS_BEFORE:
      return high <= ql;
    case Operator.APPROXIMATELY: {
      const gap = Math.max(Math.abs(Date.now() - ql) * 0.1, qh - ql);
      return low < qh + gap && high > ql - gap;
    }
    default:
      return invalid(`Operator '${operator}' does not apply to '${code}'`, code);
  }
}

/** numberCompare: eq/ne by the query's significant digits, the others against the value. */
function numberMatches(stored: number, operator: Operator, text: string, code: string): boolean {
  const range = parseNumberRange(text, code);
  switch (operator) {
    case Operator.GREATER_THAN:
    case Operator.STARTS_AFTER:
      return stored > range.value;
    case Operator.LESS_THAN:
    case Operator.ENDS_BEFORE:
      return stored < range.value;
    case Operator.GREATER_THAN_OR_EQUALS:
      return stored >= range.value;
    case Operator.LESS_THAN_OR_EQUALS:
      return stored <= range.value;
    case Operator.APPROXIMATELY: {
      const delta = Math.max(Math.abs(range.value) * 0.1, range.high - range.low);
      return stored >= range.value - delta && stored <= range.value + delta;
    }
    case Operator.EQUALS:
    case Operator.NOT_EQUALS:
      return stored >= range.low && stored < range.high;
    default:
      return invalid(`Operator '${operator}' does not apply to '${code}'`, code);
  }
}

/** quantityCondition: number[|system|code], the code matching Quantity.code or Quantity.unit. */
function quantityMatches(row: QuantityRow, operator: Operator, value: string, code: string): boolean {
  const parts = splitBar(value);
  if (parts.length !== 1 && parts.length !== 3) {
    invalid(`Quantity '${value}' of '${code}' must be number or number|system|code`, code);
  }
  if (!numberMatches(row.value, operator, parts[0], code)) return false;
  if (parts.length === 3) {
    const [, system, unit] = parts;
    if (system && row.system !== system) return false;
    if (unit && row.unit !== unit && row.unitText !== unit) return false;
  }
  return true;
}

function matchId(id: string, filter: Filter): boolean {
  if (filter.operator === Operator.MISSING) return filter.value !== 'true';
  const ids = splitOrValues(filter.value).map(unescapeValue);
  if (filter.operator === Operator.NOT) return !ids.includes(id);
  if (filter.operator !== Operator.EQUALS) {
    invalid(`Modifier ':${filter.operator}' is not supported on '_id'`, `_id:${filter.operator}`);
  }
  return ids.includes(id);
}

function matchLastUpdated(lastUpdated: string | undefined, filter: Filter): boolean {
  if (filter.operator === Operator.MISSING) return filter.value !== 'true';
  const at = Date.parse(lastUpdated ?? '');
  // An instant is the point [t, t + 1 ms), as the SQL version treats the column.
  return matchOrdered(filter, splitOrValues(filter.value), (operator, value) =>
    dateMatches(
      [at, at + 1],
      operator === Operator.NOT_EQUALS ? Operator.EQUALS : operator,
      value,
      '_lastUpdated',
    ),
  );
}

function matchCompartment(resource: Resource, filter: Filter): boolean {
  if (filter.operator !== Operator.EQUALS) {
    invalid(
      `Modifier ':${filter.operator}' is not supported on '_compartment'`,
      `_compartment:${filter.operator}`,
    );
  }
  const own = compartmentsOf(resource);
  return splitOrValues(filter.value).some((value) => {
    const plain = unescapeValue(value);
    return own.includes(plain.includes('/') ? plain : `Patient/${plain}`);
  });
}

/** The compartments the repository stamped on the version (meta.compartment), as 'Type/id' strings. */
export function compartmentsOf(resource: Resource): string[] {
  const meta = resource.meta as { compartment?: { reference?: string }[] } | undefined;
  return (meta?.compartment ?? []).map((ref) => ref.reference ?? '').filter(Boolean);
}
