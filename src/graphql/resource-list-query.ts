// The generic table's ResourceList operation for any resource type and any chosen fields (SPEC §7
// "ResourceList queries for generic tables"). operations/ResourceList.graphql is typed at compile
// time for the types screens know in advance; the table learns its type and fields from the URL, so
// it builds the same operation (same name, the connection aliased to its resource type) here: the
// selection is the chosen fields, the arguments the request's filters, sort and page. The document
// is built as an AST so the GraphQL parser stays out of the browser bundle.
import { Kind, OperationTypeNode } from 'graphql';
import type {
  ArgumentNode,
  DocumentNode,
  FieldNode,
  SelectionSetNode,
  VariableDefinitionNode,
} from 'graphql';
import { MODIFIER_OPERATORS } from '../fhir/search/parse';
import type { SearchRequest } from '../fhir/search/types';
import { Operator } from '../fhir/search/types';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** 'based-on' → 'based_on' as the server names search arguments; undefined when no GraphQL name fits. */
export function searchArgumentName(code: string): string | undefined {
  const name = code.replaceAll('-', '_');
  return GRAPHQL_NAME.test(name) && !name.startsWith('__') ? name : undefined;
}

export interface ResourceListQuery {
  readonly document: DocumentNode;
  readonly variables: Record<string, string | number>;
}

function name(value: string) {
  return { kind: Kind.NAME, value } as const;
}

function selectionSet(fields: readonly FieldNode[]): SelectionSetNode {
  return { kind: Kind.SELECTION_SET, selections: fields };
}

function field(
  fieldName: string,
  children?: readonly FieldNode[],
  args?: ArgumentNode[],
  alias?: string,
): FieldNode {
  return {
    kind: Kind.FIELD,
    name: name(fieldName),
    ...(alias ? { alias: name(alias) } : {}),
    ...(args ? { arguments: args } : {}),
    ...(children ? { selectionSet: selectionSet(children) } : {}),
  };
}

/**
 * A selection written as GraphQL writes it, without commas: `status code{text coding{code}}`.
 * Throws on anything else (names come from the server's definitions; this keeps them honest).
 */
export function parseSelection(text: string): FieldNode[] {
  const tokens = text.match(/[{}]|[^\s{}]+/g) ?? [];
  let position = 0;
  const read = (depth: number): FieldNode[] => {
    const fields: FieldNode[] = [];
    while (position < tokens.length && tokens[position] !== '}') {
      const token = tokens[position++];
      if (!GRAPHQL_NAME.test(token)) throw new Error(`Bad selection near '${token}'`);
      if (tokens[position] !== '{') {
        fields.push(field(token));
        continue;
      }
      position++;
      const children = read(depth + 1);
      if (tokens[position++] !== '}' || children.length === 0) throw new Error(`Bad selection of '${token}'`);
      fields.push(field(token, children));
    }
    if (depth === 0 && position < tokens.length) throw new Error("Unbalanced '}' in selection");
    return fields;
  };
  return read(0);
}

/**
 * The connection's arguments for a request, or undefined when the request says something they
 * cannot: a modifier (`code:not`), a chain, two conditions on one parameter (a range), an
 * estimated total, or a code `isArgument` refuses (the connection has arguments for the type's
 * search parameters only, not `_filter`) need the REST search, which takes every FHIR operator as
 * written.
 */
export function resourceListArguments(
  request: SearchRequest,
  isArgument: (code: string) => boolean = () => true,
): Record<string, string | number> | undefined {
  const args: Record<string, string | number> = {};
  for (const filter of request.filters ?? []) {
    const arg = isArgument(filter.code) ? searchArgumentName(filter.code) : undefined;
    if (!arg || arg in args || (MODIFIER_OPERATORS as readonly string[]).includes(filter.operator)) {
      return undefined;
    }
    args[arg] = filter.operator === Operator.EQUALS ? filter.value : `${filter.operator}${filter.value}`;
  }
  if (request.include?.length || request.revInclude?.length || request.summary) return undefined;
  // The connection's count is always exact (a COUNT query); `_total=estimate` asks the REST search
  // for the planner's estimate instead, which is what makes a large table's '~total' cheap.
  if (request.total === 'estimate') return undefined;
  if (request.sortRules?.length) {
    args._sort = request.sortRules.map((rule) => (rule.descending ? '-' : '') + rule.code).join(',');
  }
  if (request.count !== undefined) args._count = request.count;
  if (request.offset !== undefined) args._offset = request.offset;
  return args;
}

/**
 * `query ResourceList(...) { Type: TypeConnection(...) { count offset pageSize edges { resource {
 * resourceType id meta{versionId lastUpdated} <selection> } } } }`, or undefined when the request
 * needs the REST search (see resourceListArguments). `count` is asked only when the request wants a
 * total: it costs the server a COUNT query.
 */
export function resourceListQuery(
  request: SearchRequest,
  selection: string,
  isArgument?: (code: string) => boolean,
): ResourceListQuery | undefined {
  const variables = resourceListArguments(request, isArgument);
  if (!variables || !GRAPHQL_NAME.test(request.resourceType)) return undefined;
  const names = Object.keys(variables).sort();
  const variableDefinitions: VariableDefinitionNode[] = names.map((arg) => ({
    kind: Kind.VARIABLE_DEFINITION,
    variable: { kind: Kind.VARIABLE, name: name(arg) },
    type: { kind: Kind.NAMED_TYPE, name: name(arg === '_count' || arg === '_offset' ? 'Int' : 'String') },
  }));
  const args: ArgumentNode[] = names.map((arg) => ({
    kind: Kind.ARGUMENT,
    name: name(arg),
    value: { kind: Kind.VARIABLE, name: name(arg) },
  }));
  const resource = field('resource', [
    field('resourceType'),
    field('id'),
    field('meta', [field('versionId'), field('lastUpdated')]),
    ...parseSelection(selection).filter(
      (chosen) => !['resourceType', 'id', 'meta'].includes(chosen.name.value),
    ),
  ]);
  const connection = field(
    `${request.resourceType}Connection`,
    [
      ...(request.total === 'none' ? [] : [field('count')]),
      field('offset'),
      field('pageSize'),
      field('edges', [resource]),
    ],
    args,
    request.resourceType,
  );
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: OperationTypeNode.QUERY,
        name: name('ResourceList'),
        variableDefinitions,
        selectionSet: selectionSet([connection]),
      },
    ],
  };
  return { document, variables };
}

/** A GraphQL row as the REST search would give it: no nulls, no empty objects, no __typename. */
export function compactRow(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(compactRow).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return value;
  const entries = Object.entries(value)
    .filter(([key]) => key !== '__typename')
    .map(([key, item]) => [key, compactRow(item)] as const)
    .filter(([, item]) => item !== undefined);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
