// What the GraphQL layer needs from the platform client (BloomClient has these): its fetch, which
// sends through the client's request pipeline (auth header, refresh, retries, abort, offline), and
// for the subscription socket, which is no HTTP request, the access token renewed before it connects.
import type { PipelineFetch } from '../client/pipeline-fetch';

export interface GraphqlSession {
  /** The client's fetch (BloomClient.fetch): every query and mutation goes through it. */
  readonly fetch: PipelineFetch;
  getAccessToken(): string | undefined;
  /** Renews the token when it is about to expire, or waits for a renewal in flight. */
  refreshIfExpired(): Promise<void>;
}
