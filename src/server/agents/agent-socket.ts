// One agent's WebSocket at /ws/agent (Medplum's agent protocol). The first
// message must be agent:connect:request with an access token from client credentials (a
// ClientApplication's) whose access rules can read the Agent; anything else, a bad token or an
// Agent that is off is answered with agent:error and the socket is closed. Once connected, the
// agent's answers settle the hub's waiting pushes and heartbeats keep the socket alive. The session
// is re-checked while the socket lives: at the token's expiry and on every heartbeat (login revoked,
// membership gone, ClientApplication or Agent off), closing the socket with the reason. An agent
// keeps its socket by sending agent:connect:request again with a renewed token.
import type { Agent } from '@medplum/fhirtypes';
import { tokenExpiresAt } from '../../fhir/jwt';
import type { WebSocket } from 'ws';
import { parseAgentMessage } from '../../fhir/agent-protocol';
import type { AgentConnectRequest, AgentMessage } from '../../fhir/agent-protocol';
import type { ServerServices } from '../services';
import type { AuthState } from '../auth/authenticate';
import { authenticateBearer } from '../auth/authenticate';
import type { BotExecutionDeps } from '../bots/execute';
import { Repository } from '../repo';
import type { RepositoryContext } from '../repo';
import type { AgentConnection, AgentHub } from './agent-hub';
import { runChannel } from './inbound';

export const SERVER_AGENT_PROTOCOL_VERSION = 'bloom-0.1.0';
/** An agent that has not connected within this time is closed. */
const CONNECT_DEADLINE_MS = 10_000;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type Refusal = { code: number; text: string };

/** Close codes: 4401 bad credentials, 4403 Agent not readable or off, 4408 too slow to connect. */
export class AgentSocket implements AgentConnection {
  agentId = '';
  destinations: AgentConnection['destinations'];
  private connected = false;
  /** The client application's access, as which inbound messages run their bots. */
  private context: RepositoryContext | undefined;
  /** Heartbeat ticks in a row with no message from the agent. */
  private silentTicks = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly connectTimer: NodeJS.Timeout;
  /** The access token the session runs on, and the timer that ends it at the token's expiry. */
  private accessToken = '';
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly hub: AgentHub,
    private readonly deps: ServerServices,
    private readonly bots: BotExecutionDeps,
  ) {
    this.connectTimer = setTimeout(() => {
      if (!this.connected) this.refuse(4408, 'No agent:connect:request in time');
    }, CONNECT_DEADLINE_MS);
    ws.on('message', (data, isBinary) => {
      this.silentTicks = 0;
      const text = isBinary ? '' : data.toString();
      // One message at a time: the connect finishes before the next message is read.
      this.queue = this.queue.then(() => this.handle(text)).catch(() => this.refuse(1011, 'Internal error'));
    });
    ws.on('close', () => {
      clearTimeout(this.connectTimer);
      clearTimeout(this.expiryTimer);
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

  /**
   * Called on the hub's heartbeat timer: asks for a heartbeat, drops an agent silent for two.
   * Counting ticks rather than reading the clock keeps an event-loop stall from dropping a live
   * agent: I/O is read between two ticks, so a reply waiting behind the stall still counts.
   */
  heartbeat(): void {
    if (!this.connected) return;
    this.silentTicks += 1;
    if (this.silentTicks > 2) {
      this.ws.terminate();
      return;
    }
    this.send({ type: 'agent:heartbeat:request' });
    this.queue = this.queue.then(() => this.recheck()).catch(() => this.refuse(1011, 'Internal error'));
  }

  /** The session still holds: else the socket closes with the reason. */
  private async recheck(): Promise<void> {
    if (!this.connected) return;
    const checked = await this.checkSession(this.accessToken, this.agentId);
    if ('code' in checked) {
      this.refuse(checked.code, checked.text);
    }
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
        // A renewed token for the same Agent keeps the socket; another Agent needs its own.
        if (message.agentId !== this.agentId) {
          this.send({ type: 'agent:error', body: `Already connected as Agent/${this.agentId}` });
          return;
        }
        await this.connect(message);
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

  /**
   * Why `accessToken` may not (or no longer) run Agent/`agentId`, or what it runs as when it may:
   * expired or revoked token, a person's token, a ClientApplication or an Agent that is off or
   * out of the client's reach.
   */
  private async checkSession(
    accessToken: string,
    agentId: string,
  ): Promise<Refusal | { state: AuthState; agent: Agent; expiresAt: number | undefined }> {
    const expiresAt = tokenExpiresAt(accessToken);
    const expired = () => expiresAt !== undefined && expiresAt <= Date.now();
    const expiredRefusal = { code: 4401, text: 'The access token has expired: sign in again and reconnect' };
    if (expired()) return expiredRefusal;
    let state: AuthState;
    try {
      state = await authenticateBearer(this.deps, accessToken);
    } catch {
      // The token may have expired while it was being verified: say so rather than 'invalid'.
      return expired() ? expiredRefusal : { code: 4401, text: 'Invalid access token' };
    }
    if (!state.client) {
      return { code: 4401, text: 'Agents connect with a client application’s token (client credentials)' };
    }
    if (state.client.status === 'off') {
      return { code: 4403, text: `ClientApplication/${state.client.id} is off` };
    }
    let agent: Agent;
    try {
      agent = await new Repository(this.deps.db, state.context).readResource<Agent>('Agent', agentId);
    } catch {
      return { code: 4403, text: `Agent/${agentId} not found or not readable by this client` };
    }
    if (agent.status === 'off') {
      return { code: 4403, text: `Agent/${agentId} is off` };
    }
    return { state, agent, expiresAt };
  }

  private async connect(request: AgentConnectRequest): Promise<void> {
    const checked = await this.checkSession(request.accessToken, request.agentId);
    if ('code' in checked) {
      this.refuse(checked.code, checked.text);
      return;
    }
    const { state, agent, expiresAt } = checked;
    clearTimeout(this.connectTimer);
    clearTimeout(this.expiryTimer);
    if (expiresAt !== undefined) {
      const delay = Math.min(Math.max(0, expiresAt - Date.now()), MAX_TIMER_MS);
      this.expiryTimer = setTimeout(() => {
        this.queue = this.queue.then(() => this.recheck()).catch(() => this.refuse(1011, 'Internal error'));
      }, delay);
      this.expiryTimer.unref();
    }
    this.accessToken = request.accessToken;
    this.context = state.context;
    this.destinations = request.destinations ?? this.destinations;
    if (!this.connected) {
      this.agentId = agent.id as string;
      this.connected = true;
      this.hub.register(this);
    }
    this.send({
      type: 'agent:connect:response',
      ...(request.callback ? { callback: request.callback } : {}),
    });
  }
}
