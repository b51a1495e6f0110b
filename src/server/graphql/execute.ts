// One GraphQL request, start to end, independent of HTTP: the body's shape, parse, validate (with
// introspection allowed or not), choose the operation, coerce the variables, check depth and cost,
// execute. Anything that stops the request before execution throws a 400 OperationOutcomeError.
import {
  execute,
  getOperationAST,
  getVariableValues,
  Kind,
  NoSchemaIntrospectionCustomRule,
  validate,
} from 'graphql';
import type {
  DocumentNode,
  FormattedExecutionResult,
  FragmentDefinitionNode,
  GraphQLSchema,
  OperationDefinitionNode,
} from 'graphql';
import { badRequest, forbidden, OperationOutcomeError } from '../../fhir';
import type { GraphQLContext } from './context';
import { formatFieldError, requestErrorsOutcome } from './errors';
import { parseAndValidate } from './validation';
import { checkQueryLimits, MAX_DEPTH } from './limits';
import { getGraphQLSchemaInSlices } from './schema';
import { answerIntrospection, countSchemaTypesFields, isIntrospectionOnly } from './introspection';

export interface GraphQLOptions {
  introspection: boolean;
  maxCost: number;
}

/** The request as sent: POST body or GET query parameters (variables may come as JSON text). */
export interface GraphQLRequestInput {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

function invalid(text: string, expression?: string): never {
  throw new OperationOutcomeError(badRequest(text, expression));
}

function readVariables(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === '') {
    return {};
  }
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      invalid(`variables is not valid JSON: ${(err as Error).message}`, 'variables');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid('variables must be a JSON object', 'variables');
  }
  return value as Record<string, unknown>;
}

/** Refuses any introspection field (a 403) when the server's configuration turns introspection off. */
export function checkIntrospectionAllowed(
  schema: GraphQLSchema,
  document: DocumentNode,
  allowed: boolean,
): void {
  if (!allowed && validate(schema, document, [NoSchemaIntrospectionCustomRule]).length > 0) {
    throw new OperationOutcomeError({
      ...forbidden,
      issue: [
        { ...forbidden.issue![0], details: { text: 'GraphQL introspection is disabled on this server' } },
      ],
    });
  }
}

/**
 * A query's or mutation's variables coerced and its depth and cost bounded, before anything runs:
 * for POST $graphql and for a query sent over graphql-ws alike.
 */
export function checkOperationLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  maxCost: number,
): void {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, {
    maxErrors: 20,
  });
  if (coerced.errors) {
    throw requestErrorsOutcome(coerced.errors);
  }
  const fragments = document.definitions.filter(
    (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
  );
  checkQueryLimits(schema, operation, fragments, coerced.coerced, { maxDepth: MAX_DEPTH, maxCost });
}

export async function executeGraphQL(
  input: GraphQLRequestInput,
  method: 'GET' | 'POST',
  context: GraphQLContext,
  options: GraphQLOptions,
  logServerError: (err: unknown) => void,
): Promise<FormattedExecutionResult | string> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    invalid('The request body must be a JSON object {query, operationName, variables}');
  }
  const { query, operationName } = input;
  if (typeof query !== 'string' || query.trim() === '') {
    invalid('Must provide query', 'query');
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    invalid('operationName must be a string', 'operationName');
  }
  const variables = readVariables(input.variables);
  const { schema } = await getGraphQLSchemaInSlices();
  const document = parseAndValidate(schema, query);
  checkIntrospectionAllowed(schema, document, options.introspection);
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) {
    invalid(
      operationName
        ? `Unknown operation '${operationName}'`
        : 'Must provide operationName: the query has several operations',
      'operationName',
    );
  }
  if (operation.operation === 'mutation' && method === 'GET') {
    invalid('Mutations must be sent with POST', 'query');
  }
  checkOperationLimits(schema, document, operation, variables, options.maxCost);

  if (isIntrospectionOnly(document)) {
    const key = JSON.stringify([query, operationName, variables]);
    return answerIntrospection(schema, document, operation, key, variables, logServerError);
  }
  if (countSchemaTypesFields(schema, document) > 0) {
    invalid('Whole-schema introspection (__schema { types }) cannot be mixed with other fields', 'query');
  }
  const result = await execute({
    schema,
    document,
    operationName: operationName ?? undefined,
    variableValues: variables,
    contextValue: context,
  });
  const formatted: FormattedExecutionResult = { data: result.data };
  if (result.errors && result.errors.length > 0) {
    formatted.errors = result.errors.map((error) => formatFieldError(error, logServerError));
  }
  return formatted;
}
