// The agents connected to this server instance and the requests waiting for
// their answers. One connection per Agent: a newer one replaces the older (an agent that lost its
// network reconnects before the server notices the old socket is dead). A request that waits gets
// a callback id; the agent's agent:transmit:response or agent:error with that id settles it, a
// timer or the agent's disconnection fails it.
import crypto from 'node:crypto';
import type { AgentDestination, AgentMessage, AgentTransmitRequest } from '../../fhir/agent-protocol';

export interface AgentConnection {
  agentId: string;
  /** The destinations the agent announced; undefined for agents that announce none (Medplum's). */
  destinations: AgentDestination[] | undefined;
  send(message: AgentMessage): void;
  close(code: number, reason: string): void;
}

export type AgentReply =
  | { kind: 'response'; statusCode: number; contentType: string; body: string }
  | { kind: 'error'; body: string };

export class AgentPushError extends Error {
  constructor(
    message: string,
    readonly reason: 'not-connected' | 'timeout' | 'disconnected',
  ) {
    super(message);
    this.name = 'AgentPushError';
  }
}

interface Pending {
  agentId: string;
  /** Waiting for an answer relayed from the instance the agent is connected to. */
  relayed: boolean;
  resolve(reply: AgentReply): void;
  reject(error: AgentPushError): void;
  timer: NodeJS.Timeout;
}

export interface AgentHubEvents {
  onRegister?(connection: AgentConnection): void;
  onUnregister?(connection: AgentConnection): void;
}

export class AgentHub {
  private readonly connections = new Map<string, AgentConnection>();
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly events: AgentHubEvents = {}) {}

  connectionOf(agentId: string): AgentConnection | undefined {
    return this.connections.get(agentId);
  }

  get size(): number {
    return this.connections.size;
  }

  register(connection: AgentConnection): void {
    const previous = this.connections.get(connection.agentId);
    this.connections.set(connection.agentId, connection);
    if (previous && previous !== connection) {
      previous.close(4409, 'Replaced by a newer connection of this agent');
    }
    this.events.onRegister?.(connection);
  }

  /** The connection is gone: its agent's waiting requests fail at once instead of timing out. */
  unregister(connection: AgentConnection): void {
    if (this.connections.get(connection.agentId) !== connection) return;
    this.connections.delete(connection.agentId);
    this.events.onUnregister?.(connection);
    for (const [callback, pending] of this.pending) {
      if (pending.agentId === connection.agentId && !pending.relayed) {
        this.settle(callback)?.reject(
          new AgentPushError(`Agent/${connection.agentId} disconnected before it answered`, 'disconnected'),
        );
      }
    }
  }

  /** Sends without waiting; throws when the agent is not connected here. */
  send(agentId: string, message: AgentTransmitRequest): void {
    this.requireConnection(agentId).send(message);
  }

  /** Sends and resolves with the agent's answer, or rejects after `timeoutMs`. */
  request(
    agentId: string,
    message: AgentTransmitRequest,
    timeoutMs: number,
    callback = this.newCallback(agentId),
  ): Promise<AgentReply> {
    const connection = this.requireConnection(agentId);
    const answer = this.expect(agentId, callback, timeoutMs, false);
    connection.send({ ...message, callback });
    return answer;
  }

  newCallback(agentId: string): string {
    return `Agent/${agentId}-${crypto.randomUUID()}`;
  }

  /** A promise of the answer to `callback`: from the agent's socket here, or relayed (`relayed`). */
  expect(agentId: string, callback: string, timeoutMs: number, relayed: boolean): Promise<AgentReply> {
    return new Promise<AgentReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(callback)?.reject(
          new AgentPushError(`No answer through Agent/${agentId} within ${timeoutMs} ms`, 'timeout'),
        );
      }, timeoutMs);
      this.pending.set(callback, { agentId, relayed, resolve, reject, timer });
    });
  }

  /** The outcome of a push another instance carried out for this one. */
  relayedAnswer(callback: string, outcome: AgentReply | AgentPushError): void {
    const pending = this.pending.get(callback);
    if (!pending?.relayed) return;
    if (outcome instanceof AgentPushError) this.settle(callback)?.reject(outcome);
    else this.settle(callback)?.resolve(outcome);
  }

  /** An answer from `agentId`'s socket; answers to callbacks it was not sent are ignored. */
  answer(agentId: string, callback: string, reply: AgentReply): void {
    const pending = this.pending.get(callback);
    if (!pending || pending.agentId !== agentId || pending.relayed) return;
    this.settle(callback)?.resolve(reply);
  }

  closeAll(): void {
    for (const connection of [...this.connections.values()]) {
      connection.close(1001, 'Server stopping');
      this.unregister(connection);
    }
  }

  private requireConnection(agentId: string): AgentConnection {
    const connection = this.connections.get(agentId);
    if (!connection) {
      throw new AgentPushError(`Agent/${agentId} is not connected`, 'not-connected');
    }
    return connection;
  }

  private settle(callback: string): Pending | undefined {
    const pending = this.pending.get(callback);
    if (!pending) return undefined;
    this.pending.delete(callback);
    clearTimeout(pending.timer);
    return pending;
  }
}
