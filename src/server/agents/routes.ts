// Agents over WebSocket and HTTP (SPEC §7 Agent $push):
//   WS   /ws/agent                    the agent program's connection (agent-socket.ts)
//   POST /fhir/R4/Agent/{id}/$push    {destination, body, contentType, waitForResponse, waitTimeout?}
//   POST /fhir/R4/Agent/$push?identifier=system|value
// The caller must be able to read the Agent (and a Device destination): access policies decide who
// may push. Answers: 200 with the destination's reply (its content type) when waiting, 200 All OK
// when not; 400 for bad parameters, an Agent that is off or a destination the agent does not have;
// 503 when the agent is connected to no instance; 502 when the agent could not deliver (or
// disconnected); 504 when no reply came within waitTimeout. An agent connected to another instance
// on the same database is reached through it (relay.ts).
import type { Agent, OperationOutcome } from '@medplum/fhirtypes';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AGENT_WS_PATH } from '../../fhir/agent-protocol';
import type { AgentTransmitRequest } from '../../fhir/agent-protocol';
import { allOk, badRequest, notFound, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import type { BotExecutionDeps } from '../bots/execute';
import { FHIR_JSON } from '../media-types';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import { AgentHub, AgentPushError } from './agent-hub';
import type { AgentReply } from './agent-hub';
import { AgentRelay } from './relay';
import type { RelayMessage } from './relay';
import { AgentSocket } from './agent-socket';
import { parsePushRequest, resolveRemote } from './push-request';
import type { WebSocketPaths } from '../websocket-paths';

const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface AgentRoutesOptions {
  deps: ServerServices;
  /** Inbound channel messages run bots (Agent.channel.targetReference). */
  bots: BotExecutionDeps;
  getContext: (request: FastifyRequest) => RepositoryContext;
  /** The server's WebSocket paths: the agent socket adds its path to them. */
  websockets: WebSocketPaths;
}

function outcome(
  code: OperationOutcome['issue'][number]['code'],
  text: string,
  expression?: string,
): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      { severity: 'error', code, details: { text }, ...(expression ? { expression: [expression] } : {}) },
    ],
  };
}

function sendOutcome(reply: FastifyReply, status: number, body: OperationOutcome): FastifyReply {
  return reply.status(status).type(FHIR_JSON).send(body);
}

/** The agent's failure as an HTTP answer: its own 4xx are the destination's fault (400), 5xx stay. */
function failedReply(reply: FastifyReply, answer: AgentReply, remote: string): FastifyReply {
  if (answer.kind === 'error') {
    return sendOutcome(
      reply,
      502,
      outcome('exception', `The agent could not deliver to '${remote}': ${answer.body}`),
    );
  }
  if (answer.statusCode === 404) {
    return sendOutcome(
      reply,
      400,
      outcome('not-found', answer.body || `Unknown destination '${remote}'`, 'destination'),
    );
  }
  if (answer.statusCode < 500) {
    return sendOutcome(reply, 400, outcome('processing', answer.body || 'The agent refused the message'));
  }
  const status = answer.statusCode === 504 ? 504 : 502;
  return sendOutcome(reply, status, outcome(status === 504 ? 'timeout' : 'transient', answer.body));
}

