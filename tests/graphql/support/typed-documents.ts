// The GraphQL documents the app may send: the operations codegen generated into
// src/graphql/generated (each validated against the schema snapshot by `npm run typecheck`). A
// document is compared as printed text without `__typename` selections, which Apollo's cache adds to
// every selection set on the way out; anything else that differs (a field, an argument, a variable,
// a name, a document built at run time) makes it a document CI never checked.
import { Kind, parse, print, visit } from 'graphql';
import type { DocumentNode } from 'graphql';
import * as generated from '../../../src/graphql/generated/operations';

/** A document as comparable text: parsed if needed, `__typename` selections dropped, printed. */
export function normalizedDocument(document: string | DocumentNode): string {
  const ast = typeof document === 'string' ? parse(document) : document;
  const stripped = visit(ast, {
    Field: (node) => (node.name.value === '__typename' && !node.alias ? null : undefined),
  });
  return print(stripped);
}

function isOperationDocument(value: unknown): value is DocumentNode {
  const document = value as DocumentNode | null;
  return (
    document?.kind === Kind.DOCUMENT &&
    document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION)
  );
}

/** Every generated operation document (fragments alone are never sent), by its normalized text. */
export function generatedDocuments(): Map<string, string> {
  const known = new Map<string, string>();
  for (const [name, value] of Object.entries(generated)) {
    if (isOperationDocument(value)) known.set(normalizedDocument(value), name);
  }
  return known;
}

const GENERATED = generatedDocuments();

/**
 * The sent documents that are not generated ones, printed (or as sent, when they do not parse),
 * each once. Empty when the app sent only typed operations.
 */
export function untypedDocuments(
  sent: readonly (string | DocumentNode)[],
  known: ReadonlyMap<string, string> = GENERATED,
): string[] {
  const strangers = new Set<string>();
  for (const document of sent) {
    let text: string;
    try {
      text = normalizedDocument(document);
    } catch {
      strangers.add(String(document));
      continue;
    }
    if (!known.has(text)) strangers.add(text);
  }
  return [...strangers];
}

/** The `query` of a $graphql request body (POST JSON) or URL (GET), if it has one. */
export function graphqlRequestQuery(url: string, method: string, body: string | null): string | undefined {
  const { pathname, searchParams } = new URL(url, 'http://app.invalid/');
  if (!pathname.endsWith('/$graphql') && !pathname.endsWith('/%24graphql')) return undefined;
  if (method === 'GET') return searchParams.get('query') ?? undefined;
  try {
    const query = (JSON.parse(body ?? '') as { query?: unknown }).query;
    return typeof query === 'string' ? query : undefined;
  } catch {
    return body ?? undefined;
  }
}

/** The `query` of a graphql-ws `subscribe` message as a client sends it, if it is one. */
export function subscribeMessageQuery(message: string): string | undefined {
  try {
    const parsed = JSON.parse(message) as { type?: unknown; payload?: { query?: unknown } };
    return parsed.type === 'subscribe' && typeof parsed.payload?.query === 'string'
      ? parsed.payload.query
      : undefined;
  } catch {
    return undefined;
  }
}
