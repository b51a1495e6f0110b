// _sort keys → ORDER BY expressions. _id and _lastUpdated are columns of the resource row; other
// parameters sort by their smallest (ascending) or largest (descending) indexed value, read
// per candidate through the index tables' (resource_id) index. Resources without a value go last.
import { getSearchParameter } from '../../fhir';
import type { SortRule } from '../../fhir/search';
import { INDEX_TABLES } from './schema';
import type { IndexKind } from './schema';
import type { SqlParams } from './sql-params';
import { invalid } from './value-conditions';

const SORT_COLUMN: Partial<Record<string, [IndexKind, string, string]>> = {
  // [table, ascending column, descending column]
  date: ['date', 'low', 'high'],
  string: ['string', 'value', 'value'],
  token: ['token', 'value', 'value'],
  number: ['number', 'value', 'value'],
  quantity: ['quantity', 'value', 'value'],
  reference: ['reference', 'reference', 'reference'],
  uri: ['uri', 'value', 'value'],
};

export function sortSql(
  params: SqlParams,
  resourceType: string,
  alias: string,
  rules: readonly SortRule[],
  /** A per-type table's column for a rule it answers (typed-table-plan.ts). */
  typedKey?: (rule: SortRule) => string | undefined,
): string[] {
  const order = rules.map((rule) => {
    const typed = typedKey?.(rule);
    if (typed) {
      return typed;
    }
    const direction = rule.descending ? 'DESC' : 'ASC';
    if (rule.code === '_id') {
      return `${alias}.id ${direction}`;
    }
    if (rule.code === '_lastUpdated') {
      return `${alias}.last_updated ${direction}`;
    }
    const param = getSearchParameter(resourceType, rule.code);
    const column = param && SORT_COLUMN[param.type];
    if (!param || !column) {
      invalid(`Unknown sort parameter '${rule.code}' for ${resourceType}`, '_sort');
    }
    const [kind, ascending, descending] = column;
    const aggregate = rule.descending ? `max(t.${descending})` : `min(t.${ascending})`;
    return `(SELECT ${aggregate} FROM ${INDEX_TABLES[kind].table} t WHERE t.resource_id = ${alias}.id AND t.resource_type = ${params.add(resourceType)} AND t.code = ${params.add(rule.code)}) ${direction} NULLS LAST`;
  });
  // A total order, so pages never overlap or skip.
  order.push(`${alias}.id`);
  return order;
}
