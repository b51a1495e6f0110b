// The pieces every kind's SQL probe and in-memory matcher share: splitting and unescaping values,
// the EXISTS probe of an index table, :missing, and the word-prefix :text match of tokens and strings.
import { badRequest, OperationOutcomeError } from '../../../fhir';
import { Operator, PREFIX_OPERATORS, splitOrValues, splitValuePrefix } from '../../../fhir/search';
import type { Filter } from '../../../fhir/search';
import { escapeLike, normalizeText } from '../normalize-text';
import { INDEX_TABLES } from '../schema';
import type { IndexKind } from '../schema';
import type { SqlParams } from '../sql-params';
import type { FilterContext } from './types';

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

/** The comma-separated (OR) values of a filter. */
export function values(filter: Filter): string[] {
  return splitOrValues(filter.value);
}

export function or(conditions: string[]): string {
  return conditions.length === 1 ? conditions[0] : `(${conditions.join(' OR ')})`;
}

// The comparison prefixes of ordered types (number, date, quantity), as the parser splits them off.
export const ORDERED_PREFIXES: ReadonlySet<string> = new Set(PREFIX_OPERATORS);

/** Each OR value with its own prefix when the filter's operator is the default eq. */
export function prefixed(filter: Filter): [Operator, string][] {
  return values(filter).map((value) => {
    if (filter.operator !== Operator.EQUALS) return [filter.operator, value];
    const [prefix, rest] = splitValuePrefix(value);
    return prefix ? [prefix, rest] : [Operator.EQUALS, value];
  });
}

/** An EXISTS probe of one index table for resource `alias`, rows of `code` matching `condition`. */
export function probe(
  ctx: FilterContext,
  kind: IndexKind,
  resourceType: string,
  alias: string,
  code: string,
  condition?: string,
): string {
  const table = INDEX_TABLES[kind].table;
  return `EXISTS (SELECT 1 FROM ${table} t WHERE t.resource_id = ${alias}.id AND t.resource_type = ${ctx.params.add(resourceType)} AND t.code = ${ctx.params.add(code)}${condition ? ` AND ${condition}` : ''})`;
}

/** `:missing=true|false` on a parameter whose rows live in one table. */
export function missingProbe(
  ctx: FilterContext,
  kind: IndexKind,
  resourceType: string,
  alias: string,
  filter: Filter,
): string {
  if (filter.value !== 'true' && filter.value !== 'false') {
    invalid(`:missing on '${filter.code}' must be true or false`, `${filter.code}:missing`);
  }
  const exists = probe(ctx, kind, resourceType, alias, filter.code);
  return filter.value === 'true' ? `NOT ${exists}` : exists;
}

/** In memory, `:missing` given whether the resource has rows for the parameter. */
export function missingMatches(filter: Filter, present: boolean): boolean {
  return filter.value === 'true' ? !present : present;
}

/** The rows of one parameter code. */
export function rowsOf<R extends { code: string }>(rows: readonly R[], code: string): R[] {
  return rows.filter((row) => row.code === code);
}

/** :text on tokens and strings: any word of the folded text starting with the folded value. */
export function textCondition(p: SqlParams, column: string, value: string): string {
  const folded = escapeLike(normalizeText(value));
  return `(${column} LIKE ${p.add(`${folded}%`)} OR ${column} LIKE ${p.add(`% ${folded}%`)})`;
}

/** textCondition in memory: a word of the folded text starts with the folded value. */
export function textMatches(text: string | null, value: string): boolean {
  if (text === null) return false;
  const folded = normalizeText(value);
  return text.startsWith(folded) || text.includes(` ${folded}`);
}
