// Validation of a GraphQL document against the FHIR schema, and a cache of documents that passed.
// graphql-js's KnownTypeNamesRule copies all ~8,000 type names on every call (for its "did you
// mean" hints), which cost more than every other rule together here: a lean rule with the same
// verdict replaces it. Apps send the same operations again and again, so a valid document is
// parsed and validated once per query text.
import { GraphQLError, Kind, KnownTypeNamesRule, specifiedRules, validate } from 'graphql';
import type { ASTVisitor, DocumentNode, GraphQLSchema, ValidationContext, ValidationRule } from 'graphql';
import { parseBounded } from './document-bounds';
import { requestErrorsOutcome } from './errors';

/** Same verdict as KnownTypeNamesRule (every named type exists), without its suggestion list. */
function LeanKnownTypeNamesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  const defined = new Set(
    context
      .getDocument()
      .definitions.filter(
        (definition) => 'name' in definition && definition.kind !== Kind.OPERATION_DEFINITION,
      )
      .map((definition) => ('name' in definition ? definition.name?.value : undefined)),
  );
  return {
    NamedType(node) {
      const name = node.name.value;
      if (!schema.getType(name) && !defined.has(name)) {
        context.reportError(new GraphQLError(`Unknown type "${name}".`, { nodes: node }));
      }
    },
  };
}

const RULES: readonly ValidationRule[] = specifiedRules.map((rule) =>
  rule === KnownTypeNamesRule ? LeanKnownTypeNamesRule : rule,
);

const MAX_CACHED = 500;
const validDocuments = new Map<string, DocumentNode>();

/**
 * The parsed document of a query text, validated against `schema`; throws a 400 OperationOutcome
 * listing the syntax or validation errors.
 */
export function parseAndValidate(schema: GraphQLSchema, query: string): DocumentNode {
  const cached = validDocuments.get(query);
  if (cached) {
    return cached;
  }
  let document: DocumentNode;
  try {
    document = parseBounded(query);
  } catch (err) {
    if (err instanceof GraphQLError) {
      throw requestErrorsOutcome([err], 'GraphQL syntax error: ');
    }
    throw err;
  }
  const errors = validate(schema, document, RULES, { maxErrors: 20 });
  if (errors.length > 0) {
    throw requestErrorsOutcome(errors);
  }
  if (validDocuments.size >= MAX_CACHED) {
    validDocuments.delete(validDocuments.keys().next().value as string);
  }
  validDocuments.set(query, document);
  return document;
}
