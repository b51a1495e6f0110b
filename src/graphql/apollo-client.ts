// The app's Apollo Client (SPEC Design card): outcome errors ← HTTP to POST {fhir base}$graphql through
// the platform client's fetch, so GraphQL is authorised, renewed, retried and aborted exactly as REST
// is (one transport policy, src/client/request.ts); the resourceType/id cache; subscription
// operations split off to graphql-ws at /ws/graphql, loaded on first use.
import { ApolloClient } from '@apollo/client';
import { ApolloLink } from '@apollo/client/link';
import { HttpLink } from '@apollo/client/link/http';
import { OperationTypeNode } from 'graphql';
import { createResourceCache } from './cache';
import { isSubscriptionOperation, LazyWsLink } from './lazy-ws-link';
import { LiveConnection } from './live-connection';
import { OutcomeLink } from './outcome-link';
import type { GraphqlSession } from './session';

export interface GraphqlClientOptions {
  /** The FHIR base URL ending in '/', e.g. https://api.example/fhir/R4/. */
  fhirBaseUrl: string;
  /** The platform client: its fetch carries every query and mutation. */
  session: GraphqlSession;
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

function isMutation(operation: ApolloLink.Operation): boolean {
  return operation.operationType === OperationTypeNode.MUTATION;
}

/**
 * Queries and mutations over HTTP. A query is a read sent as POST: the pipeline may send it again
 * after a 5xx or a network error. A mutation is not (a lost answer may hide a write that happened,
 * and $graphql takes no Idempotency-Key); a 429 is retried either way, as for REST.
 */
function createHttpLink(options: GraphqlClientOptions): ApolloLink {
  const { session } = options;
  const http = (idempotent: boolean) =>
    new HttpLink({
      uri: graphqlUrl(options.fhirBaseUrl),
      fetch: (input, init) => session.fetch(input, { ...init, idempotent }),
      headers: { accept: 'application/json' },
    });
  return ApolloLink.from([new OutcomeLink(), ApolloLink.split(isMutation, http(false), http(true))]);
}

export function createGraphqlClient(options: GraphqlClientOptions): ApolloClient {
  return new ApolloClient({ link: createGraphqlLink(options), cache: createResourceCache() });
}
