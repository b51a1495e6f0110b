// Runs a SearchRequest (src/fhir/search/types.ts) as SQL over the resource table and the index
// tables: filters and the caller's access rules in one WHERE clause (so paging and totals only
// ever count what the caller may see), then _include/_revinclude for the page.
import type { Resource } from '@medplum/fhirtypes';
import { badRequest, getSearchParameter, isResourceType, OperationOutcomeError } from '../../fhir';
import { Operator, resolveSearchParameter, splitOrValues } from '../../fhir/search';
import type { Filter, IncludeTarget, SearchRequest } from '../../fhir/search';
import type { Queryable } from '../db';
import { typeRights } from '../access/access-control';
import type { RepositoryContext } from '../access/context';
import { resolveSubsumption } from './code-hierarchy';
import { atComparison, filterTree, treeLeaves } from './filter-expression-sql';
import { filterConditions, visibleCondition } from './filter-sql';
import { or } from './kinds/probe';
import { policyCriteria } from './policy-sql';
import type { FilterContext } from './filter-sql';
import { sortSql } from './sort-sql';
import { planTypedTable } from './typed-table-plan';
import type { TypedTablePlan } from './typed-table-plan';
import { SqlParams } from './sql-params';
import type { SearchResult } from './types';
import { valueSetCodes } from './value-set-codes';

/** _count when the request names none (FHIR leaves it to the server; Medplum's is 20). */
export const DEFAULT_SEARCH_COUNT = 20;
/** The largest page served: a bigger _count is lowered to it (documented in the README). */
export const MAX_SEARCH_COUNT = 1000;
/** _total=estimate counts exactly below this many rows, and asks the planner above it. */
const EXACT_ESTIMATE_LIMIT = 1000;
/** Rounds of _include:iterate / _revinclude:iterate before stopping (cycles end earlier). */
const MAX_INCLUDE_ROUNDS = 5;

interface ContentRow {
  content: Resource;
}

function fail(message: string, parameter?: string): never {
  throw new OperationOutcomeError(badRequest(message, parameter));
}

function allFilters(request: SearchRequest): Filter[] {
  return request.filters ?? [];
}

/**
 * Terminology the SQL needs, resolved first (it reads the database): :in / :not-in value sets by
 * URL, and token :above / :below code sets by subsumptionKey.
 */
async function resolveTerminology(
  q: Queryable,
  resourceType: string,
  filters: readonly Filter[],
): Promise<Map<string, string[]>> {
  const expanded = new Map<string, string[]>();
  const cache = {};
  const resolve = async (filter: Filter): Promise<void> => {
    const parameter = `${filter.code}:${filter.operator}`;
    if (filter.operator === Operator.IN || filter.operator === Operator.NOT_IN) {
      for (const url of splitOrValues(filter.value)) {
        if (!expanded.has(url)) {
          expanded.set(url, await valueSetCodes(q, url, parameter));
        }
      }
    } else if (
      (filter.operator === Operator.ABOVE || filter.operator === Operator.BELOW) &&
      resolveSearchParameter(resourceType, filter.code)?.type === 'token'
    ) {
      await resolveSubsumption(q, filter.operator, splitOrValues(filter.value), parameter, expanded, cache);
    }
  };
  for (const filter of filters) {
    if (filter.code !== '_filter') {
      await resolve(filter);
      continue;
    }
    // _filter's in / ni / ss / sb comparisons are :in / :not-in / :above / :below filters inside it.
    for (const leaf of treeLeaves(filterTree(resourceType, filter.value))) {
      await resolve(leaf.filter).catch((err: unknown) => {
        throw atComparison(err, leaf.position);
      });
    }
  }
  return expanded;
}

/** The value sets the caller's policy criteria name (:in / :not-in), resolved with the request's. */
async function resolvePolicyTerminology(
  q: Queryable,
  context: RepositoryContext,
  into: Map<string, string[]>,
): Promise<void> {
  if (!context.access || context.access.superAdmin) {
    return;
  }
  for (const { resourceType, filters } of policyCriteria(context.access.policy)) {
    const terms = filters.filter((f) => f.operator === Operator.IN || f.operator === Operator.NOT_IN);
    // A value set the server cannot expand leaves its entry unresolved: that entry grants nothing.
    const resolved =
      terms.length > 0 ? await resolveTerminology(q, resourceType, terms).catch(unresolvable) : [];
    for (const [url, codes] of resolved) {
      into.set(url, codes);
    }
  }
}

function unresolvable(err: unknown): Map<string, string[]> {
  if (err instanceof OperationOutcomeError) {
    return new Map();
  }
  throw err;
}

export interface SearchOptions {
  /**
   * Whether a per-type table may answer (typed-tables.ts), and a policy's code criteria read a row's
   * content; false runs the generic SQL only.
   */
  typedTables?: boolean;
}

interface BuiltQuery {
  /** `resource r`, with the per-type table joined when one answers. */
  from: string;
  where: string;
  params: SqlParams;
  typed: TypedTablePlan | undefined;
}

