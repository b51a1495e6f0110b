// The app's Apollo Client (SPEC Design card): outcome errors ← session ← retries ← HTTP to
// POST {fhir base}$graphql, with the resourceType/id cache; subscription operations split off to
// graphql-ws at /ws/graphql, loaded on first use.
import { ApolloClient } from '@apollo/client';
import { ApolloLink } from '@apollo/client/link';
import { HttpLink } from '@apollo/client/link/http';
import { AuthLink } from './auth-link';
import { createResourceCache } from './cache';
import { isSubscriptionOperation, LazyWsLink } from './lazy-ws-link';
import { LiveConnection } from './live-connection';
import { OutcomeLink } from './outcome-link';
import { createRetryLink } from './retry-link';
import type { GraphqlSession } from './session';

export interface GraphqlClientOptions {
  /** The FHIR base URL ending in '/', e.g. https://api.example/fhir/R4/. */
  fhirBaseUrl: string;
  session: GraphqlSession;
  /** The transport (default: the global fetch); tests pass a fake. */
  fetch?: typeof fetch;
  /** Told of every (re)connection of the subscription socket (default: a private one). */
  live?: LiveConnection;
  /** The WebSocket class for subscriptions (default: the global one); Node tests pass `ws`. */
  webSocketImpl?: unknown;
}

export function graphqlUrl(fhirBaseUrl: string): string {
  return `${fhirBaseUrl.endsWith('/') ? fhirBaseUrl : `${fhirBaseUrl}/`}$graphql`;
}

/** The link chain alone, outermost first. */
export function createGraphqlLink(options: GraphqlClientOptions): ApolloLink {
  const socket = new LazyWsLink({
    fhirBaseUrl: options.fhirBaseUrl,
    session: options.session,
    live: options.live ?? new LiveConnection(),
    webSocketImpl: options.webSocketImpl,
  });
  return ApolloLink.split(isSubscriptionOperation, socket, createHttpLink(options));
}

/** Queries and mutations: outcome errors ← session ← retries ← HTTP. */
function createHttpLink(options: GraphqlClientOptions): ApolloLink {
  return ApolloLink.from([
    new OutcomeLink(),
    new AuthLink(options.session),
    createRetryLink(),
    new HttpLink({
      uri: graphqlUrl(options.fhirBaseUrl),
      // Resolved per request so a fetch replaced after start-up (tests, polyfills) is used.
      fetch: (input, init) => (options.fetch ?? globalThis.fetch)(input, init),
      headers: { accept: 'application/json' },
    }),
  ]);
}

export function createGraphqlClient(options: GraphqlClientOptions): ApolloClient {
  return new ApolloClient({ link: createGraphqlLink(options), cache: createResourceCache() });
}
