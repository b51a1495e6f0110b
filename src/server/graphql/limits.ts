// Query limits: a depth limit and a cost budget, checked before anything runs, each
// refused with a 400 OperationOutcome. The cost estimates how many resources the query may load:
// a search field costs 1 + its page size and multiplies what is below it by that page size; a
// reference (or `Type(id)`) costs one read. Introspection fields are not counted.
import { getNamedType, isCompositeType, Kind } from 'graphql';
import type {
  FragmentDefinitionNode,
  GraphQLCompositeType,
  GraphQLField,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
  ValueNode,
} from 'graphql';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { BloomFieldExtensions } from './context';
import { DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT } from './search-args';

export const MAX_DEPTH = 12;

/** Selections walked at most (fragments spread inside fragments could otherwise explode). */
const MAX_VISITS = 50_000;

export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
}

export interface QueryMeasure {
  depth: number;
  cost: number;
}

interface WalkState {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  limits: QueryLimits;
  depth: number;
  cost: number;
  visits: number;
  spreading: Set<string>;
}

function refuse(text: string): never {
  throw new OperationOutcomeError(badRequest(text));
}

/** An argument's value: a literal, or the variable it names. */
function argValue(
  field: { arguments?: readonly { name: { value: string }; value: ValueNode }[] },
  name: string,
  variables: Record<string, unknown>,
): unknown {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (arg?.value.kind === Kind.INT) return Number(arg.value.value);
  if (arg?.value.kind === Kind.STRING) return arg.value.value;
  if (arg?.value.kind === Kind.VARIABLE) return variables[arg.value.name.value];
  return undefined;
}

/** The page size: `_count`, or `_count` inside the query string of `searchArg`; capped, defaulted. */
function countArg(
  field: { arguments?: readonly { name: { value: string }; value: ValueNode }[] },
  variables: Record<string, unknown>,
  searchArg?: string,
): number {
  let value = argValue(field, '_count', variables);
  const search = searchArg ? argValue(field, searchArg, variables) : undefined;
  if (typeof search === 'string') {
    const count = new URLSearchParams(search.replace(/^\?/, '')).get('_count');
    value = count !== null && /^\d+$/.test(count) ? Number(count) : undefined;
  }
  return typeof value === 'number' && Number.isFinite(value)
    ? Math.min(Math.max(Math.trunc(value), 0), MAX_SEARCH_COUNT)
    : DEFAULT_SEARCH_COUNT;
}

/** Whether @skip / @include leave this selection out (it then costs nothing: it never runs). */
function isSkipped(
  selection: {
    directives?: readonly {
      name: { value: string };
      arguments?: readonly { name: { value: string }; value: ValueNode }[];
    }[];
  },
  variables: Record<string, unknown>,
): boolean {
  for (const directive of selection.directives ?? []) {
    const name = directive.name.value;
    if (name !== 'skip' && name !== 'include') {
      continue;
    }
    const arg = directive.arguments?.find((a) => a.name.value === 'if')?.value;
    const value =
      arg?.kind === Kind.BOOLEAN
        ? arg.value
        : arg?.kind === Kind.VARIABLE
          ? variables[arg.name.value]
          : undefined;
    if (typeof value === 'boolean' && value === (name === 'skip')) {
      return true;
    }
  }
  return false;
}

function fieldOf(parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  return 'getFields' in parent ? parent.getFields()[name] : undefined;
}

function walk(
  state: WalkState,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  depth: number,
  multiplier: number,
): void {
  for (const selection of selectionSet.selections) {
    if (++state.visits > MAX_VISITS) {
      refuse('Query too complex: it has too many selections once its fragments are expanded');
    }
    if (isSkipped(selection, state.variables)) {
      continue;
    }
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name.startsWith('__')) {
        continue;
      }
      const fieldDepth = depth + 1;
      state.depth = Math.max(state.depth, fieldDepth);
      if (fieldDepth > state.limits.maxDepth) {
        refuse(
          `Query too deep: field '${name}' is at depth ${fieldDepth}, the limit is ${state.limits.maxDepth}`,
        );
      }
      const field = fieldOf(parent, name);
      if (!field) {
        continue;
      }
      let childMultiplier = multiplier;
      const extensions = field.extensions as BloomFieldExtensions | undefined;
      const cost = extensions?.bloomCost;
      if (cost === 'search') {
        const count = countArg(selection, state.variables, extensions?.bloomSearchArg);
        state.cost += multiplier * (1 + count);
        childMultiplier = multiplier * Math.max(count, 1);
      } else if (cost === 'read') {
        state.cost += multiplier;
      }
      if (state.cost > state.limits.maxCost) {
        refuse(
          `Query too costly: it may load about ${state.cost} resources, the limit is ${state.limits.maxCost}; ask for smaller pages (_count) or fewer nested lists`,
        );
      }
      const type = getNamedType(field.type);
      if (selection.selectionSet && isCompositeType(type)) {
        walk(state, selection.selectionSet, type, fieldDepth, childMultiplier);
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition
        ? state.schema.getType(selection.typeCondition.name.value)
        : parent;
      walk(state, selection.selectionSet, isCompositeType(type) ? type : parent, depth, multiplier);
    } else {
      const name = selection.name.value;
      const fragment = state.fragments.get(name);
      if (!fragment || state.spreading.has(name)) {
        continue;
      }
      state.spreading.add(name);
      const type = state.schema.getType(fragment.typeCondition.name.value);
      walk(state, fragment.selectionSet, isCompositeType(type) ? type : parent, depth, multiplier);
      state.spreading.delete(name);
    }
  }
}

/** Depth and cost of the operation; throws a 400 OperationOutcomeError when either is over its limit. */
export function checkQueryLimits(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  variables: Record<string, unknown>,
  limits: QueryLimits,
): QueryMeasure {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) {
    refuse(`This server has no ${operation.operation} operations`);
  }
  const state: WalkState = {
    schema,
    fragments: new Map(fragments.map((fragment) => [fragment.name.value, fragment])),
    variables,
    limits,
    depth: 0,
    cost: 0,
    visits: 0,
    spreading: new Set(),
  };
  walk(state, operation.selectionSet, root, 0, 1);
  return { depth: state.depth, cost: state.cost };
}
