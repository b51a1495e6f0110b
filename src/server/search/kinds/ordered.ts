// Ordered parameters: number, date and quantity (FHIR R4 search §3.1.1.4.1, .4.3, .4.8). Each value
// may carry a prefix (eq, ne, gt, lt, ge, le, sa, eb, ap) and is a range, not a point: a number by
// its significant digits ('100' is [99.5, 100.5)), a date by its precision ('2024-06' is the
// month). Stored values are ranges too (search_date [low, high)), and prefixes compare range
// with range. ne is "no value equal to it", so a resource without a value matches ne.
import { getTypeSchema } from '../../../fhir';
import type { SearchParameterInfo } from '../../../fhir';
import { Operator, splitValuePrefix } from '../../../fhir/search';
import type { Filter } from '../../../fhir/search';
import { parseDateRange } from '../date-range';
import type { DateRow, QuantityRow } from '../index-rows';
import type { SqlParams } from '../sql-params';
import {
  invalid,
  missingMatches,
  missingProbe,
  or,
  ORDERED_PREFIXES,
  prefixed,
  probe,
  rowsOf,
  splitBar,
} from './probe';
import type { FilterContext, MatchTarget, SearchKind } from './types';

type OrderedType = 'number' | 'date' | 'quantity';

const DATE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function inRange(text: string | undefined, min: number, max: number): boolean {
  return text === undefined || (Number(text) >= min && Number(text) <= max);
}

/** A FHIR date, dateTime or instant at any precision (YYYY … YYYY-MM-DDThh:mm:ss.sss+zz:zz). */
function dateProblem(value: string): string | undefined {
  const match = DATE.exec(value);
  if (!match) {
    return 'a date like 2020, 2020-01, 2020-01-31 or 2020-01-31T10:00:00Z';
  }
  const [, , month, day, hour, minute, second] = match;
  const valid =
    inRange(month, 1, 12) &&
    inRange(day, 1, 31) &&
    inRange(hour, 0, 23) &&
    inRange(minute, 0, 59) &&
    inRange(second, 0, 60);
  return valid ? undefined : 'a calendar date and time';
}

function numberProblem(value: string): string | undefined {
  return NUMBER.test(value) ? undefined : 'a decimal number';
}

/** `number`, `number|system|code` or `number||code` (FHIR R4 search §3.1.1.4.8). */
function quantityProblem(value: string): string | undefined {
  const parts = value.split('|');
  if (parts.length !== 1 && parts.length !== 3) {
    return 'a number, or number|system|code';
  }
  return numberProblem(parts[0]) && 'a number, or number|system|code';
}

const PROBLEM_OF: Record<OrderedType, (value: string) => string | undefined> = {
  date: dateProblem,
  number: numberProblem,
  quantity: quantityProblem,
};

interface NumberRange {
  value: number;
  low: number;
  high: number;
}

/** '100' → 100 ± 0.5, '1.50' → 1.5 ± 0.005 (FHIR: the precision is the significant digits). */
export function parseNumberRange(text: string, parameter: string): NumberRange {
  const trimmed = text.trim();
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(trimmed)) {
    invalid(`'${text}' is not a number for '${parameter}'`, parameter);
  }
  const value = Number(trimmed);
  const mantissa = trimmed.replace(/^[+-]/, '').split(/[eE]/)[0];
  const exponent = Number(trimmed.split(/[eE]/)[1] ?? 0);
  const decimals = mantissa.includes('.') ? mantissa.split('.')[1].length : 0;
  const half = 0.5 * 10 ** (exponent - decimals);
  return { value, low: value - half, high: value + half };
}

/** A prefixed comparison of a stored number column against a query number. */
export function numberCompare(
  p: SqlParams,
  column: string,
  operator: Operator,
  text: string,
  parameter: string,
): string {
  const range = parseNumberRange(text, parameter);
  const v = (): string => `${p.add(String(range.value))}::numeric`;
  switch (operator) {
    case Operator.GREATER_THAN:
    case Operator.STARTS_AFTER:
      return `${column} > ${v()}`;
    case Operator.LESS_THAN:
    case Operator.ENDS_BEFORE:
      return `${column} < ${v()}`;
    case Operator.GREATER_THAN_OR_EQUALS:
      return `${column} >= ${v()}`;
    case Operator.LESS_THAN_OR_EQUALS:
      return `${column} <= ${v()}`;
    case Operator.APPROXIMATELY: {
      // Within 10% of the value (FHIR leaves the tolerance to the server).
      const delta = Math.max(Math.abs(range.value) * 0.1, range.high - range.low);
      return `(${column} >= ${p.add(String(range.value - delta))}::numeric AND ${column} <= ${p.add(String(range.value + delta))}::numeric)`;
    }
    case Operator.EQUALS:
    case Operator.NOT_EQUALS: // negated by the caller
      return `(${column} >= ${p.add(String(range.low))}::numeric AND ${column} < ${p.add(String(range.high))}::numeric)`;
    default:
      return invalid(`Operator '${operator}' does not apply to '${parameter}'`, parameter);
  }
}

/** numberCompare in memory: eq/ne by the query's significant digits, the others against the value. */
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

