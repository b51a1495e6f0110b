// Introspection answers, computed without holding the event loop and kept as JSON text. Listing the
// whole schema (`__schema { types { … } }`, ~8,230 types) is the costly part: graphql-js answers it in
// one synchronous run (the standard IntrospectionQuery of GraphiQL and codegen: ~10 s and 30 MB of
// JSON, another 1.5-2.5 s to serialise). Here `types` is answered a slice of types at a time through
// `__type(name:)` with the same selection, with turns of the event loop in between, and each answer
// is kept as text, since it depends only on the schema and the request.
import { execute, Kind, OperationTypeNode, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  FormattedExecutionResult,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionNode,
  SelectionSetNode,
} from 'graphql';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { formatFieldError } from './errors';

/** Longest stretch of work between two turns of the event loop. */
const SLICE_MS = 20;
/** Answers kept, by total size of their text (the standard IntrospectionQuery's is ~30 MB). */
const MAX_CACHED_CHARS = 64 * 1024 * 1024;

/** Whether every operation selects only introspection fields (`__schema`, `__type`, `__typename`). */
export function isIntrospectionOnly(document: DocumentNode): boolean {
  return document.definitions.every(
    (definition) =>
      definition.kind !== Kind.OPERATION_DEFINITION ||
      definition.selectionSet.selections.every(
        (selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith('__'),
      ),
  );
}

/** How many `types` fields of `__Schema` (the whole schema's list) the document selects, anywhere. */
export function countSchemaTypesFields(schema: GraphQLSchema, document: DocumentNode): number {
  const typeInfo = new TypeInfo(schema);
  let count = 0;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if (node.name.value === 'types' && typeInfo.getParentType()?.name === '__Schema') count++;
      },
    }),
  );
  return count;
}

/** A `types` field directly under a top-level `__schema` field: the part answered in slices. */
interface TypesField {
  schemaKey: string;
  typesKey: string;
  selectionSet: SelectionSetNode;
}

const responseKey = (field: FieldNode): string => field.alias?.value ?? field.name.value;

/**
 * The operation with each sliceable `types` field replaced by `__typename` under the same response
 * key (so the answer keeps its key order), and those fields. Null when a `types` field cannot be
 * sliced (under a directive, a fragment or a deeper field).
 */
function splitTypesFields(operation: OperationDefinitionNode): {
  rest: OperationDefinitionNode;
  typesFields: TypesField[];
} {
  const typesFields: TypesField[] = [];
  const selections = operation.selectionSet.selections.map((selection): SelectionNode => {
    if (
      selection.kind !== Kind.FIELD ||
      selection.name.value !== '__schema' ||
      !selection.selectionSet ||
      selection.directives?.length
    ) {
      return selection;
    }
    const inner = selection.selectionSet.selections.map((sub): SelectionNode => {
      if (
        sub.kind !== Kind.FIELD ||
        sub.name.value !== 'types' ||
        !sub.selectionSet ||
        sub.directives?.length
      ) {
        return sub;
      }
      typesFields.push({
        schemaKey: responseKey(selection),
        typesKey: responseKey(sub),
        selectionSet: sub.selectionSet,
      });
      return {
        kind: Kind.FIELD,
        alias: { kind: Kind.NAME, value: responseKey(sub) },
        name: { kind: Kind.NAME, value: '__typename' },
      };
    });
    return { ...selection, selectionSet: { ...selection.selectionSet, selections: inner } };
  });
  return { rest: { ...operation, selectionSet: { ...operation.selectionSet, selections } }, typesFields };
}

