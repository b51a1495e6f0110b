// When a search can use its type's per-type table (typed-tables.ts): it must name one Patient in
// the patient parameter (the table's leading column), as Patient/{id}, or as a bare id where the
// parameter can only point at a Patient. Then a plain system|code or code filter on the code
// parameter, and _sort on the date parameter, read the table's columns too; every other filter
// keeps its generic probe. Each mapped condition matches exactly the rows the generic one does
// (referenceCondition, tokenCondition, sortSql), which tests/server/search/typed-tables.test.ts
// checks by running searches both ways.
import { getSearchParameter } from '../../fhir';
import { Operator, splitOrValues } from '../../fhir/search';
import type { Filter, SearchRequest, SortRule } from '../../fhir/search';
import type { SqlParams } from './sql-params';
import { bareCodeKey, systemCodeKey, typedTableOf } from './typed-tables';
import type { TypedTable } from './typed-tables';
import { splitBar, unescapeValue } from './kinds/probe';
import { TYPED_REFERENCE } from './kinds/reference';

/** The alias of the per-type table's row, joined to the resource row `r`. */
const ALIAS = 'typed';

/** A per-type row joined to resource row `resourceAlias` in the same query, as `alias`. */
export interface JoinedTypedRow {
  resourceAlias: string;
  resourceType: string;
  alias: string;
}

export interface TypedTablePlan {
  /** Joined after `resource r`. */
  join: string;
  /** Conditions on the typed row, in place of the generic probes of `handled`. */
  conditions: string[];
  handled: ReadonlySet<Filter>;
  /** The joined row, for other conditions on `r` that its columns answer (typedRowConditions). */
  joined: JoinedTypedRow;
  /** The ORDER BY expression of a sort rule the table answers, else undefined. */
  sortKey(rule: SortRule): string | undefined;
}

/** The Patient id a patient filter names, when the table's column answers it exactly. */
function patientId(spec: TypedTable, filter: Filter): string | undefined {
  if (filter.code !== spec.patientParam || filter.operator !== Operator.EQUALS) return undefined;
  const values = splitOrValues(filter.value);
  if (values.length !== 1) return undefined;
  const value = unescapeValue(values[0]);
  const typed = TYPED_REFERENCE.exec(value);
  if (typed) return typed[1] === 'Patient' ? typed[2] : undefined;
  const targets = getSearchParameter(spec.resourceType, spec.patientParam)?.target ?? [];
  const onlyPatients = targets.length === 1 && targets[0] === 'Patient';
  return onlyPatients && /^[A-Za-z0-9\-.]{1,64}$/.test(value) ? value : undefined;
}

/** The codes-column keys of a code filter's OR values, when each is system|code or a bare code. */
function codeKeys(spec: TypedTable, filter: Filter): string[] | undefined {
  if (filter.code !== spec.codeParam || filter.operator !== Operator.EQUALS) return undefined;
  const keys: string[] = [];
  for (const value of splitOrValues(filter.value)) {
    const parts = splitBar(value);
    if (parts.length === 1 && parts[0]) keys.push(bareCodeKey(parts[0]));
    else if (parts.length === 2 && parts[0] && parts[1]) keys.push(systemCodeKey(parts[0], parts[1]));
    else return undefined;
  }
  return keys;
}

/**
 * The filters on resource row `alias` of `resourceType` that the joined typed row answers (plain
 * code filters, on its codes column: every row of one resource carries all its codes), as
 * conditions on that row; nothing when no typed row is joined to `alias`.
 */
export function typedRowConditions(
  params: SqlParams,
  joined: JoinedTypedRow | undefined,
  alias: string,
  resourceType: string,
  filters: readonly Filter[],
): { conditions: string[]; handled: Set<Filter> } {
  const conditions: string[] = [];
  const handled = new Set<Filter>();
  const spec = joined && joined.resourceAlias === alias ? typedTableOf(resourceType) : undefined;
  if (!joined || !spec || spec.resourceType !== joined.resourceType) {
    return { conditions, handled };
  }
  for (const filter of filters) {
    const keys = codeKeys(spec, filter);
    if (keys) {
      conditions.push(`${joined.alias}.codes && ${params.add(keys)}::text[]`);
      handled.add(filter);
    }
  }
  return { conditions, handled };
}

export function planTypedTable(params: SqlParams, request: SearchRequest): TypedTablePlan | undefined {
  const spec = typedTableOf(request.resourceType);
  if (!spec) return undefined;
  const filters = request.filters ?? [];
  const [patientFilter, patient] =
    filters.map((filter) => [filter, patientId(spec, filter)] as const).find(([, id]) => id !== undefined) ??
    [];
  if (!patientFilter || !patient) return undefined;
  const conditions = [`${ALIAS}.patient_id = ${params.add(patient)}`];
  const handled = new Set<Filter>([patientFilter]);
  const joined: JoinedTypedRow = { resourceAlias: 'r', resourceType: spec.resourceType, alias: ALIAS };
  const codes = typedRowConditions(params, joined, 'r', request.resourceType, filters);
  conditions.push(...codes.conditions);
  codes.handled.forEach((filter) => handled.add(filter));
  return {
    join: `JOIN ${spec.table} ${ALIAS} ON ${ALIAS}.resource_id = r.id`,
    conditions,
    handled,
    joined,
    // As sortSql: the largest high descending, the smallest low ascending, no date last.
    sortKey: (rule) =>
      rule.code !== spec.dateParam
        ? undefined
        : rule.descending
          ? `${ALIAS}.date_high DESC NULLS LAST`
          : `${ALIAS}.date_low ASC NULLS LAST`,
  };
}