/** 'value|system|code' (system and code optional): the parts, or a 400. */
function quantityParts(value: string, parameter: string): string[] {
  const parts = splitBar(value);
  if (parts.length !== 1 && parts.length !== 3) {
    invalid(`Quantity '${value}' of '${parameter}' must be number or number|system|code`, parameter);
  }
  return parts;
}

/** The number part and the unit conditions; the code matches Quantity.code or Quantity.unit. */
export function quantityCondition(
  p: SqlParams,
  operator: Operator,
  value: string,
  parameter: string,
): string {
  const parts = quantityParts(value, parameter);
  const conditions = [numberCompare(p, 't.value', operator, parts[0], parameter)];
  if (parts.length === 3) {
    const [, system, unit] = parts;
    if (system) conditions.push(`t.system = ${p.add(system)}`);
    if (unit) {
      const u = p.add(unit);
      conditions.push(`(t.unit = ${u} OR t.unit_text = ${u})`);
    }
  }
  return conditions.length === 1 ? conditions[0] : `(${conditions.join(' AND ')})`;
}

function quantityMatches(row: QuantityRow, operator: Operator, value: string, code: string): boolean {
  const parts = quantityParts(value, code);
  if (!numberMatches(row.value, operator, parts[0], code)) return false;
  if (parts.length === 3) {
    const [, system, unit] = parts;
    if (system && row.system !== system) return false;
    if (unit && row.unit !== unit && row.unitText !== unit) return false;
  }
  return true;
}

/**
 * Date comparisons of FHIR R4 search: the stored range [low, high) against the query range
 * [ql, qh). eq: the query contains the value; gt/lt: some part of the value lies beyond the query;
 * sa/eb: the whole value lies after/before; ap: ranges meet within 10% of the distance to now.
 */
export function dateCompare(
  p: SqlParams,
  low: string,
  high: string,
  operator: Operator,
  text: string,
  parameter: string,
): string {
  const range = parseDateRange(text);
  if (!range) {
    invalid(`'${text}' is not a date for '${parameter}'`, parameter);
  }
  // Bound lazily: an unused parameter has no type and PostgreSQL refuses the statement.
  const ql = (): string => `${p.add(range.low)}::timestamptz`;
  const qh = (): string => `${p.add(range.high)}::timestamptz`;
  switch (operator) {
    case Operator.EQUALS:
    case Operator.NOT_EQUALS: // negated by the caller
      return `(${low} >= ${ql()} AND ${high} <= ${qh()})`;
    case Operator.GREATER_THAN:
      return `${high} > ${qh()}`;
    case Operator.LESS_THAN:
      return `${low} < ${ql()}`;
    case Operator.GREATER_THAN_OR_EQUALS:
      return `${high} > ${ql()}`;
    case Operator.LESS_THAN_OR_EQUALS:
      return `${low} < ${qh()}`;
    case Operator.STARTS_AFTER:
      return `${low} >= ${qh()}`;
    case Operator.ENDS_BEFORE:
      return `${high} <= ${ql()}`;
    case Operator.APPROXIMATELY: {
      const start = Date.parse(range.low);
      const gap = Math.max(Math.abs(Date.now() - start) * 0.1, Date.parse(range.high) - start);
      const al = new Date(start - gap).toISOString();
      const ah = new Date(Date.parse(range.high) + gap).toISOString();
      return `(${low} < ${p.add(ah)}::timestamptz AND ${high} > ${p.add(al)}::timestamptz)`;
    }
    default:
      return invalid(`Operator '${operator}' does not apply to '${parameter}'`, parameter);
  }
}

function instant(value: string): number {
  if (value === '-infinity') return -Infinity;
  if (value === 'infinity') return Infinity;
  return Date.parse(value);
}

