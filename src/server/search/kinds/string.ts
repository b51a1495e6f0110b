// String parameters (FHIR R4 search §3.1.1.4.2): a folded (case- and accent-free) prefix by
// default, :exact as written, :contains anywhere, :text by word; _filter adds eq (the whole folded
// value) and ew (its end). Rows of search_string hold the folded value and the value as written.
import { Operator } from '../../../fhir/search';
import type { StringRow } from '../index-rows';
import { escapeLike, normalizeText } from '../normalize-text';
import type { SqlParams } from '../sql-params';
import type { SqlFilter } from '../types';
import {
  invalid,
  missingMatches,
  missingProbe,
  or,
  probe,
  rowsOf,
  textCondition,
  textMatches,
  unescapeValue,
  values,
} from './probe';
import type { SearchKind } from './types';

/** `match` ('equals', 'ends-with') is _filter's eq and ew: the whole folded value, or its end. */
export function stringCondition(
  p: SqlParams,
  operator: Operator,
  value: string,
  match?: SqlFilter['match'],
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

/** stringCondition in memory, over the folded and the as-written value of one row. */
export function stringMatches(
  row: Pick<StringRow, 'value' | 'exact' | 'code'>,
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

const SQL_OPERATORS: readonly Operator[] = [
  Operator.EQUALS,
  Operator.EXACT,
  Operator.CONTAINS,
  Operator.TEXT,
];

export const string: SearchKind = {
  modifiers: [Operator.MISSING, Operator.EXACT, Operator.CONTAINS, Operator.NOT],
  prefixes: false,
  sql(ctx, resourceType, alias, filter) {
    if (filter.operator === Operator.MISSING) {
      return missingProbe(ctx, 'string', resourceType, alias, filter);
    }
    if (!SQL_OPERATORS.includes(filter.operator)) {
      invalid(
        `Modifier ':${filter.operator}' is not supported on string parameter '${filter.code}'`,
        `${filter.code}:${filter.operator}`,
      );
    }
    const conditions = values(filter).map((v) =>
      stringCondition(ctx.params, filter.operator, v, filter.match),
    );
    return probe(ctx, 'string', resourceType, alias, filter.code, or(conditions));
  },
  matches({ rows }, filter) {
    const own = rowsOf(rows.string, filter.code);
    if (filter.operator === Operator.MISSING) {
      return missingMatches(filter, own.length > 0);
    }
    const all = values(filter);
    return own.some((row) => all.some((v) => stringMatches(row, filter.operator, v, filter.match)));
  },
  sortKey: { table: 'string', ascending: 'value', descending: 'value' },
};