export const agentRoutes: FastifyPluginAsync<AgentRoutesOptions> = async (
  app,
  { deps, bots, getContext, websockets },
) => {
  const interval = deps.config.liveHeartbeatInterval;
  const relay = new AgentRelay(deps.db, app.log, 3 * interval);
  const logLost = (err: unknown) => app.log.error({ err }, 'Agent connection record failed');
  const hub = new AgentHub({
    onRegister: (c) => void relay.connected(c.agentId, c.destinations).catch(logLost),
    onUnregister: (c) => void relay.disconnected(c.agentId).catch(logLost),
  });
  const sockets = new Set<AgentSocket>();

  // Pushes other instances pass on for agents connected here, and the answers to ours.
  const onRelayed = (relayed: RelayMessage): void => {
    if (relayed.kind === 'reply') {
      hub.relayedAnswer(relayed.callback, relayed.reply);
      return;
    }
    if (relayed.kind === 'failure') {
      hub.relayedAnswer(relayed.callback, new AgentPushError(relayed.text, relayed.reason));
      return;
    }
    const { from, agentId, message, waitMs } = relayed;
    const callback = message.callback;
    if (!callback || waitMs === undefined) {
      try {
        hub.send(agentId, message);
      } catch (err) {
        app.log.warn({ err, agentId }, 'A relayed push found its agent gone');
      }
      return;
    }
    hub
      .request(agentId, message, waitMs, callback)
      .then((reply) => relay.send(from, { kind: 'reply', callback, reply }))
      .catch((err: unknown) =>
        relay.send(
          from,
          err instanceof AgentPushError
            ? { kind: 'failure', callback, reason: err.reason, text: err.message }
            : { kind: 'failure', callback, reason: 'disconnected', text: String(err) },
        ),
      )
      .catch(logLost);
  };
  // Without the relay this instance still serves its own agents.
  await relay.start(onRelayed).catch((err: unknown) => app.log.error({ err }, 'Agent relay not started'));

  const served = websockets.serve(AGENT_WS_PATH, { maxPayload: MAX_MESSAGE_BYTES });
  const wss = served.server;
  wss.on('connection', (ws: WebSocket) => {
    const session = new AgentSocket(ws, hub, deps, bots);
    sockets.add(session);
    ws.on('close', () => sockets.delete(session));
  });
  const stopServing = served.stop;

  const heartbeat = setInterval(() => {
    for (const session of sockets) session.heartbeat();
    // Re-asserted each beat: the record of a quick reconnect may have raced with its removal.
    for (const session of sockets) {
      if (session.agentId && hub.connectionOf(session.agentId) === session) {
        void relay.connected(session.agentId, session.destinations).catch(logLost);
      }
    }
    void relay.sweep().catch(logLost);
  }, interval);
  heartbeat.unref();

  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    stopServing();
    hub.closeAll();
    for (const client of wss.clients) client.terminate();
    wss.close();
    await relay.stop();
  });

  const push = async (
    request: FastifyRequest,
    reply: FastifyReply,
    findAgent: (repo: Repository) => Promise<Agent>,
  ) => {
    const repo = new Repository(deps.db, getContext(request));
    const agent = await findAgent(repo);
    const params = parsePushRequest(request.body);
    if (agent.status === 'off') {
      throw new OperationOutcomeError(badRequest(`Agent/${agent.id} is off (Agent.status)`));
    }
    const remote = await resolveRemote(repo, params.destination);
    const agentId = agent.id as string;
    const connection = hub.connectionOf(agentId);
    const elsewhere = connection || !relay.enabled ? undefined : await relay.find(agentId);
    if (!connection && !elsewhere) {
      return sendOutcome(reply, 503, outcome('transient', `Agent/${agentId} is not connected`));
    }
    const known = connection ? connection.destinations : elsewhere?.destinations;
    if (known && !known.some((d) => d.name === remote || d.url === remote)) {
      return sendOutcome(
        reply,
        400,
        outcome('not-found', `Agent/${agentId} has no destination '${remote}'`, 'destination'),
      );
    }
    const message: AgentTransmitRequest = {
      type: 'agent:transmit:request',
      remote,
      contentType: params.contentType,
      body: params.body,
      ...(params.returnAck ? { returnAck: params.returnAck } : {}),
    };
    try {
      let answer: AgentReply;
      if (elsewhere) {
        if (!params.waitForResponse) {
          await relay.send(elsewhere.instanceId, { kind: 'push', from: relay.instanceId, agentId, message });
          return reply.type(FHIR_JSON).send(allOk);
        }
        const callback = hub.newCallback(agentId);
        const answered = hub.expect(agentId, callback, params.waitTimeout, true);
        await relay.send(elsewhere.instanceId, {
          kind: 'push',
          from: relay.instanceId,
          agentId,
          message: { ...message, callback },
          waitMs: params.waitTimeout,
        });
        answer = await answered;
      } else {
        if (!params.waitForResponse) {
          hub.send(agentId, message);
          return reply.type(FHIR_JSON).send(allOk);
        }
        answer = await hub.request(agentId, message, params.waitTimeout);
      }
      if (answer.kind === 'error' || answer.statusCode >= 400) {
        return failedReply(reply, answer, remote);
      }
      return reply
        .status(200)
        .type(answer.contentType || 'text/plain')
        .send(answer.body);
    } catch (err) {
      if (!(err instanceof AgentPushError)) throw err;
      const status = err.reason === 'timeout' ? 504 : err.reason === 'not-connected' ? 503 : 502;
      return sendOutcome(
        reply,
        status,
        outcome(err.reason === 'timeout' ? 'timeout' : 'transient', err.message),
      );
    }
  };

  app.post<{ Params: { id: string } }>('/fhir/R4/Agent/:id/$push', (request, reply) =>
    push(request, reply, (repo) => repo.readResource<Agent>('Agent', request.params.id)),
  );
  app.post<{ Querystring: { identifier?: string } }>('/fhir/R4/Agent/$push', (request, reply) =>
    push(request, reply, async (repo) => {
      const identifier = request.query.identifier;
      if (!identifier)
        throw new OperationOutcomeError(
          badRequest('Give the agent as Agent/{id}/$push or ?identifier=', 'identifier'),
        );
      const found = await repo.search<Agent>({
        resourceType: 'Agent',
        filters: [{ code: 'identifier', operator: 'eq', value: identifier }],
        count: 2,
      });
      if (found.resources.length === 0) throw new OperationOutcomeError(notFound);
      if (found.resources.length > 1)
        throw new OperationOutcomeError(badRequest(`More than one agent has the identifier ${identifier}`));
      return found.resources[0];
    }),
  );
};
