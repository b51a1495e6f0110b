// The GraphQL documents a page sends, as the server receives them: POST and GET $graphql requests and
// graphql-ws `subscribe` messages. The demo suite checks after each test that every one is a
// generated operation (tests/graphql/support/typed-documents.ts). Only documents sent from Bloom's app
// (a page on its origin) are recorded: the Medplum components of the conformance suites run on a page
// served elsewhere, and their queries are Medplum's, not ours.
import type { Page } from 'playwright-core';
import { graphqlRequestQuery, subscribeMessageQuery } from '../../graphql/support/typed-documents';

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** Starts recording the GraphQL documents `page` sends while on `appUrl`'s origin; the array fills as they are sent. */
export function recordGraphqlDocuments(page: Page, appUrl: () => string): string[] {
  const documents: string[] = [];
  const onApp = (): boolean => originOf(page.url()) === originOf(appUrl());
  page.on('request', (request) => {
    if (!onApp()) return;
    const query = graphqlRequestQuery(request.url(), request.method(), request.postData());
    if (query !== undefined) documents.push(query);
  });
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      if (!onApp()) return;
      const query = typeof payload === 'string' ? subscribeMessageQuery(payload) : undefined;
      if (query !== undefined) documents.push(query);
    });
  });
  return documents;
}
