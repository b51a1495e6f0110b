// Bounds on a GraphQL document's size, checked before the work that grows with it. graphql-js
// parses recursively (thousands of nested brackets overflow the stack) and validation walks every
// field with each rule on the event loop (3,000 aliased fields held it for about a second), so the
// text's bracket nesting is measured before parsing, and fields and aliases are counted on the
// parsed document before validation. Each bound is refused with a 400 OperationOutcome.
import { Kind, parse } from 'graphql';
import type { DocumentNode, SelectionSetNode } from 'graphql';
import { badRequest, OperationOutcomeError } from '../../fhir';

/** Deepest bracket nesting ({, [, ( outside strings and comments); depth 12 needs about 30. */
export const MAX_NESTING = 64;
/** Tokens the parser reads at most (the app's largest operation has a few hundred). */
export const MAX_TOKENS = 10_000;
/** Field selections written in the document (fragments counted once, as written). */
export const MAX_FIELDS = 1_000;
/** Aliased fields in the document: each alias can repeat a search under a new name. */
export const MAX_ALIASES = 100;

function refuse(text: string): never {
  throw new OperationOutcomeError(badRequest(text, 'query'));
}

/** Skips a string literal starting at `start` (a quote); returns the index after it. */
function skipString(text: string, start: number): number {
  if (text.startsWith('"""', start)) {
    // A block string ends at the first """ that is not escaped as \""".
    for (let end = text.indexOf('"""', start + 3); end >= 0; end = text.indexOf('"""', end + 1)) {
      if (text[end - 1] !== '\\') return end + 3;
    }
    return text.length;
  }
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') {
      i++;
    } else if (char === '"' || char === '\n') {
      return i + 1;
    }
  }
  return text.length;
}

/** The deepest nesting of {, [ and ( in a query text, strings and comments left out. */
export function bracketNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      i = skipString(text, i) - 1;
    } else if (char === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (char === '{' || char === '[' || char === '(') {
      deepest = Math.max(deepest, ++depth);
    } else if (char === '}' || char === ']' || char === ')') {
      depth = Math.max(depth - 1, 0);
    }
  }
  return deepest;
}

/** Refuses a query text nested deeper than MAX_NESTING before the recursive parser sees it. */
export function checkQueryText(text: string): void {
  const nesting = bracketNesting(text);
  if (nesting > MAX_NESTING) {
    refuse(`Query too deep: brackets nest ${nesting} levels, the limit is ${MAX_NESTING}`);
  }
}

/** Refuses a parsed document with more than MAX_FIELDS fields or MAX_ALIASES aliases. */
export function checkDocumentSize(document: DocumentNode): void {
  let fields = 0;
  let aliases = 0;
  // An explicit stack: the text's nesting is already bounded, but this walk never recurses anyway.
  const pending: SelectionSetNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) {
      pending.push(definition.selectionSet);
    }
  }
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields++;
        if (selection.alias) aliases++;
      }
      if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet) {
        pending.push(selection.selectionSet);
      }
    }
  }
  if (fields > MAX_FIELDS) {
    refuse(`Query too large: it selects ${fields} fields, the limit is ${MAX_FIELDS}`);
  }
  if (aliases > MAX_ALIASES) {
    refuse(`Query too large: it has ${aliases} aliased fields, the limit is ${MAX_ALIASES}`);
  }
}

/**
 * The document of a query text within every bound here; throws a 400 OperationOutcomeError for a
 * bound, and graphql-js's GraphQLError for a syntax error.
 */
export function parseBounded(query: string): DocumentNode {
  checkQueryText(query);
  const document = parse(query, { maxTokens: MAX_TOKENS });
  checkDocumentSize(document);
  return document;
}
