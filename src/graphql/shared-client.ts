// One Apollo Client per platform client for the page's lifetime: every place that provides GraphQL
// (home, the signed-in screens) shares its cache, which is emptied when the signed-in profile changes.
import type { ApolloClient } from '@apollo/client';
import { createGraphqlClient } from './apollo-client';
import type { GraphqlSession } from './session';
import { clearCacheOnProfileChange, type ProfileChangeSource } from './session-reset';

export type SharedGraphqlSource = GraphqlSession & ProfileChangeSource & { fhirUrl(): string };

const clients = new WeakMap<SharedGraphqlSource, ApolloClient>();

export function sharedGraphqlClient(source: SharedGraphqlSource): ApolloClient {
  let apollo = clients.get(source);
  if (!apollo) {
    apollo = createGraphqlClient({ fhirBaseUrl: source.fhirUrl(), session: source });
    // Never unsubscribed: the platform client and this cache live as long as the page.
    clearCacheOnProfileChange(source, apollo);
    clients.set(source, apollo);
  }
  return apollo;
}
