// One search value → a SQL condition on a row `t` of its index table (schema.ts), following the
// FHIR R4 search rules per parameter type: prefixes compare ranges with ranges (dates by their
// precision, numbers by their significant digits), strings match folded prefixes, tokens match
// system|code forms. Every condition is sargable on the table's value index.
import { badRequest, OperationOutcomeError } from '../../fhir';
import { Operator } from '../../fhir/search';
import { parseDateRange } from './date-range';
import { escapeLike, normalizeText } from './normalize-text';
import type { SqlParams } from './sql-params';

export function invalid(message: string, parameter: string): never {
  throw new OperationOutcomeError(badRequest(message, parameter));
}

/** Splits `system|code` on the first unescaped bar; `\|` stays a bar inside a part. */
export function splitBar(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\' && i + 1 < value.length) {
      current += value[++i];
    } else if (value[i] === '|') {
      parts.push(current);
      current = '';
    } else {
      current += value[i];
    }
  }
  parts.push(current);
  return parts;
}

/** Unescapes `\,` `\$` `\|` `\\` in a plain value. */
export function unescapeValue(value: string): string {
  return value.replace(/\\([,$|\\])/g, '$1');
}

export function tokenCondition(p: SqlParams, value: string, parameter: string): string {
  const parts = splitBar(value);
  if (parts.length === 1) {
    return `t.value = ${p.add(parts[0])}`;
  }
  if (parts.length !== 2) {
    invalid(`Token '${value}' of '${parameter}' has more than one '|'`, parameter);
  }
  const [system, code] = parts;
  if (!system && !code) {
    invalid(`Token '|' of '${parameter}' has neither system nor code`, parameter);
  }
  if (!system) {
    return `(t.system IS NULL AND t.value = ${p.add(code)})`;
  }
  if (!code) {
    return `t.system = ${p.add(system)}`;
  }
  return `(t.system = ${p.add(system)} AND t.value = ${p.add(code)})`;
}

/** :of-type=typeSystem|typeCode|value against the rows indexed under `code:of-type`. */
export function ofTypeCondition(p: SqlParams, value: string, parameter: string): string {
  const parts = splitBar(value);
  if (parts.length !== 3 || !parts[1] || !parts[2]) {
    invalid(`:of-type on '${parameter}' needs system|code|value, got '${value}'`, parameter);
  }
  const system = parts[0] ? `t.system = ${p.add(parts[0])}` : 't.system IS NULL';
  return `(${system} AND t.value = ${p.add(`${parts[1]}|${parts[2]}`)})`;
}

/** :text on tokens and strings: any word of the folded text starting with the folded value. */
export function textCondition(p: SqlParams, column: string, value: string): string {
  const folded = escapeLike(normalizeText(value));
  return `(${column} LIKE ${p.add(`${folded}%`)} OR ${column} LIKE ${p.add(`% ${folded}%`)})`;
}

/** `match` ('equals', 'ends-with') is _filter's eq and ew: the whole folded value, or its end. */
export function stringCondition(
  p: SqlParams,
  operator: Operator,
  value: string,
  match?: 'equals' | 'ends-with' | 'overlaps',
): string {
  const plain = unescapeValue(value);
  if (match === 'equals') {
    return `t.value = ${p.add(normalizeText(plain))}`;
  }
  if (match === 'ends-with') {
    return `t.value LIKE ${p.add(`%${escapeLike(normalizeText(plain))}`)}`;
  }
  switch (operator) {
    case Operator.EXACT:
      return `t.exact = ${p.add(plain)}`;
    case Operator.CONTAINS:
      return `t.value LIKE ${p.add(`%${escapeLike(normalizeText(plain))}%`)}`;
    case Operator.TEXT:
      return textCondition(p, 't.value', plain);
    default:
      return `t.value LIKE ${p.add(`${escapeLike(normalizeText(plain))}%`)}`;
  }
}

/** Path-aware :below / :above on URLs: `http://a/b` is under `http://a`, not under `http://a/` + `bc`. */
export function uriCondition(p: SqlParams, operator: Operator, value: string): string {
  const plain = unescapeValue(value);
  const base = plain.replace(/\/+$/, '');
  switch (operator) {
    case Operator.BELOW:
      // The value and every URI in a path under it.
      return `(t.value = ANY(${p.add([plain, base])}::text[]) OR t.value LIKE ${p.add(`${escapeLike(base)}/%`)})`;
    case Operator.ABOVE:
      // Every stored URI the value equals or lies under, on a path boundary.
      return `(t.value = ${p.add(plain)} OR left(${p.add(`${plain}/`)}, length(rtrim(t.value, '/')) + 1) = rtrim(t.value, '/') || '/')`;
    default:
      return `t.value = ${p.add(plain)}`;
  }
}

/** Reference values: 'Type/id', an id alone, or an absolute URL (matched as written or by its Type/id). */
/** 'Type/id', a literal reference as referenceCondition (and the per-type table plan) match it. */
export const TYPED_REFERENCE = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/;

export function referenceCondition(
  p: SqlParams,
  value: string,
  targets: readonly string[] | undefined,
): string {
  const plain = unescapeValue(value);
  const typed = TYPED_REFERENCE.exec(plain);
  if (typed) {
    return `(t.target_id = ${p.add(typed[2])} AND t.target_type = ${p.add(typed[1])})`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(plain)) {
    const tail = /\/([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(plain);
    const exact = `t.reference = ${p.add(plain)}`;
    return tail
      ? `(${exact} OR (t.target_id = ${p.add(tail[2])} AND t.target_type = ${p.add(tail[1])} AND t.reference = ${p.add(`${tail[1]}/${tail[2]}`)}))`
      : exact;
  }
  const id = `t.target_id = ${p.add(plain)}`;
  return targets && targets.length > 0 ? `(${id} AND t.target_type = ANY(${p.add(targets)}::text[]))` : id;
}

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

/** 'value|system|code' (system and code optional) → the number part and the unit conditions. */
export function quantityCondition(
  p: SqlParams,
  operator: Operator,
  value: string,
  parameter: string,
): string {
  const parts = splitBar(value);
  if (parts.length !== 1 && parts.length !== 3) {
    invalid(`Quantity '${value}' of '${parameter}' must be number or number|system|code`, parameter);
  }
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
