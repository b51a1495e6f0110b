// The FHIRcast STU3 hub over HTTP and WebSocket (SPEC §7 Remote context sync):
//   POST /fhircast/STU3             form: hub.channel.type, hub.mode, hub.topic, hub.events
//                                   (+ hub.channel.endpoint to unsubscribe) → {hub.channel.endpoint};
//                                   JSON: {timestamp, id, event} published to event's hub.topic, as
//                                   MedplumClient 5.x fhircastPublish sends it
//   POST /fhircast/STU3/{topic}     {timestamp, id, event} → the message as delivered
//   GET  /fhircast/STU3/{topic}     the current context
//   GET  /fhircast/STU3/{topic}/sharing  whom the topic is shared with (its owner only)
//   PUT  /fhircast/STU3/{topic}/sharing  {sharedWith: [{reference}]} replaces it (its owner only)
//   WS   /ws/fhircast/{endpointId}  the subscription's events, heartbeats; receivers acknowledge.
// Every call needs a signed-in user; topics belong to the caller's project, and within it to their
// owner and whom he shares them with (topic-access.ts): anybody else is refused with a 403 outcome.
// Requests are checked with the platform client's own rules (src/fhir/fhircast) and refused with a
// 400 outcome before anything changes.
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
import type { ServerServices } from '../services';
import { requireAuth } from '../auth/authenticate';
import type { RepositoryContext } from '../repo';
import { upgradePath } from '../upgrade-paths';
import type { WebSocketPaths } from '../websocket-paths';
import { acceptFormBodies } from '../request-bodies';
import { EMPTY_CONTEXT } from './current-context';
import { FhircastHub } from './hub';
import {
  forbiddenError,
  ownerOf,
  parseSharing,
  policyRefusal,
  reservedOwner,
  topicRefusal,
} from './topic-access';
import type { TopicCaller, TopicOwnership, TopicUse } from './topic-access';

export const FHIRCAST_WS_PATH = '/ws/fhircast/';
const FORM = 'application/x-www-form-urlencoded';
const MAX_FORM_BYTES = 16 * 1024;
const MAX_MESSAGE_BYTES = 64 * 1024;

export interface FhircastRoutesOptions {
  deps: ServerServices;
  /** The server's WebSocket paths: the subscription sockets are served below FHIRCAST_WS_PATH. */
  websockets: WebSocketPaths;
  /** Tests only (as buildServer's): the caller without a token. */
  getContext?: (request: FastifyRequest) => RepositoryContext;
}

