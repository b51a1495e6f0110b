// The app's GraphQL layer: Apollo Client, its link chain and cache, the typed documents.
export { createGraphqlClient, createGraphqlLink, graphqlUrl } from './apollo-client';
export type { GraphqlClientOptions } from './apollo-client';
export { graphqlWsUrl, isSubscriptionOperation, LazyWsLink } from './lazy-ws-link';
export { LiveConnection, LiveConnectionContext, useLiveConnection } from './live-connection';
export type { LiveConnectionListener } from './live-connection';
export { createResourceCache, resourceCacheId } from './cache';
export { OutcomeLink, outcomeErrorOf } from './outcome-link';
export { evictChangedResource, followResourceWrites } from './resource-writes';
export type { ResourceChangeSource } from './resource-writes';
export type { GraphqlSession } from './session';
export * from './generated/operations';
export { GraphqlProvider } from './GraphqlProvider';
export type { GraphqlProviderProps } from './GraphqlProvider';
export { clearCacheOnProfileChange } from './session-reset';
export type { ProfileChangeSource } from './session-reset';
