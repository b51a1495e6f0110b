// Agents across server instances: an agent is connected to one instance, and a
// $push may reach any. Each instance records its agents in agent_connection (with a heartbeat, so
// the rows of a stopped instance go stale), and instances pass pushes and answers to each other
// through the database: a row in agent_relay and a NOTIFY naming it and its addressee (the same
// LISTEN/NOTIFY path live updates use; the row carries bodies larger than NOTIFY's 8000 bytes).
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentDestination, AgentTransmitRequest } from '../../fhir/agent-protocol';
import type { Database } from '../db';
import type { AgentReply } from './agent-hub';

export const AGENT_RELAY_CHANNEL_PREFIX = 'bloom_agent_';

/** What one instance asks of another, and the answers. */
export type RelayMessage =
  | { kind: 'push'; from: string; agentId: string; message: AgentTransmitRequest; waitMs?: number }
  | { kind: 'reply'; callback: string; reply: AgentReply }
  | { kind: 'failure'; callback: string; reason: 'not-connected' | 'timeout' | 'disconnected'; text: string };

export interface RemoteAgent {
  instanceId: string;
  destinations: AgentDestination[] | undefined;
}

export class AgentRelay {
  readonly instanceId = crypto.randomUUID();
  private stopListening: (() => Promise<void>) | undefined;
  private channel = '';

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
    /** A connection row older than this belongs to an instance that stopped. */
    private readonly staleMs: number,
  ) {}

  get enabled(): boolean {
    return this.stopListening !== undefined;
  }

  async start(onMessage: (message: RelayMessage) => void): Promise<void> {
    if (!this.db.listen) return;
    const { rows } = await this.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    this.channel = AGENT_RELAY_CHANNEL_PREFIX + rows[0].schema;
    this.stopListening = await this.db.listen(this.channel, (payload) => {
      const [id, to] = payload.split('|');
      if (to !== this.instanceId || !/^\d+$/.test(id ?? '')) return;
      void this.take(id)
        .then((message) => message && onMessage(message))
        .catch((err: unknown) => this.logger.error({ err }, 'Agent relay message lost'));
    });
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
    await this.db
      .query('DELETE FROM agent_connection WHERE instance_id = $1', [this.instanceId])
      .catch(() => undefined);
  }

  async connected(agentId: string, destinations: AgentDestination[] | undefined): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_connection (agent_id, instance_id, destinations, heartbeat_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (agent_id) DO UPDATE SET instance_id = $2, destinations = $3, heartbeat_at = now()`,
      [agentId, this.instanceId, destinations === undefined ? null : JSON.stringify(destinations)],
    );
  }

  async disconnected(agentId: string): Promise<void> {
    await this.db.query('DELETE FROM agent_connection WHERE agent_id = $1 AND instance_id = $2', [
      agentId,
      this.instanceId,
    ]);
  }

  /** Messages nobody took (their instance stopped) are of no use after a minute. */
  async sweep(): Promise<void> {
    await this.db.query("DELETE FROM agent_relay WHERE created_at < now() - interval '1 minute'");
  }

  /** The other instance `agentId` is connected to, if any (and not stale). */
  async find(agentId: string): Promise<RemoteAgent | undefined> {
    const { rows } = await this.db.query<{ instance_id: string; destinations: AgentDestination[] | null }>(
      `SELECT instance_id, destinations FROM agent_connection
        WHERE agent_id = $1 AND instance_id <> $2 AND heartbeat_at > now() - $3 * interval '1 millisecond'`,
      [agentId, this.instanceId, this.staleMs],
    );
    const row = rows[0];
    return row ? { instanceId: row.instance_id, destinations: row.destinations ?? undefined } : undefined;
  }

  async send(to: string, message: RelayMessage): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        'INSERT INTO agent_relay (payload) VALUES ($1) RETURNING id::text AS id',
        [JSON.stringify(message)],
      );
      await tx.query('SELECT pg_notify($1, $2)', [this.channel, `${rows[0].id}|${to}`]);
    });
  }

  /** Loads and removes a relayed message (each is for one instance only). */
  private async take(id: string): Promise<RelayMessage | undefined> {
    const { rows } = await this.db.query<{ payload: RelayMessage }>(
      'DELETE FROM agent_relay WHERE id = $1::bigint RETURNING payload',
      [id],
    );
    return rows[0]?.payload;
  }
}
