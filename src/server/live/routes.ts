// Live updates over HTTP and WebSocket (SPEC §7 Subscription calls and live updates):
// GET Subscription/{id}/$get-ws-binding-token, and the socket at /ws/subscriptions-r4. The engine
// starts with the server and stops with it; heartbeats go out on one timer for every socket.
// graphql-ws subscriptions (graphql-subscriptions.ts) are served at /ws/graphql on the same engine.
import type { Parameters, Subscription } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ServerServices } from '../services';
import type { BinaryUrlSigner } from '../binary/attachment-urls';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { FHIR_JSON } from '../fhir/media-types';
import { Repository } from '../repo';
import type { RepositoryContext, RepositorySettings } from '../repo';
import { issueBindingToken } from './binding-token';
import { parseCriteria } from './criteria';
import { serveGraphQLSubscriptions } from './graphql-subscriptions';
import { LiveEngine } from './live-engine';
import { SubscriptionSocket } from './subscription-socket';
import type { WebSocketPaths } from '../websocket-paths';

export const SUBSCRIPTIONS_WS_PATH = '/ws/subscriptions-r4';
export const GRAPHQL_WS_PATH = '/ws/graphql';
/** Client messages are small JSON objects; anything larger is not ours. */
const MAX_MESSAGE_BYTES = 64 * 1024;

export interface LiveRoutesOptions {
  deps: ServerServices;
  fhirBase: string;
  getContext: (request: FastifyRequest) => RepositoryContext;
  /** The server's WebSocket paths: this socket and graphql-ws add theirs. */
  websockets: WebSocketPaths;
  /** Signs attachment URLs of readable Binaries in notifications and graphql-ws events. */
  binaryUrls?: BinaryUrlSigner;
  /** Given to the Repository of each graphql-ws operation, as $graphql's. */
  repositorySettings?: RepositorySettings;
  /** Other users of the engine (Subscription → Bot), started with it; each returns its stop. */
  engineUsers?: ((engine: LiveEngine) => Promise<() => Promise<void>>)[];
}

function websocketUrl(baseUrl: string): string {
  return baseUrl.replace(/^http/, 'ws').replace(/\/$/, '') + SUBSCRIPTIONS_WS_PATH;
}

export const liveRoutes: FastifyPluginAsync<LiveRoutesOptions> = async (app, options) => {
  const { deps, fhirBase, getContext, websockets, binaryUrls } = options;
  const config = deps.config;
  const engine = new LiveEngine(deps.db, config.liveEventLogSize, app.log);
  await engine.start();
  const stopEngineUsers: (() => Promise<void>)[] = [];
  for (const use of options.engineUsers ?? []) stopEngineUsers.push(await use(engine));

  const sockets = new Set<SubscriptionSocket>();
  const live = websockets.serve(SUBSCRIPTIONS_WS_PATH, { maxPayload: MAX_MESSAGE_BYTES });
  const wss = live.server;
  wss.on('connection', (ws) => {
    const session = new SubscriptionSocket(ws, { deps, engine, fhirBase, binaryUrls });
    sockets.add(session);
    ws.on('close', () => sockets.delete(session));
  });
  // graphql-ws: same engine, its own protocol (graphql-transport-ws) and message size.
  const graphql = websockets.serve(GRAPHQL_WS_PATH, { maxPayload: MAX_MESSAGE_BYTES });
  const graphqlWss = graphql.server;
  const stopGraphQL = serveGraphQLSubscriptions(
    graphqlWss,
    deps,
    engine,
    binaryUrls,
    options.repositorySettings,
  );
  const stopServing = [live.stop, graphql.stop];

  const heartbeat = setInterval(() => {
    for (const session of sockets) session.heartbeat();
  }, config.liveHeartbeatInterval);
  heartbeat.unref();

  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const stop of stopServing) stop();
    for (const client of [...wss.clients, ...graphqlWss.clients]) client.terminate();
    wss.close();
    await stopGraphQL();
    for (const stop of stopEngineUsers) await stop();
    await engine.stop();
  });

  // Medplum's operation: a token the socket accepts for this Subscription, as the caller.
  app.get<{ Params: { id: string } }>(
    '/fhir/R4/Subscription/:id/$get-ws-binding-token',
    async (request, reply) => {
      const context = getContext(request);
      const subscription = await new Repository(deps.db, context).readResource<Subscription>(
        'Subscription',
        request.params.id,
      );
      if (subscription.channel?.type !== 'websocket') {
        throw new OperationOutcomeError(
          badRequest('Subscription channel type must be websocket', 'channel.type'),
        );
      }
      parseCriteria(subscription.criteria);
      const { token, expiration } = await issueBindingToken(
        deps,
        request.params.id,
        context,
        config.liveBindingTokenLifetime,
      );
      const parameters: Parameters = {
        resourceType: 'Parameters',
        parameter: [
          { name: 'token', valueString: token },
          { name: 'expiration', valueDateTime: expiration.toISOString() },
          { name: 'subscription', valueString: `Subscription/${request.params.id}` },
          { name: 'websocket-url', valueUrl: websocketUrl(config.baseUrl) },
        ],
      };
      return reply.type(FHIR_JSON).send(parameters);
    },
  );
};