/** The JSON text of each named type's answer to `selectionSet`, a time slice of types at a time. */
async function answerTypesInSlices(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  selectionSet: SelectionSetNode,
  variableValues: Record<string, unknown>,
  logServerError: (err: unknown) => void,
): Promise<string[]> {
  const names = Object.keys(schema.getTypeMap());
  const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
  const answers: string[] = [];
  let perSlice = 20;
  for (let from = 0; from < names.length;) {
    const started = performance.now();
    const slice = names.slice(from, from + perSlice);
    const fields: FieldNode[] = slice.map((name, i) => ({
      kind: Kind.FIELD,
      alias: { kind: Kind.NAME, value: `t${i}` },
      name: { kind: Kind.NAME, value: '__type' },
      arguments: [
        {
          kind: Kind.ARGUMENT,
          name: { kind: Kind.NAME, value: 'name' },
          value: { kind: Kind.STRING, value: name },
        },
      ],
      selectionSet,
    }));
    const sliceOperation: OperationDefinitionNode = {
      kind: Kind.OPERATION_DEFINITION,
      operation: OperationTypeNode.QUERY,
      variableDefinitions: operation.variableDefinitions,
      selectionSet: { kind: Kind.SELECTION_SET, selections: fields },
    };
    const result = await execute({
      schema,
      document: { kind: Kind.DOCUMENT, definitions: [sliceOperation, ...fragments] },
      variableValues,
    });
    if (result.errors?.length) {
      throw new OperationOutcomeError(
        badRequest(result.errors.map((error) => formatFieldError(error, logServerError).message).join('; ')),
      );
    }
    slice.forEach((_, i) => answers.push(JSON.stringify(result.data?.[`t${i}`] ?? null)));
    from += slice.length;
    // Aim the next slice at SLICE_MS from this one's pace.
    const elapsed = Math.max(performance.now() - started, 0.1);
    // Grows at most twofold: a run of small types may be followed by large ones.
    perSlice = Math.max(1, Math.min(perSlice * 2, Math.round((slice.length * SLICE_MS) / elapsed)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return answers;
}

async function computeAnswer(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variableValues: Record<string, unknown>,
  logServerError: (err: unknown) => void,
): Promise<{ text: string; keep: boolean }> {
  const split = splitTypesFields(operation);
  if (split.typesFields.length < countSchemaTypesFields(schema, document)) {
    throw new OperationOutcomeError(
      badRequest(
        'Whole-schema introspection must select types directly under a top-level __schema field, ' +
          'without directives or fragments around it: __schema { types { … } }',
        'query',
      ),
    );
  }
  const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
  const result = await execute({
    schema,
    document: { kind: Kind.DOCUMENT, definitions: [split.rest, ...fragments] },
    variableValues,
  });
  const formatted: FormattedExecutionResult = { data: result.data };
  if (result.errors?.length) {
    formatted.errors = result.errors.map((error) => formatFieldError(error, logServerError));
    return { text: JSON.stringify(formatted), keep: false };
  }
  // Each types list goes in as a marker, replaced by its text (serialised slice by slice) at the end.
  const lists: string[] = [];
  for (const field of split.typesFields) {
    const schemaAnswer = result.data?.[field.schemaKey] as Record<string, unknown> | null | undefined;
    if (!schemaAnswer) continue;
    const types = await answerTypesInSlices(
      schema,
      document,
      operation,
      field.selectionSet,
      variableValues,
      logServerError,
    );
    schemaAnswer[field.typesKey] = `\u0000types-${lists.length}`;
    lists.push(`[${types.join(',')}]`);
  }
  let text = JSON.stringify(formatted);
  lists.forEach((list, i) => {
    const marker = JSON.stringify(`\u0000types-${i}`);
    const at = text.indexOf(marker);
    // Concatenation, not replace(): no copy of a 30 MB string in one go.
    text = text.slice(0, at) + list + text.slice(at + marker.length);
  });
  return { text, keep: true };
}

const answers = new Map<string, string>();
let cachedChars = 0;
const pending = new Map<string, Promise<{ text: string; keep: boolean }>>();
// One whole-schema answer is computed at a time: many distinct ones at once would share the CPU.
let queue: Promise<unknown> = Promise.resolve();

function remember(key: string, text: string): void {
  if (text.length > MAX_CACHED_CHARS) return;
  for (const [oldKey, oldText] of answers) {
    if (cachedChars + text.length <= MAX_CACHED_CHARS) break;
    answers.delete(oldKey);
    cachedChars -= oldText.length;
  }
  answers.set(key, text);
  cachedChars += text.length;
}

/**
 * The JSON text of the answer to an introspection-only operation (validated, within its limits).
 * The same request (query, operation name, variables) gets the kept text.
 */
export function answerIntrospection(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  key: string,
  variableValues: Record<string, unknown>,
  logServerError: (err: unknown) => void,
): Promise<string> {
  const kept = answers.get(key);
  if (kept !== undefined) return Promise.resolve(kept);
  let answer = pending.get(key);
  if (!answer) {
    answer = queue.then(() => computeAnswer(schema, document, operation, variableValues, logServerError));
    queue = answer.catch(() => undefined);
    pending.set(key, answer);
    answer.then(
      ({ text, keep }) => {
        pending.delete(key);
        // An answer with errors is not kept.
        if (keep) remember(key, text);
      },
      () => pending.delete(key),
    );
  }
  return answer.then(({ text }) => text);
}
