// SearchRequest filters → SQL conditions on a resource row (alias `r`, `r1`…): one EXISTS probe of
// the parameter type's index table per filter, OR over the comma values inside it, AND between
// filters; chains and _has nest the same builder on the linked resource.
import { getSearchParameter, getTypeSchema } from '../../fhir';
import type { SearchParameterInfo } from '../../fhir';
import { Operator, PREFIX_OPERATORS, splitOrValues, splitValuePrefix } from '../../fhir/search';
import type { Filter } from '../../fhir/search';
import type { RepositoryContext } from '../access/context';
import { typeRights, visibilitySql } from '../access/access-control';
import { subsumptionKey } from './code-hierarchy';
import type { SubsumptionDirection } from './code-hierarchy';
import { getCompositeComponents } from './composite-components';
import { filterTree, treeSql } from './filter-expression-sql';
import { nearCondition } from './near-sql';
import { INDEX_TABLES } from './schema';
import type { IndexKind } from './schema';
import type { SqlParams } from './sql-params';
import { textSearchCondition } from './text-index';
import type { SqlFilter } from './types';
import {
  dateCompare,
  invalid,
  numberCompare,
  ofTypeCondition,
  quantityCondition,
  referenceCondition,
  splitBar,
  stringCondition,
  textCondition,
  tokenCondition,
  unescapeValue,
  uriCondition,
} from './value-conditions';

export interface FilterContext {
  params: SqlParams;
  context: RepositoryContext;
  /** Expanded :in / :not-in value sets by URL, and :above / :below code sets by subsumptionKey (resolved before the SQL is built). */
  valueSets: ReadonlyMap<string, readonly string[]>;
  /** Counter for unique aliases of nested queries. */
  depth: number;
}

// The comparison prefixes of ordered types (number, date, quantity), as the parser splits them off.
const ORDERED_PREFIXES: ReadonlySet<string> = new Set(PREFIX_OPERATORS);

const TABLE_OF: Partial<Record<string, IndexKind>> = {
  token: 'token',
  string: 'string',
  date: 'date',
  number: 'number',
  quantity: 'quantity',
  reference: 'reference',
  uri: 'uri',
  composite: 'composite',
};

function or(conditions: string[]): string {
  return conditions.length === 1 ? conditions[0] : `(${conditions.join(' OR ')})`;
}

function values(filter: Filter): string[] {
  return splitOrValues(filter.value);
}

