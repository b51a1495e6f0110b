// `_filter` (FHIR R4 search_filter.html) on the search engine: each comparison `path op value`
// becomes the Filter the same parameter would be as a URL parameter (so it reaches the same SQL,
// chains included), and and/or/not become SQL AND/OR/NOT around them. Operators map by the
// parameter's type; a combination the spec does not give a meaning, an unknown parameter or a
// malformed value is a 400 naming `_filter` and the character where the comparison starts.
import { OperationOutcomeError, getStatus } from '../../fhir';
import type { SearchParameterType } from '../../fhir';
import {
  Operator,
  filterSyntaxError,
  parseFilterExpression,
  resolveSearchParameter,
} from '../../fhir/search';
import type { FilterComparison, FilterExpression, FilterOperator } from '../../fhir/search';
import type { SqlFilter } from './types';
import { valueProblem } from './value-syntax';

/** An expression whose comparisons are Filters, ready for the SQL builder. */
export type FilterTree =
  | { kind: 'filter'; filter: SqlFilter; position: number }
  | { kind: 'not'; operand: FilterTree }
  | { kind: 'and' | 'or'; operands: FilterTree[] };

/** The prefixes of ordered types, by the same two letters in the filter grammar. */
const ORDERED: Partial<Record<FilterOperator, Operator>> = {
  eq: Operator.EQUALS,
  ne: Operator.NOT_EQUALS,
  gt: Operator.GREATER_THAN,
  lt: Operator.LESS_THAN,
  ge: Operator.GREATER_THAN_OR_EQUALS,
  le: Operator.LESS_THAN_OR_EQUALS,
  sa: Operator.STARTS_AFTER,
  eb: Operator.ENDS_BEFORE,
  ap: Operator.APPROXIMATELY,
};

/** Operators whose value is free text or a URL, not a value of the parameter's type. */
const FREE_TEXT: readonly Operator[] = [Operator.CONTAINS, Operator.IN, Operator.NOT_IN];

const ORDERED_TYPES: ReadonlySet<SearchParameterType> = new Set(['number', 'date', 'quantity']);

/** Per type: filter operator → the URL form's operator (and how a string or date compares). */
type Mapping = Partial<Record<FilterOperator, Pick<SqlFilter, 'operator' | 'match'>>>;

const MAPPINGS: Partial<Record<SearchParameterType, Mapping>> = {
  // Strings compare folded (case and accent) as the string parameter does.
  string: {
    eq: { operator: Operator.EQUALS, match: 'equals' },
    co: { operator: Operator.CONTAINS },
    sw: { operator: Operator.EQUALS },
    ew: { operator: Operator.EQUALS, match: 'ends-with' },
  },
  token: {
    eq: { operator: Operator.EQUALS },
    ss: { operator: Operator.ABOVE },
    sb: { operator: Operator.BELOW },
    in: { operator: Operator.IN },
    ni: { operator: Operator.NOT_IN },
  },
  reference: {
    eq: { operator: Operator.EQUALS },
    re: { operator: Operator.EQUALS },
    ss: { operator: Operator.ABOVE },
    sb: { operator: Operator.BELOW },
  },
  uri: {
    eq: { operator: Operator.EQUALS },
    ss: { operator: Operator.ABOVE },
    sb: { operator: Operator.BELOW },
  },
  number: mapOrdered(),
  quantity: mapOrdered(),
  date: { ...mapOrdered(), po: { operator: Operator.EQUALS, match: 'overlaps' } },
  composite: { eq: { operator: Operator.EQUALS } },
};

function mapOrdered(): Mapping {
  return Object.fromEntries(Object.entries(ORDERED).map(([op, operator]) => [op, { operator }]));
}

/** A filter value is one value: its commas must not read as the URL form's OR. */
function escapeCommas(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/,/g, '\\,');
}

function comparisonTree(resourceType: string, comparison: FilterComparison): FilterTree {
  const { path, operator, value, position } = comparison;
  const param = resolveSearchParameter(resourceType, path);
  if (!param) {
    throw filterSyntaxError(`unknown search parameter '${path}' for ${resourceType}`, position);
  }
  const leaf = (filter: SqlFilter): FilterTree => ({ kind: 'filter', filter, position });
  if (operator === 'pr') {
    if (value !== 'true' && value !== 'false') {
      throw filterSyntaxError(`'pr' takes true or false, got '${value}'`, position);
    }
    return leaf({ code: path, operator: Operator.MISSING, value: value === 'true' ? 'false' : 'true' });
  }
  const mapping = MAPPINGS[param.type] ?? {};
  // ne on unordered types: no value equal to it (resources without any value included).
  const negated = operator === 'ne' && !ORDERED_TYPES.has(param.type);
  const mapped = negated ? mapping.eq : mapping[operator];
  if (!mapped) {
    throw filterSyntaxError(
      `operator '${operator}' does not apply to ${param.type} parameter '${path}'`,
      position,
    );
  }
  const free = FREE_TEXT.includes(mapped.operator);
  const problem = free ? value === '' && 'a value' : valueProblem(param.type, value, false);
  if (problem) {
    throw filterSyntaxError(`invalid value '${value}' for '${path}': expected ${problem}`, position);
  }
  const filter = leaf({ code: path, value: escapeCommas(value), ...mapped });
  return negated ? { kind: 'not', operand: filter } : filter;
}

function toTree(resourceType: string, expression: FilterExpression): FilterTree {
  switch (expression.kind) {
    case 'compare':
      return comparisonTree(resourceType, expression);
    case 'not':
      return { kind: 'not', operand: toTree(resourceType, expression.operand) };
    default:
      return { kind: expression.kind, operands: expression.operands.map((e) => toTree(resourceType, e)) };
  }
}

/** Parses and checks a `_filter` value against `resourceType`'s parameters (400 on any problem). */
export function filterTree(resourceType: string, text: string): FilterTree {
  return toTree(resourceType, parseFilterExpression(text));
}

/** The comparisons of a tree as Filters, with where each starts (for expanding :in value sets first). */
export function treeLeaves(tree: FilterTree): { filter: SqlFilter; position: number }[] {
  switch (tree.kind) {
    case 'filter':
      return [{ filter: tree.filter, position: tree.position }];
    case 'not':
      return treeLeaves(tree.operand);
    default:
      return tree.operands.flatMap(treeLeaves);
  }
}

/** A 400 found while building one comparison, reported as `_filter`'s at that comparison. */
export function atComparison(err: unknown, position: number): unknown {
  return err instanceof OperationOutcomeError && getStatus(err.outcome) === 400
    ? filterSyntaxError(err.message, position)
    : err;
}

/** The SQL of a tree, each Filter built by `build` (the URL form's builder). */
export function treeSql(tree: FilterTree, build: (filter: SqlFilter) => string): string {
  switch (tree.kind) {
    case 'filter':
      try {
        return build(tree.filter);
      } catch (err) {
        throw atComparison(err, tree.position);
      }
    case 'not':
      return `NOT (${treeSql(tree.operand, build)})`;
    default:
      return `(${tree.operands.map((operand) => treeSql(operand, build)).join(tree.kind === 'and' ? ' AND ' : ' OR ')})`;
  }
}
