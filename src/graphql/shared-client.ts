// One Apollo Client per platform client for the page's lifetime: every place that provides GraphQL
// (home, the signed-in screens) shares its cache, which is emptied when the signed-in profile changes
// and follows the client's REST writes, and its LiveConnection, which screens with live data watch to
// refetch after a reconnection.
import type { ApolloClient } from '@apollo/client';
import { createGraphqlClient } from './apollo-client';
import { LiveConnection } from './live-connection';
import { followResourceWrites } from './resource-writes';
import type { GraphqlSession } from './session';
import { clearCacheOnProfileChange, type ProfileChangeSource } from './session-reset';

export type SharedGraphqlSource = GraphqlSession & ProfileChangeSource & { fhirUrl(): string };

export interface SharedGraphql {
  readonly apollo: ApolloClient;
  readonly live: LiveConnection;
}

const shared = new WeakMap<SharedGraphqlSource, SharedGraphql>();

export function sharedGraphql(source: SharedGraphqlSource): SharedGraphql {
  let found = shared.get(source);
  if (!found) {
    const live = new LiveConnection();
    const apollo = createGraphqlClient({ fhirBaseUrl: source.fhirUrl(), session: source, live });
    // Never unsubscribed: the platform client and this cache live as long as the page.
    clearCacheOnProfileChange(source, apollo);
    followResourceWrites(source, apollo);
    found = { apollo, live };
    shared.set(source, found);
  }
  return found;
}

export function sharedGraphqlClient(source: SharedGraphqlSource): ApolloClient {
  return sharedGraphql(source).apollo;
}