function buildWhere(ctx: FilterContext, request: SearchRequest, options: SearchOptions): BuiltQuery {
  const params = ctx.params;
  const typed = options.typedTables === false ? undefined : planTypedTable(params, request);
  const conditions = [`r.resource_type = ${params.add(request.resourceType)}`, 'NOT r.deleted'];
  conditions.push(...(typed?.conditions ?? []));
  const filters = allFilters(request).filter((filter) => !typed?.handled.has(filter));
  // The policy's code criteria on `r` read the joined row's codes too, not a probe per row.
  ctx.typedRow = typed?.joined;
  ctx.genericCriteria = options.typedTables === false;
  conditions.push(...filterConditions(ctx, request.resourceType, 'r', filters));
  conditions.push(...visibleCondition(ctx, request.resourceType, 'r'));
  const from = typed ? `resource r ${typed.join}` : 'resource r';
  return { from, where: conditions.join(' AND '), params, typed };
}

export async function executeSearch<T extends Resource>(
  q: Queryable,
  context: RepositoryContext,
  request: SearchRequest,
  options: SearchOptions = {},
): Promise<SearchResult<T>> {
  if (!isResourceType(request.resourceType)) {
    fail(`Unknown resource type '${request.resourceType}'`, 'resourceType');
  }
  const count = Math.min(request.count ?? DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT);
  const offset = request.offset ?? 0;
  if (count < 0 || offset < 0 || !Number.isInteger(count) || !Number.isInteger(offset)) {
    fail('_count and _offset must be whole numbers', '_count');
  }
  if (!typeRights(context.access, request.resourceType).read) {
    return {
      resources: [],
      included: [],
      total: request.total && request.total !== 'none' ? 0 : undefined,
      hasMore: false,
    };
  }
  const valueSets = await resolveTerminology(q, request.resourceType, allFilters(request));
  await resolvePolicyTerminology(q, context, valueSets);
  const ctx: FilterContext = { params: new SqlParams(), context, valueSets, depth: 0 };
  const { from, where, params, typed } = buildWhere(ctx, request, options);
  const whereParamCount = params.values.length;
  const order = sortSql(params, request.resourceType, 'r', request.sortRules ?? [], typed?.sortKey);
  const limit = params.add(count + 1);
  const skip = params.add(offset);
  const { rows } =
    count === 0
      ? { rows: [] as ContentRow[] }
      : await q.query<ContentRow>(
          `SELECT r.content FROM ${from} WHERE ${where} ORDER BY ${order.join(', ')} LIMIT ${limit} OFFSET ${skip}`,
          params.values,
        );
  const resources = rows.slice(0, count).map((row) => row.content as T);
  const hasMore = rows.length > count;
  const whereParams = params.values.slice(0, whereParamCount);
  let total: number | undefined;
  if (request.total === 'accurate' || (request.total === 'estimate' && hasMore)) {
    total = await countMatches(q, from, where, whereParams, request.total);
  } else if (request.total === 'estimate') {
    total =
      count === 0 ? await countMatches(q, from, where, whereParams, 'accurate') : offset + resources.length;
  }
  const included = await collectIncludes(q, context, request, resources);
  return { resources, included, total, hasMore };
}

async function countMatches(
  q: Queryable,
  from: string,
  where: string,
  params: SqlParams['values'],
  mode: 'estimate' | 'accurate',
): Promise<number> {
  if (mode === 'estimate') {
    // The planner's row estimate; small results are counted exactly (cheap, and estimates are worst there).
    const { rows } = await q.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${from} WHERE ${where}`,
      params,
    );
    const plan = rows[0]?.['QUERY PLAN'];
    const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
      Plan: { 'Plan Rows': number };
    }[];
    const estimate = Math.round(parsed[0].Plan['Plan Rows']);
    if (estimate >= EXACT_ESTIMATE_LIMIT) {
      return estimate;
    }
  }
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${from} WHERE ${where}`,
    params,
  );
  return rows[0].n;
}

function keyOf(resource: Resource): string {
  return `${resource.resourceType}/${resource.id}`;
}

function checkIncludeParam(target: IncludeTarget, parameter: string): void {
  if (!isResourceType(target.resourceType)) {
    fail(`Unknown resource type '${target.resourceType}' in ${parameter}`, parameter);
  }
  const param = getSearchParameter(target.resourceType, target.searchParam);
  if (!param || param.type !== 'reference') {
    fail(
      `'${target.searchParam}' is not a reference parameter of ${target.resourceType} in ${parameter}`,
      parameter,
    );
  }
  if (target.targetType && !isResourceType(target.targetType)) {
    fail(`Unknown resource type '${target.targetType}' in ${parameter}`, parameter);
  }
}

