// URI parameters (FHIR R4 search §3.1.1.4.7): the URI as written, :below / :above along its path,
// and :not, over the search_uri rows.
import { Operator } from '../../../fhir/search';
import type { Filter } from '../../../fhir/search';
import type { UriRow } from '../index-rows';
import { escapeLike } from '../normalize-text';
import type { SqlParams } from '../sql-params';
import { invalid, missingMatches, missingProbe, or, probe, rowsOf, unescapeValue, values } from './probe';
import type { SearchKind } from './types';

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

/** uriCondition in memory; unlike the SQL, :below and :above compare plain prefixes, not paths. */
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

const SQL_OPERATORS: readonly Operator[] = [Operator.EQUALS, Operator.ABOVE, Operator.BELOW, Operator.NOT];

/** :not is "no value equal to it": the equality test, negated over the whole resource. */
const positive = (filter: Filter): Operator =>
  filter.operator === Operator.NOT ? Operator.EQUALS : filter.operator;

export const uri: SearchKind = {
  modifiers: [Operator.MISSING, Operator.ABOVE, Operator.BELOW, Operator.NOT],
  prefixes: false,
  sql(ctx, resourceType, alias, filter) {
    if (filter.operator === Operator.MISSING) {
      return missingProbe(ctx, 'uri', resourceType, alias, filter);
    }
    if (!SQL_OPERATORS.includes(filter.operator)) {
      invalid(
        `Modifier ':${filter.operator}' is not supported on uri parameter '${filter.code}'`,
        `${filter.code}:${filter.operator}`,
      );
    }
    const operator = positive(filter);
    const exists = probe(
      ctx,
      'uri',
      resourceType,
      alias,
      filter.code,
      or(values(filter).map((v) => uriCondition(ctx.params, operator, v))),
    );
    return filter.operator === Operator.NOT ? `NOT ${exists}` : exists;
  },
  matches({ rows }, filter) {
    const own = rowsOf(rows.uri, filter.code);
    if (filter.operator === Operator.MISSING) {
      return missingMatches(filter, own.length > 0);
    }
    const operator = positive(filter);
    const all = values(filter);
    const found = own.some((row) => all.some((v) => uriMatches(row, operator, v)));
    return filter.operator === Operator.NOT ? !found : found;
  },
  sortKey: { table: 'uri', ascending: 'value', descending: 'value' },
};
