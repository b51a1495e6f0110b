// SearchRequest filters → SQL conditions on a resource row (alias `r`, `r1`…): one EXISTS probe of
// the parameter type's index table per filter, OR over the comma values inside it, AND between
// filters. Each parameter type builds its own probe (kinds/); this module dispatches to it by the
// parameter's type, and nests the same builder on linked resources for chains and _has.
import { getSearchParameter } from '../../fhir';
import { Operator } from '../../fhir/search';
import type { Filter } from '../../fhir/search';
import type { RepositoryContext } from '../access/context';
import type { AccessInteraction } from '../access/policy';
import { filterTree, treeSql } from './filter-expression-sql';
import { RESOURCE_PARAMETERS, SEARCH_KINDS } from './kinds';
import type { FilterContext, SearchKind } from './kinds';
import { isSingleDate, singleDateProbe } from './kinds/ordered';
import { invalid, ORDERED_PREFIXES, or, prefixed } from './kinds/probe';
import { grantCondition, isolationConditions, policyConditions } from './policy-sql';
import type { SqlParams } from './sql-params';
import type { SqlFilter } from './types';

export type { FilterContext } from './kinds';

/** A condition on resource `alias` of `resourceType` for one filter. */
export function filterCondition(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filter: SqlFilter,
): string {
  const code = filter.code;
  if (code === '_filter') {
    if (filter.operator !== Operator.EQUALS) {
      invalid(`_filter takes no modifier`, `_filter:${filter.operator}`);
    }
    return treeSql(filterTree(resourceType, filter.value), (f) =>
      filterCondition(ctx, resourceType, alias, f),
    );
  }
  const own = RESOURCE_PARAMETERS.get(code);
  if (own) {
    return own.sql(ctx, resourceType, alias, filter);
  }
  if (code.startsWith('_has:')) {
    return hasCondition(ctx, resourceType, alias, filter);
  }
  if (code.includes('.')) {
    return chainCondition(ctx, resourceType, alias, filter);
  }
  const param = getSearchParameter(resourceType, code);
  if (!param) {
    invalid(`Unknown search parameter '${code}' for ${resourceType}`, code);
  }
  // The definitions index is data: a type missing from the table is refused, not trusted.
  const kind: SearchKind | undefined = SEARCH_KINDS[param.type];
  if (!kind) {
    invalid(`Search parameter '${code}' of type ${param.type} is not supported`, code);
  }
  return kind.sql(ctx, resourceType, alias, filter, param);
}

/**
 * What the caller may see of `resourceType` at row `alias` (the searched rows, and linked ones in
 * chains, _has and includes): the fixed rules of access-control.ts, then the AccessPolicy's
 * entries for the interaction as SQL (policy-sql.ts).
 */
export function visibleCondition(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  interaction: AccessInteraction = 'search',
): string[] {
  // One place decides: a type the policy grants nothing of is policy-sql's 'false'.
  return policyConditions(ctx, resourceType, alias, interaction, filterConditions);
}

/**
 * The same conditions for a query built with plain `$n` placeholders: `params` already holds the
 * query's values and receives the policy's (policy-sql.ts continuingParams).
 */
export function visibleSql(
  context: RepositoryContext,
  resourceType: string,
  alias: string,
  params: SqlParams,
  interaction: AccessInteraction = 'search',
): string[] {
  return visibleCondition(
    { params, context, valueSets: new Map(), depth: 0 },
    resourceType,
    alias,
    interaction,
  );
}

/**
 * Rows of any of `types` the caller may see: isolation once, then per type its grant (types granted
 * whole share one `= ANY`, so a patient's many compartment types stay one index condition).
 */
export function visibleTypesCondition(
  ctx: FilterContext,
  types: readonly string[],
  alias: string,
  interaction: AccessInteraction = 'search',
): string[] {
  const whole: string[] = [];
  const alternatives: string[] = [];
  for (const type of types) {
    const grant = grantCondition(ctx, type, alias, interaction, filterConditions);
    if (grant === undefined) {
      whole.push(type);
    } else if (grant !== 'false') {
      alternatives.push(`(${alias}.resource_type = ${ctx.params.add(type)} AND ${grant})`);
    }
  }
  if (whole.length > 0) {
    alternatives.unshift(`${alias}.resource_type = ANY(${ctx.params.add(whole)}::text[])`);
  }
  return [...isolationConditions(ctx, alias), alternatives.length > 0 ? or(alternatives) : 'false'];
}

