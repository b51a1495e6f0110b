// The caller's AccessPolicy as SQL conditions of the query that reads the rows (search, totals,
// includes, chains, _has, history, $everything, export, canonical lookups), so paging and totals
// only ever count what the caller may see. A row is visible when it is in the caller's project and
// some policy entry for its type and the interaction allows it: the entry's compartment holds it and
// it matches the entry's criteria, a FHIR search of its type evaluated as the system.
import { Operator, parseSearchRequest } from '../../fhir/search';
import type { Filter } from '../../fhir/search';
import { OperationOutcomeError } from '../../fhir';
import type { AccessPolicyResource } from '@medplum/fhirtypes';
import { candidateEntries, isUnrestricted } from '../access/access-control';
import type { RepositoryContext } from '../access/context';
import { systemContext } from '../access/context';
import type { AccessInteraction, PopulatedAccessPolicy } from '../access/policy';
import { filterTree, treeLeaves } from './filter-expression-sql';
import type { FilterContext } from './kinds';
import { or } from './kinds/probe';
import { SqlParams } from './sql-params';
import { typedRowConditions } from './typed-table-plan';

/** Filters as AND-ed conditions on row `alias` (filter-sql.ts filterConditions, handed in: it calls back here). */
export type CriteriaSql = (
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filters: readonly Filter[],
) => string[];

/**
 * Project isolation of row `alias`: the caller's project only, and of Project rows only their own
 * (a Project's project is itself). Nothing for the server's own work and super admins.
 */
export function isolationConditions(ctx: FilterContext, alias: string): string[] {
  if (isUnrestricted(ctx.context.access)) {
    return [];
  }
  const project = ctx.params.add(ctx.context.project ?? '');
  return [
    `${alias}.project = ${project}`,
    `(${alias}.resource_type <> 'Project' OR ${alias}.id = ${project})`,
  ];
}

/**
 * What the policy grants of `resourceType` for `interaction` as one condition on row `alias`:
 * undefined when some entry grants the type without compartment or criteria, 'false' when no
 * entry does, otherwise the OR over the entries of (compartment AND criteria).
 */
export function grantCondition(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  interaction: AccessInteraction,
  criteriaSql: CriteriaSql,
): string | undefined {
  const access = ctx.context.access;
  if (isUnrestricted(access)) {
    return undefined;
  }
  const entries = candidateEntries(access, resourceType, interaction);
  if (entries.some((entry) => !entry.compartment && !entry.criteria)) {
    return undefined;
  }
  const alternatives = entries
    .map((entry) => entryCondition(ctx, resourceType, alias, entry, criteriaSql))
    .filter((condition) => condition !== 'false');
  return alternatives.length === 0 ? 'false' : or(alternatives);
}

/** Isolation and grant together: the conditions a row of `resourceType` must meet to be seen. */
export function policyConditions(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  interaction: AccessInteraction,
  criteriaSql: CriteriaSql,
): string[] {
  const isolation = isolationConditions(ctx, alias);
  const grant = grantCondition(ctx, resourceType, alias, interaction, criteriaSql);
  return grant === undefined ? isolation : [...isolation, grant];
}

/** SqlParams that continue after `values`, which the query already binds. */
export function continuingParams(values: readonly SqlParams['values'][number][]): SqlParams {
  const params = new SqlParams();
  params.values.push(...values);
  return params;
}

/**
 * One entry as a condition: its compartment and its criteria. An entry whose criteria cannot be
 * run (another type, a parameter the server does not know, a value set not resolved) grants
 * nothing: a policy never widens by being wrong.
 */