type Caller = TopicCaller;

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
    const access = context.access;
    return {
      project: context.project ?? '',
      profile: access?.profile.reference ?? context.author.reference ?? '',
      membership: access?.membership.reference,
      access,
    };
  };

  /**
   * The topic's ownership once the caller may `use` it (403 otherwise); with `claim`, a topic
   * nobody owns yet becomes the caller's (a reserved name its named profile's).
   */
  const authorize = async (
    who: Caller,
    topic: string,
    use: TopicUse,
    claim: boolean,
  ): Promise<TopicOwnership | undefined> => {
    const refusedByPolicy = policyRefusal(who.access, use);
    if (refusedByPolicy) throw forbiddenError(refusedByPolicy);
    let ownership = await hub.store.findTopic(who.project, topic);
    if (!ownership && claim) {
      const owner = reservedOwner(topic) ?? who.profile;
      const membership = owner === who.profile ? who.membership : undefined;
      // Checked before the claim, so nobody records a reserved topic that is not his.
      const refused = topicRefusal(topic, undefined, who);
      if (refused) throw forbiddenError(refused);
      ownership = await hub.store.claimTopic(who.project, topic, owner, membership);
    }
    // Checked again after a claim: another caller may have claimed it first.
    const refused = topicRefusal(topic, ownership, who);
    if (refused) throw forbiddenError(refused);
    return ownership;
  };

  // Subscription requests are forms; events are the JSON every route takes.
  acceptFormBodies(app, MAX_FORM_BYTES);

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

  /** A context change: published to its own topic, or to the URL's, which it must then name. */
  const publish = async (who: Caller, body: unknown, urlTopic?: string): Promise<FhircastMessage> => {
    const message = body as Partial<FhircastMessage> | undefined;
    if (
      typeof message !== 'object' ||
      message === null ||
      typeof message.event !== 'object' ||
      message.event === null
    ) {
      throw invalid('The body must be a FHIRcast message {timestamp, id, event}');
    }
    if (typeof message.id !== 'string' || message.id === '') throw invalid('The message needs a string id');
    if (typeof message.timestamp !== 'string' || Number.isNaN(Date.parse(message.timestamp))) {
      throw invalid('The message needs an ISO timestamp');
    }
    const event = message.event;
    const topic = urlTopic ?? event['hub.topic'];
    if (urlTopic !== undefined && event['hub.topic'] !== urlTopic) {
      throw invalid(`event.hub.topic must be the topic of the URL (${urlTopic})`);
    }
    const checked = validatePublish(topic, event['hub.event'], event.context, event['context.versionId']);
    await authorize(who, topic, 'publish', true);
    return hub.store.publish(
      who.project,
      { id: message.id, timestamp: message.timestamp, event: checked },
      who.profile,
    );
  };

  // The hub URL takes both: a subscription request as a form, a context change as JSON.
  app.post('/fhircast/STU3', async (request, reply) => {
    const who = await caller(request);
    if (!(request.body instanceof URLSearchParams)) {
      if (request.body === undefined) {
        throw invalid(`Send a subscription request as ${FORM} or a FHIRcast message as JSON`);
      }
      // A subscription request sent as JSON: say how to send it rather than "not a message".
      if (typeof request.body === 'object' && request.body !== null && 'hub.mode' in request.body) {
        throw invalid(`Send the subscription request as ${FORM}`);
      }
      return reply.status(202).send(await publish(who, request.body));
    }
    const subscription = subscriptionRequestFromForm(Object.fromEntries(request.body));
    validateSubscriptionRequest(subscription, 'hub');
    await authorize(who, subscription.topic, 'read', subscription.mode === 'subscribe');
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
      subscriber: who.profile,
    });
    return reply.status(202).send({ 'hub.channel.endpoint': endpointUrl(config.baseUrl, endpointId) });
  });

  app.post<{ Params: { topic: string } }>('/fhircast/STU3/:topic', async (request, reply) => {
    const who = await caller(request);
    if (request.body instanceof URLSearchParams) {
      throw invalid('The body must be a FHIRcast message {timestamp, id, event} as JSON');
    }
    return reply.status(202).send(await publish(who, request.body, request.params.topic));
  });

  app.get<{ Params: { topic: string } }>('/fhircast/STU3/:topic', async (request, reply) => {
    const who = await caller(request);
    const topic = request.params.topic;
    validateTopic(topic);
    const ownership = await authorize(who, topic, 'read', false);
    // A topic nobody owns has never been published to: no context to read.
    const context = ownership ? await hub.store.getContext(who.project, topic) : EMPTY_CONTEXT;
    return reply.header('Cache-Control', 'no-store').send(context);
  });

  /** The sharing answer: the owner and whom he shares the topic with, as references. */
  const sharing = (topic: string, owner: string, sharedWith: string[]) => ({
    'hub.topic': topic,
    owner: { reference: owner },
    sharedWith: sharedWith.map((reference) => ({ reference })),
  });

  /** Only the owner manages sharing; a sharer is refused like anybody else. */
  const requireOwner = (who: Caller, topic: string, ownership: TopicOwnership | undefined): string => {
    const owner = ownerOf(topic, ownership) ?? who.profile;
    if (who.access && owner !== who.profile) {
      throw forbiddenError(`Only the owner of the FHIRcast topic ${topic} manages whom it is shared with`);
    }
    return owner;
  };

  app.get<{ Params: { topic: string } }>('/fhircast/STU3/:topic/sharing', async (request, reply) => {
    const who = await caller(request);
    const topic = request.params.topic;
    validateTopic(topic);
    const ownership = await authorize(who, topic, 'read', false);
    const owner = requireOwner(who, topic, ownership);
    return reply
      .header('Cache-Control', 'no-store')
      .send(sharing(topic, owner, ownership?.shared_with ?? []));
  });

  app.put<{ Params: { topic: string } }>('/fhircast/STU3/:topic/sharing', async (request, reply) => {
    const who = await caller(request);
    const topic = request.params.topic;
    validateTopic(topic);
    if (request.body instanceof URLSearchParams) {
      throw invalid('The body must be JSON {"sharedWith": [{"reference": "Practitioner/{id}"}, ...]}');
    }
    const before = await authorize(who, topic, 'publish', false);
    const owner = requireOwner(who, topic, before);
    const sharedWith = parseSharing(request.body, owner);
    await authorize(who, topic, 'publish', true);
    const after = await hub.store.shareTopic(who.project, topic, sharedWith);
    return reply.header('Cache-Control', 'no-store').send(sharing(topic, after.owner, after.shared_with));
  });
};