/** An EXISTS probe of one index table for resource `alias`, rows of `code` matching `condition`. */
function probe(
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

function missing(
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

/** Each OR value with its own prefix when the filter's operator is the default eq. */
function prefixed(filter: Filter): [Operator, string][] {
  return values(filter).map((value) => {
    if (filter.operator !== Operator.EQUALS) return [filter.operator, value];
    const [prefix, rest] = splitValuePrefix(value);
    return prefix ? [prefix, rest] : [Operator.EQUALS, value];
  });
}

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
  if (code === '_text' || code === '_content') {
    if (filter.operator !== Operator.EQUALS) {
      invalid(`Modifier ':${filter.operator}' is not supported on '${code}'`, `${code}:${filter.operator}`);
    }
    const conditions = values(filter).map((v) => textSearchCondition(ctx.params, unescapeValue(v)));
    return probe(ctx, 'text', resourceType, alias, code, or(conditions));
  }
  if (code.startsWith('_has:')) {
    return hasCondition(ctx, resourceType, alias, filter);
  }
  if (code.includes('.')) {
    return chainCondition(ctx, resourceType, alias, filter);
  }
  if (code === '_id') {
    return idCondition(ctx, alias, filter);
  }
  if (code === '_lastUpdated') {
    return lastUpdatedCondition(ctx, alias, filter);
  }
  if (code === '_compartment') {
    return compartmentCondition(ctx, alias, filter);
  }
  const param = getSearchParameter(resourceType, code);
  if (!param) {
    invalid(`Unknown search parameter '${code}' for ${resourceType}`, code);
  }
  if (param.type === 'special' && code === 'near' && resourceType === 'Location') {
    return nearCondition(ctx.params, alias, filter);
  }
  const kind = TABLE_OF[param.type];
  if (!kind) {
    invalid(`Search parameter '${code}' of type ${param.type} is not supported`, code);
  }
  if (filter.operator === Operator.MISSING) {
    if (param.type === 'reference') {
      // A reference without a literal target still counts as present when it has an identifier.
      const ref = probe(ctx, 'reference', resourceType, alias, code);
      const ident = probe(ctx, 'token', resourceType, alias, `${code}:identifier`);
      if (filter.value !== 'true' && filter.value !== 'false') {
        invalid(`:missing on '${code}' must be true or false`, `${code}:missing`);
      }
      return filter.value === 'true' ? `NOT (${ref} OR ${ident})` : `(${ref} OR ${ident})`;
    }
    return missing(ctx, kind, resourceType, alias, filter);
  }
  switch (param.type) {
    case 'token':
      return tokenFilter(ctx, resourceType, alias, filter);
    case 'string':
      return stringFilter(ctx, resourceType, alias, filter);
    case 'uri':
      return uriFilter(ctx, resourceType, alias, filter);
    case 'reference':
      return referenceFilter(ctx, resourceType, alias, filter, param);
    case 'date':
    case 'number':
    case 'quantity':
      return orderedFilter(ctx, resourceType, alias, filter, param);
    case 'composite':
      return compositeFilter(ctx, resourceType, alias, filter);
    default:
      return invalid(`Search parameter '${code}' of type ${param.type} is not supported`, code);
  }
}

function tokenFilter(ctx: FilterContext, resourceType: string, alias: string, filter: Filter): string {
  const p = ctx.params;
  const code = filter.code;
  switch (filter.operator) {
    case Operator.EQUALS:
      return probe(
        ctx,
        'token',
        resourceType,
        alias,
        code,
        or(values(filter).map((v) => tokenCondition(p, v, code))),
      );
    case Operator.NOT:
      // :not — resources with no matching token (including those with none at all).
      return `NOT ${probe(ctx, 'token', resourceType, alias, code, or(values(filter).map((v) => tokenCondition(p, v, code))))}`;
    case Operator.TEXT:
      return probe(
        ctx,
        'token',
        resourceType,
        alias,
        code,
        or(values(filter).map((v) => textCondition(p, 't.text', unescapeValue(v)))),
      );
    case Operator.OF_TYPE:
      return probe(
        ctx,
        'token',
        resourceType,
        alias,
        `${code}:of-type`,
        or(values(filter).map((v) => ofTypeCondition(p, v, code))),
      );
    case Operator.ABOVE:
    case Operator.BELOW: {
      // Subsumption: the system's codes under (or over) the value's, resolved by code-hierarchy.ts.
      const conditions = values(filter).map((v) => {
        const codes = ctx.valueSets.get(subsumptionKey(filter.operator as SubsumptionDirection, v));
        if (!codes) {
          invalid(
            `:${filter.operator} on '${code}' needs system|code of a known code system`,
            `${code}:${filter.operator}`,
          );
        }
        return `(t.system = ${p.add(splitBar(v)[0])} AND t.value = ANY(${p.add(codes)}::text[]))`;
      });
      return probe(ctx, 'token', resourceType, alias, code, or(conditions));
    }
    case Operator.IN:
    case Operator.NOT_IN: {
      const codes = values(filter).flatMap((url) => ctx.valueSets.get(url) ?? []);
      const exists = probe(ctx, 'token', resourceType, alias, code, `t.value = ANY(${p.add(codes)}::text[])`);
      return filter.operator === Operator.IN ? exists : `NOT ${exists}`;
    }
    default:
      return invalid(
        `Modifier ':${filter.operator}' is not supported on token parameter '${code}'`,
        `${code}:${filter.operator}`,
      );
  }
}

function stringFilter(ctx: FilterContext, resourceType: string, alias: string, filter: SqlFilter): string {
  const allowed: Operator[] = [Operator.EQUALS, Operator.EXACT, Operator.CONTAINS, Operator.TEXT];
  if (!allowed.includes(filter.operator)) {
    invalid(
      `Modifier ':${filter.operator}' is not supported on string parameter '${filter.code}'`,
      `${filter.code}:${filter.operator}`,
    );
  }
  const conditions = values(filter).map((v) => stringCondition(ctx.params, filter.operator, v, filter.match));
  return probe(ctx, 'string', resourceType, alias, filter.code, or(conditions));
}

function uriFilter(ctx: FilterContext, resourceType: string, alias: string, filter: Filter): string {
  const allowed: Operator[] = [Operator.EQUALS, Operator.ABOVE, Operator.BELOW, Operator.NOT];
  if (!allowed.includes(filter.operator)) {
    invalid(
      `Modifier ':${filter.operator}' is not supported on uri parameter '${filter.code}'`,
      `${filter.code}:${filter.operator}`,
    );
  }
  const operator = filter.operator === Operator.NOT ? Operator.EQUALS : filter.operator;
  const exists = probe(
    ctx,
    'uri',
    resourceType,
    alias,
    filter.code,
    or(values(filter).map((v) => uriCondition(ctx.params, operator, v))),
  );
  return filter.operator === Operator.NOT ? `NOT ${exists}` : exists;
}

function referenceFilter(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filter: Filter,
  param: SearchParameterInfo,
): string {
  const code = filter.code;
  if (filter.operator === Operator.IDENTIFIER) {
    return probe(
      ctx,
      'token',
      resourceType,
      alias,
      `${code}:identifier`,
      or(values(filter).map((v) => tokenCondition(ctx.params, v, code))),
    );
  }
  if (filter.operator === Operator.ABOVE || filter.operator === Operator.BELOW) {
    return hierarchyFilter(ctx, resourceType, alias, filter, param);
  }
  if (filter.operator !== Operator.EQUALS && filter.operator !== Operator.NOT) {
    invalid(
      `Modifier ':${filter.operator}' is not supported on reference parameter '${code}'`,
      `${code}:${filter.operator}`,
    );
  }
  const exists = probe(
    ctx,
    'reference',
    resourceType,
    alias,
    code,
    or(values(filter).map((v) => referenceCondition(ctx.params, v, param.target))),
  );
  return filter.operator === Operator.NOT ? `NOT ${exists}` : exists;
}

/**
 * Reference :above / :below on a hierarchy (FHIR R4 search §3.1.1.5.6): a parameter pointing at its
 * own type (Location.partof, Organization.partof) links each resource to its parent. :below=X
 * matches references to X or to anything under X; :above=X references to X or to X's ancestors.
 * The hierarchy is walked in SQL over the same index rows, so it is always current.
 */
function hierarchyFilter(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filter: Filter,
  param: SearchParameterInfo,
): string {
  const code = filter.code;
  const key = `${code}:${filter.operator}`;
  if (!param.target?.includes(resourceType)) {
    invalid(
      `:${filter.operator} on '${code}' needs a hierarchy: '${code}' does not point at ${resourceType}`,
      key,
    );
  }
  const p = ctx.params;
  const type = p.add(resourceType);
  const linkCode = p.add(code);
  const conditions = values(filter).map((value) => {
    const plain = unescapeValue(value);
    const typed = /^(?:([A-Z][A-Za-z]+)\/)?([A-Za-z0-9\-.]{1,64})$/.exec(plain);
    if (!typed || (typed[1] && typed[1] !== resourceType)) {
      invalid(`:${filter.operator} on '${code}' needs an id or ${resourceType}/id, got '${value}'`, key);
    }
    const step =
      filter.operator === Operator.BELOW
        ? `SELECT h.resource_id FROM search_reference h JOIN tree ON h.target_id = tree.id
           WHERE h.resource_type = ${type} AND h.code = ${linkCode} AND h.target_type = ${type}`
        : `SELECT h.target_id FROM search_reference h JOIN tree ON h.resource_id = tree.id
           WHERE h.resource_type = ${type} AND h.code = ${linkCode} AND h.target_type = ${type}`;
    // UNION (not UNION ALL) drops ids already seen, so a cycle in the data ends the walk.
    return `t.target_id IN (WITH RECURSIVE tree(id) AS (SELECT ${p.add(typed[2])}::text UNION ${step}) SELECT id FROM tree)`;
  });
  return probe(ctx, 'reference', resourceType, alias, code, `t.target_type = ${type} AND ${or(conditions)}`);
}

function orderedFilter(
  ctx: FilterContext,
  resourceType: string,
  alias: string,
  filter: SqlFilter,
  param: SearchParameterInfo,
): string {
  const code = filter.code;
  const kind = TABLE_OF[param.type] as IndexKind;
  const parts = prefixed(filter);
  for (const [operator] of parts) {
    if (!ORDERED_PREFIXES.has(operator)) {
      invalid(
        `Modifier ':${operator}' is not supported on ${param.type} parameter '${code}'`,
        `${code}:${operator}`,
      );
    }
  }
  const condition = (operator: Operator, value: string): string => {
    if (param.type === 'date' && filter.match === 'overlaps') {
      // _filter's po: the value's range and the query's share an instant (both bounds on one row).
      const after = dateCompare(ctx.params, 't.low', 't.high', Operator.GREATER_THAN_OR_EQUALS, value, code);
      return `(${after} AND ${dateCompare(ctx.params, 't.low', 't.high', Operator.LESS_THAN_OR_EQUALS, value, code)})`;
    }
    if (param.type === 'date') return dateCompare(ctx.params, 't.low', 't.high', operator, value, code);
    if (param.type === 'number') return numberCompare(ctx.params, 't.value', operator, value, code);
    return quantityCondition(ctx.params, operator, value, code);
  };
  // ne: resources with no value equal to it (FHIR: not within the value's range).
  const positive = parts.filter(([operator]) => operator !== Operator.NOT_EQUALS);
  const negative = parts.filter(([operator]) => operator === Operator.NOT_EQUALS);
  const conditions: string[] = [];
  if (positive.length > 0) {
    conditions.push(
      probe(ctx, kind, resourceType, alias, code, or(positive.map(([o, v]) => condition(o, v)))),
    );
  }
  for (const [operator, value] of negative) {
    conditions.push(`NOT ${probe(ctx, kind, resourceType, alias, code, condition(operator, value))}`);
  }
  return or(conditions);
}

function compositeFilter(ctx: FilterContext, resourceType: string, alias: string, filter: Filter): string {
  const code = filter.code;
  const components = getCompositeComponents(resourceType, code);
  if (!components || components.length < 2) {
    invalid(`Composite search parameter '${code}' has no usable definition`, code);
  }
  const second = components[1];
  const conditions = values(filter).map((value) => {
    const dollar = value.search(/(?<!\\)\$/);
    if (dollar < 0) {
      invalid(`Composite '${code}' needs two parts joined by '$', got '${value}'`, code);
    }
    const first = value.slice(0, dollar);
    const rest = value.slice(dollar + 1);
    const parts = splitBar(first);
    const p = ctx.params;
    const firstCondition =
      parts.length === 2
        ? [
            parts[0] ? `t.system1 = ${p.add(parts[0])}` : 't.system1 IS NULL',
            `t.value1 = ${p.add(parts[1])}`,
          ].join(' AND ')
        : `t.value1 = ${p.add(unescapeValue(first))}`;
    let secondCondition: string;
    if (second.type === 'quantity' || second.type === 'number') {
      const [prefix, number] = splitValuePrefix(rest);
      const bars = splitBar(number);
      const conds = [numberCompare(p, 't.number2', prefix ?? Operator.EQUALS, bars[0], code)];
      if (bars[1]) conds.push(`t.system2 = ${p.add(bars[1])}`);
      if (bars[2]) conds.push(`t.value2 = ${p.add(bars[2])}`);
      secondCondition = conds.join(' AND ');
    } else if (second.type === 'date') {
      const [prefix, date] = splitValuePrefix(rest);
      secondCondition = dateCompare(p, 't.low2', 't.high2', prefix ?? Operator.EQUALS, date, code);
    } else if (second.type === 'string') {
      secondCondition = stringCondition(p, Operator.EQUALS, rest).replace('t.value', 't.value2');
    } else {
      const bars = splitBar(rest);
      secondCondition =
        bars.length === 2
          ? [
              bars[0] ? `t.system2 = ${p.add(bars[0])}` : 't.system2 IS NULL',
              bars[1] ? `t.value2 = ${p.add(bars[1])}` : 'true',
            ].join(' AND ')
          : `t.value2 = ${p.add(unescapeValue(rest))}`;
    }
    return `(${firstCondition} AND ${secondCondition})`;
  });
  return probe(ctx, 'composite', resourceType, alias, code, or(conditions));
}

function idCondition(ctx: FilterContext, alias: string, filter: Filter): string {
  if (filter.operator === Operator.MISSING) {
    return filter.value === 'true' ? 'false' : 'true';
  }
  const ids = ctx.params.add(values(filter).map(unescapeValue));
  if (filter.operator === Operator.NOT) {
    return `NOT (${alias}.id = ANY(${ids}::text[]))`;
  }
  if (filter.operator !== Operator.EQUALS) {
    invalid(`Modifier ':${filter.operator}' is not supported on '_id'`, `_id:${filter.operator}`);
  }
  return `${alias}.id = ANY(${ids}::text[])`;
}

function lastUpdatedCondition(ctx: FilterContext, alias: string, filter: Filter): string {
  if (filter.operator === Operator.MISSING) {
    return filter.value === 'true' ? 'false' : 'true';
  }
  const column = `${alias}.last_updated`;
  const conditions = prefixed(filter).map(([operator, value]) => {
    if (!ORDERED_PREFIXES.has(operator)) {
      invalid(`Modifier ':${operator}' is not supported on '_lastUpdated'`, `_lastUpdated:${operator}`);
    }
    // An instant is a point: [t, t] with an inclusive end behaves as FHIR's comparisons expect.
    const point = (o: Operator) =>
      dateCompare(ctx.params, column, `(${column} + interval '1 millisecond')`, o, value, '_lastUpdated');
    return operator === Operator.NOT_EQUALS ? `NOT ${point(Operator.EQUALS)}` : point(operator);
  });
  return or(conditions);
}

function compartmentCondition(ctx: FilterContext, alias: string, filter: Filter): string {
  if (filter.operator !== Operator.EQUALS) {
    invalid(
      `Modifier ':${filter.operator}' is not supported on '_compartment'`,
      `_compartment:${filter.operator}`,
    );
  }
  const compartments = values(filter).map((value) => {
    const plain = unescapeValue(value);
    return plain.includes('/') ? plain : `Patient/${plain}`;
  });
  return `${alias}.compartments && ${ctx.params.add(compartments)}::text[]`;
}

/** Visibility of a linked resource (chains, _has, includes): the caller's access rules apply to it too. */
export function visibleCondition(ctx: FilterContext, resourceType: string, alias: string): string[] {
  if (!typeRights(ctx.context.access, resourceType).read) {
    return ['false'];
  }
  const first = ctx.params.values.length + 1;
  const visible = visibilitySql(ctx.context, `${alias}.`, first, resourceType);
  ctx.params.values.push(...visible.params);
  return visible.where;
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

/**
 * A date parameter over one single-valued element (Slot.start, Communication.sent) holds at most
 * one index row per resource, so `start=gt…&start=lt…` can test both bounds on that one row:
 * one probe per candidate instead of one per filter (the slot calendar's range query).
 */
function isSingleDate(resourceType: string, param: SearchParameterInfo): boolean {
  const match = /^([A-Za-z]+)\.([A-Za-z]+)$/.exec(param.expression);
  if (param.type !== 'date' || !match || match[1] !== resourceType) {
    return false;
  }
  const schema = getTypeSchema(resourceType);
  const element = schema?.elements.get(match[2]) ?? schema?.elements.get(`${match[2]}[x]`);
  return !!element && element.max === 1 && element.types.every((type) => type.code !== 'Timing');
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
    const each = parts.map(([operator, value]) =>
      dateCompare(ctx.params, 't.low', 't.high', operator, value, code),
    );
    conditions.push(probe(ctx, 'date', resourceType, alias, code, each.join(' AND ')));
  }
  return conditions;
}