/** Resources the page's resources point at through `target` (_include). */
async function includeTargets(
  q: Queryable,
  context: RepositoryContext,
  target: IncludeTarget,
  sources: readonly Resource[],
): Promise<Resource[]> {
  const ids = sources.filter((s) => s.resourceType === target.resourceType).map((s) => s.id as string);
  if (ids.length === 0) {
    return [];
  }
  const params = new SqlParams();
  const ctx: FilterContext = { params, context, valueSets: new Map(), depth: 0 };
  const links = [
    `l.resource_type = ${params.add(target.resourceType)}`,
    `l.code = ${params.add(target.searchParam)}`,
    `l.resource_id = ANY(${params.add(ids)}::text[])`,
  ];
  // Each target type has its own rules: without a target type, the types the links reach, each
  // with its rules, in the same query.
  const types = target.targetType
    ? [target.targetType]
    : (
        await q.query<{ target_type: string }>(
          `SELECT DISTINCT l.target_type FROM search_reference l WHERE ${links.join(' AND ')}`,
          // A copy: the second query binds more values into the same list.
          [...params.values],
        )
      ).rows.map((row) => row.target_type);
  const alternatives = types
    .filter((type) => isResourceType(type))
    .map((type) => {
      const visible = visibleCondition(ctx, type, 'r');
      return `(${[`l.target_type = ${params.add(type)}`, ...visible].join(' AND ')})`;
    });
  if (alternatives.length === 0) {
    return [];
  }
  const { rows } = await q.query<ContentRow>(
    `SELECT r.content
     FROM search_reference l JOIN resource r ON r.resource_type = l.target_type AND r.id = l.target_id
     WHERE ${[...links, 'NOT r.deleted', or(alternatives)].join(' AND ')}`,
    params.values,
  );
  return distinct(rows).map((row) => row.content);
}

/** Resources of `target.resourceType` pointing at the page's resources (_revinclude). */
async function revIncludeSources(
  q: Queryable,
  context: RepositoryContext,
  target: IncludeTarget,
  targets: readonly Resource[],
): Promise<Resource[]> {
  const relevant = targets.filter((t) => !target.targetType || t.resourceType === target.targetType);
  if (relevant.length === 0 || !typeRights(context.access, target.resourceType).read) {
    return [];
  }
  const params = new SqlParams();
  const ctx: FilterContext = { params, context, valueSets: new Map(), depth: 0 };
  const conditions = [
    `l.resource_type = ${params.add(target.resourceType)}`,
    `l.code = ${params.add(target.searchParam)}`,
    `l.target_id = ANY(${params.add(relevant.map((t) => t.id as string))}::text[])`,
    `l.target_type = ANY(${params.add([...new Set(relevant.map((t) => t.resourceType))])}::text[])`,
    'NOT r.deleted',
    ...visibleCondition(ctx, target.resourceType, 'r'),
  ];
  const { rows } = await q.query<ContentRow & { target_type: string; target_id: string }>(
    `SELECT r.content, l.target_type, l.target_id
     FROM search_reference l JOIN resource r ON r.resource_type = l.resource_type AND r.id = l.resource_id
     WHERE ${conditions.join(' AND ')}`,
    params.values,
  );
  // target_id alone may match a resource of another type with the same id: keep exact pairs.
  const wanted = new Set(relevant.map(keyOf));
  return distinct(rows.filter((row) => wanted.has(`${row.target_type}/${row.target_id}`))).map(
    (row) => row.content,
  );
}

/**
 * One row per resource (a resource pointing at the page twice comes back twice). Deduplicated here
 * rather than by DISTINCT ON, which sorts every row before the first one is sent.
 */
function distinct<R extends ContentRow>(rows: readonly R[]): R[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = keyOf(row.content);
    return !seen.has(key) && (seen.add(key), true);
  });
}

async function collectIncludes(
  q: Queryable,
  context: RepositoryContext,
  request: SearchRequest,
  matches: readonly Resource[],
): Promise<Resource[]> {
  const includes = request.include ?? [];
  const revIncludes = request.revInclude ?? [];
  includes.forEach((target) => checkIncludeParam(target, '_include'));
  revIncludes.forEach((target) => checkIncludeParam(target, '_revinclude'));
  if (matches.length === 0 || (includes.length === 0 && revIncludes.length === 0)) {
    return [];
  }
  const seen = new Set(matches.map(keyOf));
  const included: Resource[] = [];
  let frontier: readonly Resource[] = matches;
  for (let round = 0; round < MAX_INCLUDE_ROUNDS && frontier.length > 0; round++) {
    // The first round applies every include to the matches; later rounds only the :iterate ones.
    const iterateOnly = round > 0;
    const found: Resource[] = [];
    for (const target of includes) {
      if (!iterateOnly || target.modifier === Operator.ITERATE) {
        found.push(...(await includeTargets(q, context, target, frontier)));
      }
    }
    for (const target of revIncludes) {
      if (!iterateOnly || target.modifier === Operator.ITERATE) {
        found.push(...(await revIncludeSources(q, context, target, frontier)));
      }
    }
    const fresh: Resource[] = [];
    for (const resource of found) {
      const key = keyOf(resource);
      if (!seen.has(key)) {
        seen.add(key);
        fresh.push(resource);
      }
    }
    included.push(...fresh);
    frontier = fresh;
  }
  return included;
}
