// The graphql-ws transport for subscription operations (SPEC Design card "graphql-ws"),
// loaded on demand by LazyWsLink so pages without live data never download graphql-ws. The socket
// is authenticated by the platform client's access token in the connection parameters (renewed
// before each connection), opens with the first subscription and closes after the last, and
// reconnects with capped exponential backoff for as long as something is subscribed.
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { createClient } from 'graphql-ws';
import type { LiveConnection } from './live-connection';
import type { GraphqlSession } from './session';

export const WS_RETRY_MAX_DELAY_MS = 30_000;

export interface WsLinkOptions {
  /** ws:// or wss:// URL of the server's /ws/graphql. */
  url: string;
  session: GraphqlSession;
  live: LiveConnection;
  /** The WebSocket class (default: the global one); tests in Node pass `ws`. */
  webSocketImpl?: unknown;
}

export function retryDelayMs(retries: number): number {
  return Math.min(1000 * 2 ** retries, WS_RETRY_MAX_DELAY_MS) + Math.floor(Math.random() * 300);
}

export function createWsLink(options: WsLinkOptions): GraphQLWsLink {
  const client = createClient({
    url: options.url,
    webSocketImpl: options.webSocketImpl,
    lazy: true,
    retryAttempts: Number.POSITIVE_INFINITY,
    // Any close is worth another try while a screen still listens (server restart, network change).
    shouldRetry: () => true,
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, retryDelayMs(retries))),
    connectionParams: async () => {
      await options.session.refreshIfExpired();
      const token = options.session.getAccessToken();
      return token ? { token } : {};
    },
    on: { connected: () => options.live.connected() },
  });
  return new GraphQLWsLink(client);
}