/** dateCompare in memory, over a stored range [low, high) in epoch milliseconds. */
export function dateMatches(
  [low, high]: [number, number],
  operator: Operator,
  text: string,
  code: string,
): boolean {
  const range = parseDateRange(text);
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

const rangeOf = (row: DateRow): [number, number] => [instant(row.low), instant(row.high)];

/** The filter's values with their prefixes, each checked; a 400 names the parameter, of `type` when given. */
export function orderedParts(filter: Filter, type?: OrderedType): [Operator, string][] {
  const parts = prefixed(filter);
  for (const [operator] of parts) {
    if (!ORDERED_PREFIXES.has(operator)) {
      const label = type ? `${type} parameter '${filter.code}'` : `'${filter.code}'`;
      invalid(`Modifier ':${operator}' is not supported on ${label}`, `${filter.code}:${operator}`);
    }
  }
  return parts;
}

/** In memory: OR of the positive values; each ne value is a separate "no value equal to it". */
export function orderedMatches(
  parts: [Operator, string][],
  any: (operator: Operator, value: string) => boolean,
): boolean {
  const positive = parts.filter(([o]) => o !== Operator.NOT_EQUALS);
  const negative = parts.filter(([o]) => o === Operator.NOT_EQUALS);
  return (
    (positive.length > 0 && positive.some(([o, v]) => any(o, v))) || negative.some(([o, v]) => !any(o, v))
  );
}

/** One value's SQL condition on a row `t` of the type's table. */
function orderedCondition(
  ctx: FilterContext,
  type: OrderedType,
  filter: Filter & { match?: string },
  operator: Operator,
  value: string,
): string {
  const code = filter.code;
  if (type === 'date' && filter.match === 'overlaps') {
    // _filter's po: the value's range and the query's share an instant (both bounds on one row).
    const after = dateCompare(ctx.params, 't.low', 't.high', Operator.GREATER_THAN_OR_EQUALS, value, code);
    return `(${after} AND ${dateCompare(ctx.params, 't.low', 't.high', Operator.LESS_THAN_OR_EQUALS, value, code)})`;
  }
  if (type === 'date') return dateCompare(ctx.params, 't.low', 't.high', operator, value, code);
  if (type === 'number') return numberCompare(ctx.params, 't.value', operator, value, code);
  return quantityCondition(ctx.params, operator, value, code);
}

/** Whether one resource has a row of the parameter matching one prefixed value. */
function anyRowMatches(
  target: MatchTarget,
  type: OrderedType,
  code: string,
  operator: Operator,
  value: string,
): boolean {
  const { rows } = target;
  if (type === 'date')
    return rowsOf(rows.date, code).some((row) => dateMatches(rangeOf(row), operator, value, code));
  if (type === 'number')
    return rowsOf(rows.number, code).some((row) => numberMatches(row.value, operator, value, code));
  return rowsOf(rows.quantity, code).some((row) => quantityMatches(row, operator, value, code));
}

function orderedKind(type: OrderedType, ascending: string, descending: string): SearchKind {
  return {
    modifiers: [Operator.MISSING],
    prefixes: true,
    // With mixed prefixes across OR values each value still carries its own prefix.
    valueProblem: (value, prefixed) => PROBLEM_OF[type](prefixed ? splitValuePrefix(value)[1] : value),
    sql(ctx, resourceType, alias, filter) {
      if (filter.operator === Operator.MISSING) {
        return missingProbe(ctx, type, resourceType, alias, filter);
      }
      const parts = orderedParts(filter, type);
      // ne: resources with no value equal to it (FHIR: not within the value's range).
      const positive = parts.filter(([operator]) => operator !== Operator.NOT_EQUALS);
      const negative = parts.filter(([operator]) => operator === Operator.NOT_EQUALS);
      const conditions: string[] = [];
      if (positive.length > 0) {
        conditions.push(
          probe(
            ctx,
            type,
            resourceType,
            alias,
            filter.code,
            or(positive.map(([o, v]) => orderedCondition(ctx, type, filter, o, v))),
          ),
        );
      }
      for (const [operator, value] of negative) {
        conditions.push(
          `NOT ${probe(ctx, type, resourceType, alias, filter.code, orderedCondition(ctx, type, filter, operator, value))}`,
        );
      }
      return or(conditions);
    },
    matches(target, filter) {
      const code = filter.code;
      if (filter.operator === Operator.MISSING) {
        return missingMatches(filter, rowsOf<{ code: string }>(target.rows[type], code).length > 0);
      }
      if (type === 'date' && filter.match === 'overlaps') {
        // _filter's po: the value's range and the query's share an instant, as the SQL asks.
        return rowsOf(target.rows.date, code).some(
          (row) =>
            dateMatches(rangeOf(row), Operator.GREATER_THAN_OR_EQUALS, filter.value, code) &&
            dateMatches(rangeOf(row), Operator.LESS_THAN_OR_EQUALS, filter.value, code),
        );
      }
      return orderedMatches(orderedParts(filter, type), (operator, value) =>
        anyRowMatches(target, type, code, operator, value),
      );
    },
    sortKey: { table: type, ascending, descending },
  };
}

export const number = orderedKind('number', 'value', 'value');
export const date = orderedKind('date', 'low', 'high');
export const quantity = orderedKind('quantity', 'value', 'value');

/**
 * A date parameter over one single-valued element (Slot.start, Communication.sent) holds at most
 * one index row per resource, so `start=gt…&start=lt…` can test both bounds on that one row:
 * one probe per candidate instead of one per filter (the slot calendar's range query).
 */
export function isSingleDate(resourceType: string, param: SearchParameterInfo): boolean {
  const match = /^([A-Za-z]+)\.([A-Za-z]+)$/.exec(param.expression);
  if (param.type !== 'date' || !match || match[1] !== resourceType) {
    return false;
  }
  const schema = getTypeSchema(resourceType);
  const element = schema?.elements.get(match[2]) ?? schema?.elements.get(`${match[2]}[x]`);
  return !!element && element.max === 1 && element.types.every((type) => type.code !== 'Timing');
}

/** Several bounds ([prefix, value]) on one single-valued date parameter, tested on its one row. */
export function singleDateProbe(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  code: string,
  bounds: [Operator, string][],
): string {
  const each = bounds.map(([operator, value]) =>
    dateCompare(ctx.params, 't.low', 't.high', operator, value, code),
  );
  return probe(ctx, 'date', resourceType, alias, code, each.join(' AND '));
}
