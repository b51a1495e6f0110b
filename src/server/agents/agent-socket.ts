// One agent's WebSocket at /ws/agent (issue #10 Agents; Medplum's agent protocol). The first
// message must be agent:connect:request with an access token from client credentials (a
// ClientApplication's) whose access rules can read the Agent; anything else, a bad token or an
// Agent that is off is answered with agent:error and the socket is closed. Once connected, the
// agent's answers settle the hub's waiting pushes and heartbeats keep the socket alive.
import type { Agent } from '@medplum/fhirtypes';
import type { WebSocket } from 'ws';
import { parseAgentMessage } from '../../fhir/agent-protocol';
import type { AgentConnectRequest, AgentMessage } from '../../fhir/agent-protocol';
import type { AuthDeps } from '../auth/auth-deps';
import { authenticateBearer } from '../auth/authenticate';
import type { BotExecutionDeps } from '../bots/execute';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import type { AgentConnection, AgentHub } from './agent-hub';
import { runChannel } from './inbound';

export const SERVER_AGENT_PROTOCOL_VERSION = 'bloom-0.1.0';
/** An agent that has not connected within this time is closed. */
const CONNECT_DEADLINE_MS = 10_000;

/** Close codes: 4401 bad credentials, 4403 Agent not readable or off, 4408 too slow to connect. */
export class AgentSocket implements AgentConnection {
  agentId = '';
  destinations: AgentConnection['destinations'];
  private connected = false;
  /** The client application's access, as which inbound messages run their bots. */
  private context: RepositoryContext | undefined;
  private lastHeard = Date.now();
  private queue: Promise<void> = Promise.resolve();
  private readonly connectTimer: NodeJS.Timeout;

  constructor(
    private readonly ws: WebSocket,
    private readonly hub: AgentHub,
    private readonly deps: AuthDeps,
    private readonly bots: BotExecutionDeps,
  ) {
    this.connectTimer = setTimeout(() => {
      if (!this.connected) this.refuse(4408, 'No agent:connect:request in time');
    }, CONNECT_DEADLINE_MS);
    ws.on('message', (data, isBinary) => {
      this.lastHeard = Date.now();
      const text = isBinary ? '' : data.toString();
      // One message at a time: the connect finishes before the next message is read.
      this.queue = this.queue.then(() => this.handle(text)).catch(() => this.refuse(1011, 'Internal error'));
    });
    ws.on('close', () => {
      clearTimeout(this.connectTimer);
      if (this.connected) this.hub.unregister(this);
      this.connected = false;
    });
  }

  send(message: AgentMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }

  /** Called on the hub's heartbeat timer: asks for a heartbeat, drops an agent silent for two. */
  heartbeat(interval: number): void {
    if (!this.connected) return;
    if (Date.now() - this.lastHeard > 2 * interval) {
      this.ws.terminate();
      return;
    }
    this.send({ type: 'agent:heartbeat:request' });
  }

  private refuse(code: number, text: string): void {
    this.send({ type: 'agent:error', body: text });
    this.ws.close(code, text.slice(0, 120));
  }

  private async handle(text: string): Promise<void> {
    const parsed = parseAgentMessage(text);
    if (!parsed.ok) {
      this.send({ type: 'agent:error', body: parsed.error });
      return;
    }
    const message = parsed.message;
    if (!this.connected) {
      if (message.type !== 'agent:connect:request') {
        this.refuse(4401, 'Not connected: send agent:connect:request first');
        return;
      }
      await this.connect(message);
      return;
    }
    switch (message.type) {
      case 'agent:heartbeat:request':
        this.send({ type: 'agent:heartbeat:response', version: SERVER_AGENT_PROTOCOL_VERSION });
        return;
      case 'agent:heartbeat:response':
        return;
      case 'agent:transmit:response':
        if (message.callback) {
          this.hub.answer(this.agentId, message.callback, {
            kind: 'response',
            statusCode: message.statusCode ?? 200,
            contentType: message.contentType,
            body: message.body,
          });
        }
        return;
      case 'agent:error':
        if (message.callback)
          this.hub.answer(this.agentId, message.callback, { kind: 'error', body: message.body });
        return;
      case 'agent:connect:request':
        this.send({ type: 'agent:error', body: 'Already connected' });
        return;
      case 'agent:transmit:request':
        // Inbound channels run concurrently: a slow bot must not hold up heartbeats or answers.
        void runChannel(this.bots, this.context as RepositoryContext, this.agentId, message)
          .then((response) => this.send(response))
          .catch((err: unknown) =>
            this.send({
              type: 'agent:error',
              ...(message.callback ? { callback: message.callback } : {}),
              body: err instanceof Error ? err.message : String(err),
            }),
          );
        return;
      default:
        this.send({ type: 'agent:error', body: `Unsupported message type: ${message.type}` });
    }
  }

  private async connect(request: AgentConnectRequest): Promise<void> {
    let state;
    try {
      state = await authenticateBearer(this.deps, request.accessToken);
    } catch {
      this.refuse(4401, 'Invalid access token');
      return;
    }
    if (!state.client) {
      this.refuse(4401, 'Agents connect with a client application’s token (client credentials)');
      return;
    }
    let agent: Agent;
    try {
      agent = await new Repository(this.deps.db, state.context).readResource<Agent>('Agent', request.agentId);
    } catch {
      this.refuse(4403, `Agent/${request.agentId} not found or not readable by this client`);
      return;
    }
    if (agent.status === 'off') {
      this.refuse(4403, `Agent/${request.agentId} is off`);
      return;
    }
    clearTimeout(this.connectTimer);
    this.context = state.context;
    this.agentId = agent.id as string;
    this.destinations = request.destinations;
    this.connected = true;
    this.hub.register(this);
    this.send({
      type: 'agent:connect:response',
      ...(request.callback ? { callback: request.callback } : {}),
    });
  }
}
