// _sort keys → ORDER BY expressions. _id and _lastUpdated are columns of the resource row; other
// parameters sort by their type's sort key (kinds/): the smallest (ascending) or largest
// (descending) indexed value, read per candidate through the index tables' (resource_id) index.
// Resources without a value go last.
import { getSearchParameter } from '../../fhir';
import type { SortRule } from '../../fhir/search';
import { SEARCH_KINDS } from './kinds';
import type { SortKey } from './kinds';
import { invalid } from './kinds/probe';
import { INDEX_TABLES } from './schema';
import type { SqlParams } from './sql-params';

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
    const key: SortKey | undefined = param && SEARCH_KINDS[param.type]?.sortKey;
    if (!key) {
      invalid(`Unknown sort parameter '${rule.code}' for ${resourceType}`, '_sort');
    }
    const aggregate = rule.descending ? `max(t.${key.descending})` : `min(t.${key.ascending})`;
    return `(SELECT ${aggregate} FROM ${INDEX_TABLES[key.table].table} t WHERE t.resource_id = ${alias}.id AND t.resource_type = ${params.add(resourceType)} AND t.code = ${params.add(rule.code)}) ${direction} NULLS LAST`;
  });
  // A total order, so pages never overlap or skip.
  order.push(`${alias}.id`);
  return order;
}
