// The FHIRcast STU3 hub over HTTP and WebSocket (issue #11; SPEC §7 Remote context sync):
//   POST /fhircast/STU3             form: hub.channel.type, hub.mode, hub.topic, hub.events
//                                   (+ hub.channel.endpoint to unsubscribe) → {hub.channel.endpoint}
//   POST /fhircast/STU3/{topic}     {timestamp, id, event} → the message as delivered
//   GET  /fhircast/STU3/{topic}     the current context
//   WS   /ws/fhircast/{endpointId}  the subscription's events, heartbeats; receivers acknowledge.
// Every call needs a signed-in user; topics belong to the caller's project. Requests are checked
// with the platform client's own rules (src/fhir/fhircast) and refused with a 400 outcome before
// anything changes.
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  subscriptionRequestFromForm,
  validatePublish,
  validateSubscriptionRequest,
  validateTopic,
} from '../../fhir/fhircast';
import type { FhircastMessage } from '../../fhir/fhircast';
import { badRequest, notFound, OperationOutcomeError } from '../../fhir/outcomes';
import type { AuthDeps } from '../auth/auth-deps';
import { requireAuth } from '../auth/authenticate';
import type { RepositoryContext } from '../repo';
import { upgradePath } from '../upgrade-paths';
import type { WebSocketPaths } from '../websocket-paths';
import { FhircastHub } from './hub';

export const FHIRCAST_WS_PATH = '/ws/fhircast/';
const FORM = 'application/x-www-form-urlencoded';
const MAX_FORM_BYTES = 16 * 1024;
const MAX_MESSAGE_BYTES = 64 * 1024;

export interface FhircastRoutesOptions {
  deps: AuthDeps;
  /** The server's WebSocket paths: the subscription sockets are served below FHIRCAST_WS_PATH. */
  websockets: WebSocketPaths;
  /** Tests only (as buildServer's): the caller without a token. */
  getContext?: (request: FastifyRequest) => RepositoryContext;
}

interface Caller {
  project: string;
  subscriber: string;
}

function endpointUrl(baseUrl: string, endpointId: string): string {
  return baseUrl.replace(/^http/, 'ws').replace(/\/$/, '') + FHIRCAST_WS_PATH + endpointId;
}

function endpointIdOf(endpoint: string): string {
  return endpoint.split('?')[0].replace(/\/+$/, '').split('/').pop() ?? '';
}

function invalid(message: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(message));
}

export const fhircastRoutes: FastifyPluginAsync<FhircastRoutesOptions> = async (
  app,
  { deps, websockets, getContext },
) => {
  const config = deps.config;
  const hub = new FhircastHub(deps.db, app.log, {
    heartbeatInterval: config.liveHeartbeatInterval,
    // Heartbeats and acknowledgements share one clock: a receiver has one heartbeat period to answer.
    ackTimeout: config.liveHeartbeatInterval,
  });
  await hub.start();

  const caller = async (request: FastifyRequest): Promise<Caller> => {
    const context = getContext ? getContext(request) : (await requireAuth(deps, request)).context;
    return { project: context.project ?? '', subscriber: context.author.reference ?? '' };
  };

  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: MAX_FORM_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // /ws/fhircast/{endpointId}: the endpoint id names the subscription the socket serves.
  const served = websockets.servePrefix(FHIRCAST_WS_PATH, { maxPayload: MAX_MESSAGE_BYTES });
  const wss = served.server;
  wss.on('connection', (ws: WebSocket, request: IncomingMessage) => {
    const endpointId = upgradePath(request).slice(FHIRCAST_WS_PATH.length);
    hub.attach(ws, endpointId).catch((err: unknown) => {
      app.log.error({ err }, 'FHIRcast socket failed');
      ws.close(1011, 'Internal error');
    });
  });
  const stopServing = served.stop;

  app.addHook('preClose', async () => {
    stopServing();
    for (const client of wss.clients) client.terminate();
    wss.close();
    await hub.stop();
  });

  app.post('/fhircast/STU3', async (request, reply) => {
    const who = await caller(request);
    if (
      !request.headers['content-type']?.startsWith(FORM) ||
      typeof request.body !== 'object' ||
      !request.body
    ) {
      throw invalid(`Send the subscription request as ${FORM}`);
    }
    const subscription = subscriptionRequestFromForm(request.body as Record<string, unknown>);
    validateSubscriptionRequest(subscription);
    if (subscription.mode === 'unsubscribe') {
      const ended = await hub.store.unsubscribe(
        who.project,
        subscription.topic,
        endpointIdOf(subscription.endpoint ?? ''),
      );
      if (!ended) throw new OperationOutcomeError(notFound);
      return reply.status(202).send({ 'hub.channel.endpoint': subscription.endpoint });
    }
    const endpointId = await hub.store.subscribe({
      project: who.project,
      topic: subscription.topic,
      events: subscription.events,
      subscriber: who.subscriber,
    });
    return reply.status(202).send({ 'hub.channel.endpoint': endpointUrl(config.baseUrl, endpointId) });
  });

  app.post<{ Params: { topic: string } }>('/fhircast/STU3/:topic', async (request, reply) => {
    const who = await caller(request);
    const body = request.body as Partial<FhircastMessage> | undefined;
    if (typeof body !== 'object' || body === null || typeof body.event !== 'object' || body.event === null) {
      throw invalid('The body must be a FHIRcast message {timestamp, id, event}');
    }
    if (typeof body.id !== 'string' || body.id === '') throw invalid('The message needs a string id');
    if (typeof body.timestamp !== 'string' || Number.isNaN(Date.parse(body.timestamp))) {
      throw invalid('The message needs an ISO timestamp');
    }
    const { topic } = request.params;
    const event = body.event;
    if (event['hub.topic'] !== topic)
      throw invalid(`event.hub.topic must be the topic of the URL (${topic})`);
    const checked = validatePublish(topic, event['hub.event'], event.context, event['context.versionId']);
    const accepted = await hub.store.publish(
      who.project,
      { id: body.id, timestamp: body.timestamp, event: checked },
      who.subscriber,
    );
    return reply.status(202).send(accepted);
  });

  app.get<{ Params: { topic: string } }>('/fhircast/STU3/:topic', async (request, reply) => {
    const who = await caller(request);
    validateTopic(request.params.topic);
    return reply
      .header('Cache-Control', 'no-store')
      .send(await hub.store.getContext(who.project, request.params.topic));
  });
};