function entryCondition(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  entry: AccessPolicyResource,
  criteriaSql: CriteriaSql,
): string {
  const conditions: string[] = [];
  const compartment = entry.compartment?.reference;
  if (entry.compartment) {
    if (!compartment) {
      return 'false';
    }
    conditions.push(`${alias}.compartments @> ARRAY[${ctx.params.add(compartment)}::text]`);
  }
  if (entry.criteria) {
    const filters = criteriaFilters(entry.criteria, resourceType);
    if (!filters) {
      return 'false';
    }
    // The criteria run as the system: no access rules inside them. Their values join the query's.
    const system: FilterContext = { ...ctx, context: systemContext(ctx.context.project) };
    const mark = ctx.params.values.length;
    try {
      if (unresolvedTerminology(ctx, resourceType, filters)) {
        return 'false';
      }
      // Code criteria read the joined per-type row's codes column (the index the search reads) or
      // else the row's content, never a second probe; the other filters are the search's own SQL.
      const typed = typedRowConditions(
        ctx.params,
        ctx.typedRow,
        alias,
        resourceType,
        filters,
        !ctx.genericCriteria,
      );
      const rest = filters.filter((filter) => !typed.handled.has(filter));
      conditions.push(...typed.conditions, ...criteriaSql(system, resourceType, alias, rest));
    } catch (err) {
      if (!(err instanceof OperationOutcomeError)) {
        throw err;
      }
      ctx.params.values.length = mark;
      return 'false';
    } finally {
      ctx.depth = system.depth;
    }
  }
  return conditions.length === 0 ? 'true' : `(${conditions.join(' AND ')})`;
}

/** The criteria's filters when it searches `resourceType` (or `*`), else undefined. */
export function criteriaFilters(criteria: string, resourceType: string): Filter[] | undefined {
  const question = criteria.indexOf('?');
  const type = question < 0 ? criteria : criteria.slice(0, question);
  if (type !== resourceType && type !== '*') {
    return undefined;
  }
  try {
    const query = question < 0 ? '' : criteria.slice(question + 1);
    return parseSearchRequest(`${resourceType}?${query}`).filters ?? [];
  } catch (err) {
    if (err instanceof OperationOutcomeError) {
      return undefined;
    }
    throw err;
  }
}

/** :in / :not-in filters (also inside _filter) whose value sets were not resolved before the SQL. */
function unresolvedTerminology(
  ctx: FilterContext,
  resourceType: string,
  filters: readonly Filter[],
): boolean {
  const leaves = filters.flatMap((filter) =>
    filter.code === '_filter'
      ? treeLeaves(filterTree(resourceType, filter.value)).map((l) => l.filter)
      : [filter],
  );
  return leaves.some(
    (filter) =>
      (filter.operator === Operator.IN || filter.operator === Operator.NOT_IN) &&
      filter.value.split(',').some((url) => !ctx.valueSets.has(url)),
  );
}

/** Every criteria of the policy with the type it searches, for resolving its terminology up front. */
export function policyCriteria(policy: PopulatedAccessPolicy): { resourceType: string; filters: Filter[] }[] {
  return policy.resource.flatMap((entry) => {
    if (!entry.criteria || !entry.resourceType || entry.resourceType === '*') {
      return [];
    }
    const filters = criteriaFilters(entry.criteria, entry.resourceType);
    return filters ? [{ resourceType: entry.resourceType, filters }] : [];
  });
}

/**
 * The conditions on one stored version's content (`contentColumn`, null for a deletion), beside
 * those on the resource as it is now: the version too lay in the caller's project and in the
 * compartment of some entry that grants the interaction (a version may have lived elsewhere before).
 * Criteria are judged on the resource as it is now, whose index rows the search tables hold.
 */
export function versionConditions(
  context: RepositoryContext,
  resourceType: string,
  contentColumn: string,
  params: SqlParams,
  interaction: AccessInteraction,
): string[] {
  const access = context.access;
  if (isUnrestricted(access)) {
    return [];
  }
  const conditions = [
    `(${contentColumn} IS NULL OR ${contentColumn}->'meta'->>'project' = ${params.add(context.project ?? '')})`,
  ];
  const entries = candidateEntries(access, resourceType, interaction);
  if (entries.some((entry) => !entry.compartment)) {
    return conditions;
  }
  const compartments = entries.flatMap((entry) =>
    entry.compartment?.reference ? [entry.compartment.reference] : [],
  );
  if (compartments.length === 0) {
    return [...conditions, 'false'];
  }
  const alternatives = compartments.map(
    (reference) =>
      `${contentColumn}->'meta'->'compartment' @> ${params.add(JSON.stringify([{ reference }]))}::jsonb`,
  );
  return [...conditions, `(${contentColumn} IS NULL OR ${or(alternatives)})`];
}
