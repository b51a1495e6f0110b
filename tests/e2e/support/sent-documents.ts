// The GraphQL documents a page sends, as the server receives them: POST and GET $graphql requests and
// graphql-ws `subscribe` messages. The demo suite checks after each test that every one is a
// generated operation (tests/graphql/support/typed-documents.ts).
import type { Page } from 'playwright-core';
import { graphqlRequestQuery, subscribeMessageQuery } from '../../graphql/support/typed-documents';

/** Starts recording the page's GraphQL documents; the returned array fills as they are sent. */
export function recordGraphqlDocuments(page: Page): string[] {
  const documents: string[] = [];
  page.on('request', (request) => {
    const query = graphqlRequestQuery(request.url(), request.method(), request.postData());
    if (query !== undefined) documents.push(query);
  });
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const query = typeof payload === 'string' ? subscribeMessageQuery(payload) : undefined;
      if (query !== undefined) documents.push(query);
    });
  });
  return documents;
}
