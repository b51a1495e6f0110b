// Records every GraphQL document the app sends in the screen tests: through the real link chain to
// the fake API (POST $graphql) or through Apollo's MockLink (renderScreen). After each test,
// tests/setup/dom-typed-documents.ts checks each one is a generated operation.
import { ApolloLink } from '@apollo/client';
import { print } from 'graphql';
import type { DocumentNode } from 'graphql';

const sent: string[] = [];

export function recordSentDocument(document: string | DocumentNode): void {
  sent.push(typeof document === 'string' ? document : print(document));
}

/** The documents sent since the last call, forgotten here. */
export function takeSentDocuments(): string[] {
  return sent.splice(0, sent.length);
}

/** A link that records each operation's document and passes it on unchanged. */
export function recordingLink(): ApolloLink {
  return new ApolloLink((operation, forward) => {
    recordSentDocument(operation.query);
    return forward(operation);
  });
}