/** 'subject:Patient.name' / 'subject.name' → the referenced resources matching the rest of the chain. */
function chainCondition(ctx: FilterContext, resourceType: string, alias: string, filter: Filter): string {
  const dot = filter.code.indexOf('.');
  const [linkCode, typeModifier] = filter.code.slice(0, dot).split(':');
  const rest = filter.code.slice(dot + 1);
  const link = getSearchParameter(resourceType, linkCode);
  if (!link || link.type !== 'reference') {
    invalid(
      `Chained parameter '${filter.code}': '${linkCode}' is not a reference parameter of ${resourceType}`,
      filter.code,
    );
  }
  const targets = typeModifier ? [typeModifier] : (link.target ?? []);
  const restCode = rest.split('.')[0].split(':')[0];
  const usable = targets.filter(
    (target) =>
      rest.includes('.') || restCode.startsWith('_') || getSearchParameter(target, restCode) !== undefined,
  );
  if (usable.length === 0) {
    invalid(`Chained parameter '${filter.code}': no target of '${linkCode}' has '${restCode}'`, filter.code);
  }
  ctx.depth++;
  const inner = `c${ctx.depth}`;
  const alternatives = usable.map((target) => {
    const conditions = [
      filterCondition(ctx, target, inner, { ...filter, code: rest }),
      ...visibleCondition(ctx, target, inner),
    ];
    return `(l.target_type = ${ctx.params.add(target)} AND EXISTS (SELECT 1 FROM resource ${inner} WHERE ${inner}.resource_type = l.target_type AND ${inner}.id = l.target_id AND NOT ${inner}.deleted AND ${conditions.join(' AND ')}))`;
  });
  return `EXISTS (SELECT 1 FROM search_reference l WHERE l.resource_id = ${alias}.id AND l.resource_type = ${ctx.params.add(resourceType)} AND l.code = ${ctx.params.add(linkCode)} AND ${or(alternatives)})`;
}

/** '_has:Observation:subject:code' → resources some Observation points at (by subject) whose code matches. */
function hasCondition(ctx: FilterContext, resourceType: string, alias: string, filter: Filter): string {
  const [, sourceType, linkCode, ...restParts] = filter.code.split(':');
  const rest = restParts.join(':');
  if (!sourceType || !linkCode || !rest) {
    invalid(`_has must be _has:Type:reference:parameter, got '${filter.code}'`, filter.code);
  }
  const link = getSearchParameter(sourceType, linkCode);
  if (!link || link.type !== 'reference') {
    invalid(`_has: '${linkCode}' is not a reference parameter of ${sourceType}`, filter.code);
  }
  ctx.depth++;
  const source = `h${ctx.depth}`;
  const conditions = [
    filterCondition(ctx, sourceType, source, { ...filter, code: rest }),
    ...visibleCondition(ctx, sourceType, source),
  ];
  return `EXISTS (SELECT 1 FROM search_reference l JOIN resource ${source} ON ${source}.resource_type = l.resource_type AND ${source}.id = l.resource_id
    WHERE l.resource_type = ${ctx.params.add(sourceType)} AND l.code = ${ctx.params.add(linkCode)} AND l.target_id = ${alias}.id AND l.target_type = ${ctx.params.add(resourceType)}
    AND NOT ${source}.deleted AND ${conditions.join(' AND ')})`;
}

/** Filters as conditions, AND-ed; repeated bounds on a single-valued date share one probe. */
export function filterConditions(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filters: readonly Filter[],
): string[] {
  const conditions: string[] = [];
  const bounds = new Map<string, [Operator, string][]>();
  for (const filter of filters) {
    const param =
      ORDERED_PREFIXES.has(filter.operator) && !filter.code.includes(':') && !filter.code.includes('.')
        ? getSearchParameter(resourceType, filter.code)
        : undefined;
    const single = param && isSingleDate(resourceType, param) ? prefixed(filter) : undefined;
    if (single && single.length === 1 && single[0][0] !== Operator.NOT_EQUALS) {
      bounds.set(filter.code, [...(bounds.get(filter.code) ?? []), single[0]]);
    } else {
      conditions.push(filterCondition(ctx, resourceType, alias, filter));
    }
  }
  for (const [code, parts] of bounds) {
    conditions.push(singleDateProbe(ctx, resourceType, alias, code, parts));
  }
  return conditions;
}
