// When a search can use its type's per-type table (typed-tables.ts): it must name one Patient in
// the patient parameter or in the subject parameter that patient narrows (the table's leading
// column), as Patient/{id} (`subject:Patient={id}` is parsed to that), as an absolute URL ending in
// Patient/{id}, or as a bare id where the parameter can only point at a Patient. Then a plain
// system|code or code filter on the code parameter, and _sort on the date parameter, read the
// table's columns too; every other filter keeps its generic probe. Each mapped condition matches
// exactly the rows the generic one does (referenceCondition, tokenCondition, sortSql), except an
// absolute URL's, which narrows to its Patient's rows and keeps its probe;
// tests/server/search/typed-tables.test.ts checks this by running searches both ways.
import { getSearchParameter } from '../../fhir';
import { Operator, splitOrValues } from '../../fhir/search';
import type { Filter, SearchRequest, SortRule } from '../../fhir/search';
import type { SqlParams } from './sql-params';
import { bareCodeKey, systemCodeKey, typedTableOf } from './typed-tables';
import type { TypedTable } from './typed-tables';
import { splitBar, unescapeValue } from './kinds/probe';
import { ABSOLUTE_REFERENCE, TYPED_REFERENCE } from './kinds/reference';
import { referenceTarget } from './extract-index-rows';

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

/**
 * The parameters whose references to one Patient are the table's patient column: the patient
 * parameter, and the subject parameter it narrows when its expression says so (the writer indexes
 * both from the same references, so `subject=Patient/x` finds exactly the rows of `patient=x`).
 */
function patientParams(spec: TypedTable): string[] {
  const narrowed = spec.subjectParam && getSearchParameter(spec.resourceType, spec.subjectParam)?.expression;
  const patient = getSearchParameter(spec.resourceType, spec.patientParam)?.expression;
  return narrowed && patient === `${narrowed}.where(resolve() is Patient)`
    ? [spec.patientParam, spec.subjectParam as string]
    : [spec.patientParam];
}

/** One Patient a filter names; `exact` when the table's column answers the filter alone. */
interface NamedPatient {
  id: string;
  exact: boolean;
}

/**
 * The Patient a patient or subject filter names: Patient/{id}, a bare id where the parameter can
 * only point at a Patient, or an absolute URL ending in Patient/{id}. referenceCondition matches
 * such a URL as written or as the relative Patient/{id}: every such row is a row of that Patient,
 * but not every row of the Patient matches (another server's URL), so the URL's own probe stays.
 */
function namedPatient(spec: TypedTable, filter: Filter): NamedPatient | undefined {
  if (filter.operator !== Operator.EQUALS || !patientParams(spec).includes(filter.code)) return undefined;
  const values = splitOrValues(filter.value);
  if (values.length !== 1) return undefined;
  const value = unescapeValue(values[0]);
  const typed = TYPED_REFERENCE.exec(value);
  if (typed) return typed[1] === 'Patient' ? { id: typed[2], exact: true } : undefined;
  if (ABSOLUTE_REFERENCE.test(value)) {
    // As the writer reads the URL (referenceTarget), so a row stored with it is this Patient's.
    const target = referenceTarget(value);
    return target.type === 'Patient' && target.id ? { id: target.id, exact: false } : undefined;
  }
  const targets = getSearchParameter(spec.resourceType, filter.code)?.target ?? [];
  const onlyPatients = targets.length === 1 && targets[0] === 'Patient';
  return onlyPatients && /^[A-Za-z0-9\-.]{1,64}$/.test(value) ? { id: value, exact: true } : undefined;
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

/** The codings a code filter's OR values look for, when each is system|code or a bare code. */
function codings(spec: TypedTable, filter: Filter): { system?: string; code: string }[] | undefined {
  if (filter.code !== spec.codeParam || filter.operator !== Operator.EQUALS) return undefined;
  const found: { system?: string; code: string }[] = [];
  for (const value of splitOrValues(filter.value)) {
    const parts = splitBar(value);
    if (parts.length === 1 && parts[0]) found.push({ code: parts[0] });
    else if (parts.length === 2 && parts[0] && parts[1]) found.push({ system: parts[0], code: parts[1] });
    else return undefined;
  }
  return found;
}

/** Whether the code parameter reads exactly the spec's one CodeableConcept element. */
function readsCodeElement(spec: TypedTable): boolean {
  const expression = getSearchParameter(spec.resourceType, spec.codeParam)?.expression;
  return expression === `${spec.resourceType}.${spec.codeElement}`;
}

/**
 * The filters on resource row `alias` of `resourceType` that need no token probe, as conditions:
 * plain code filters, on the joined typed row's codes column when one is joined to `alias` (every
 * row of one resource carries all its codes), else, when `content` allows, on the row's own
 * content: the element holds a coding with that system and code (jsonb containment, as the token
 * rows say: a coding's non-empty system and code). Either keeps the query free of a second
 * semi-join on search_token, which doubled its planning time.
 */
export function typedRowConditions(
  params: SqlParams,
  joined: JoinedTypedRow | undefined,
  alias: string,
  resourceType: string,
  filters: readonly Filter[],
  content = false,
): { conditions: string[]; handled: Set<Filter> } {
  const conditions: string[] = [];
  const handled = new Set<Filter>();
  const spec = typedTableOf(resourceType);
  if (!spec) {
    return { conditions, handled };
  }
  const onJoined = joined && joined.resourceAlias === alias && joined.resourceType === spec.resourceType;
  for (const filter of filters) {
    if (onJoined) {
      const keys = codeKeys(spec, filter);
      if (keys) {
        conditions.push(`${joined.alias}.codes && ${params.add(keys)}::text[]`);
        handled.add(filter);
      }
      continue;
    }
    const wanted = content && readsCodeElement(spec) ? codings(spec, filter) : undefined;
    if (wanted) {
      // On the element, not the whole content: the planner has no statistics to test it against,
      // so it estimates it at once instead of running it over the column's sample.
      const documents = wanted.map((coding) => JSON.stringify({ coding: [coding] }));
      conditions.push(
        `(${alias}.content -> ${params.add(spec.codeElement)}) @> ANY(${params.add(documents)}::jsonb[])`,
      );
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
    filters
      .map((filter) => [filter, namedPatient(spec, filter)] as const)
      .find(([, named]) => named !== undefined) ?? [];
  if (!patientFilter || !patient) return undefined;
  const conditions = [`${ALIAS}.patient_id = ${params.add(patient.id)}`];
  const handled = new Set<Filter>(patient.exact ? [patientFilter] : []);
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
