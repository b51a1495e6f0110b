// The hub's database side: subscriptions, the current context per (project, topic) and
// published messages. A publish locks the topic's context row, applies the event, stores the
// message and NOTIFYs its seq in one transaction, so instances hear only committed messages, in
// commit order per topic. Topics are keyed by project: one project never sees another's.
import crypto from 'node:crypto';
import type { Database, Queryable } from '../db';
import type { FhircastEvent, FhircastMessage } from '../../fhir/fhircast';
import { applyEvent, EMPTY_CONTEXT } from './current-context';
import type { CurrentContext } from './current-context';
import { FHIRCAST_CHANNEL_PREFIX } from './migrations';
import type { TopicOwnership } from './topic-access';

/** How long a message row is kept for instances to load it after its NOTIFY. */
const MESSAGE_RETENTION = '1 hour';

export interface SubscriptionRow {
  endpoint_id: string;
  project: string;
  topic: string;
  events: string[];
  subscriber: string;
}

export interface StoredMessage {
  project: string;
  topic: string;
  message: FhircastMessage;
  /** Who published it: a failed delivery sends them a syncerror. */
  publisher: string;
  /** Set on a syncerror: only this subscriber's sockets receive it. */
  only_subscriber: string | null;
}

/** `revoked`: the subscription ended because its owner no longer shares the topic with it. */
export type Notice =
  | { kind: 'message'; seq: string }
  | { kind: 'unsubscribed'; endpointId: string }
  | { kind: 'revoked'; endpointId: string };

const NOTICE_CODES = { unsubscribed: 'u', revoked: 'r' } as const;

export function encodeNotice(notice: Notice): string {
  return notice.kind === 'message' ? `m|${notice.seq}` : `${NOTICE_CODES[notice.kind]}|${notice.endpointId}`;
}

export function decodeNotice(payload: string): Notice | undefined {
  const [kind, value] = payload.split('|');
  if (kind === 'm' && /^\d+$/.test(value ?? '')) return { kind: 'message', seq: value };
  if (kind === 'u' && value) return { kind: 'unsubscribed', endpointId: value };
  if (kind === 'r' && value) return { kind: 'revoked', endpointId: value };
  return undefined;
}

export class FhircastStore {
  private channel: string | undefined;

  constructor(private readonly db: Database) {}

  async channelName(): Promise<string> {
    if (!this.channel) {
      const { rows } = await this.db.query<{ schema: string }>('SELECT current_schema() AS schema');
      this.channel = FHIRCAST_CHANNEL_PREFIX + rows[0].schema;
    }
    return this.channel;
  }

  private async notify(tx: Queryable, notice: Notice): Promise<void> {
    await tx.query('SELECT pg_notify($1, $2)', [await this.channelName(), encodeNotice(notice)]);
  }

  async subscribe(row: Omit<SubscriptionRow, 'endpoint_id'>): Promise<string> {
    const endpointId = crypto.randomBytes(24).toString('base64url');
    await this.db.query(
      'INSERT INTO fhircast_subscription (endpoint_id, project, topic, events, subscriber) VALUES ($1, $2, $3, $4, $5)',
      [endpointId, row.project, row.topic, row.events, row.subscriber],
    );
    return endpointId;
  }

  /** True when the endpoint was this project's subscription on `topic`. */
  async unsubscribe(project: string, topic: string, endpointId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query(
        'DELETE FROM fhircast_subscription WHERE endpoint_id = $1 AND project = $2 AND topic = $3 RETURNING endpoint_id',
        [endpointId, project, topic],
      );
      if (rows.length > 0) await this.notify(tx, { kind: 'unsubscribed', endpointId });
      return rows.length > 0;
    });
  }

  async findSubscription(endpointId: string): Promise<SubscriptionRow | undefined> {
    const { rows } = await this.db.query<SubscriptionRow>(
      'SELECT endpoint_id, project, topic, events, subscriber FROM fhircast_subscription WHERE endpoint_id = $1',
      [endpointId],
    );
    return rows[0];
  }

  async findTopic(project: string, topic: string): Promise<TopicOwnership | undefined> {
    const { rows } = await this.db.query<TopicOwnership>(
      'SELECT owner, owner_membership, shared_with FROM fhircast_topic WHERE project = $1 AND topic = $2',
      [project, topic],
    );
    return rows[0];
  }

  /** Records `owner` as the topic's owner unless it has one already; answers whoever owns it now. */
  async claimTopic(
    project: string,
    topic: string,
    owner: string,
    membership: string | undefined,
  ): Promise<TopicOwnership> {
    await this.db.query(
      `INSERT INTO fhircast_topic (project, topic, owner, owner_membership) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project, topic) DO NOTHING`,
      [project, topic, owner, membership ?? null],
    );
    const claimed = await this.findTopic(project, topic);
    if (!claimed) throw new Error(`FHIRcast topic ${topic} was not recorded`);
    return claimed;
  }

  /**
   * Replaces whom the topic is shared with, and ends (with a `revoked` notice) the subscriptions of
   * everybody no longer let in, in one transaction.
   */
  async shareTopic(project: string, topic: string, sharedWith: string[]): Promise<TopicOwnership> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<TopicOwnership>(
        `UPDATE fhircast_topic SET shared_with = $3 WHERE project = $1 AND topic = $2
         RETURNING owner, owner_membership, shared_with`,
        [project, topic, sharedWith],
      );
      if (!rows[0]) throw new Error(`FHIRcast topic ${topic} has no owner to share it`);
      const ended = await tx.query<{ endpoint_id: string }>(
        `DELETE FROM fhircast_subscription
         WHERE project = $1 AND topic = $2 AND subscriber <> $3 AND NOT (subscriber = ANY($4::text[]))
         RETURNING endpoint_id`,
        [project, topic, rows[0].owner, sharedWith],
      );
      for (const { endpoint_id: endpointId } of ended.rows) {
        await this.notify(tx, { kind: 'revoked', endpointId });
      }
      return rows[0];
    });
  }

  async getContext(project: string, topic: string): Promise<CurrentContext> {
    const { rows } = await this.db.query<{ content: CurrentContext }>(
      'SELECT content FROM fhircast_context WHERE project = $1 AND topic = $2',
      [project, topic],
    );
    return rows[0]?.content ?? EMPTY_CONTEXT;
  }

  /** Applies `event` to the topic's context (throws, changing nothing, when it may not apply) and fans it out. */
  async publish(project: string, message: FhircastMessage, publisher: string): Promise<FhircastMessage> {
    const topic = message.event['hub.topic'];
    return this.db.transaction(async (tx) => {
      // Lock the topic's row (created empty if new) so publishes on one topic apply one at a time.
      await tx.query(
        `INSERT INTO fhircast_context (project, topic, content) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (project, topic) DO NOTHING`,
        [project, topic, JSON.stringify(EMPTY_CONTEXT)],
      );
      const { rows } = await tx.query<{ content: CurrentContext }>(
        'SELECT content FROM fhircast_context WHERE project = $1 AND topic = $2 FOR UPDATE',
        [project, topic],
      );
      const { next, delivered } = applyEvent(rows[0].content, message.event, crypto.randomUUID());
      await tx.query(
        'UPDATE fhircast_context SET content = $3::jsonb, updated = now() WHERE project = $1 AND topic = $2',
        [project, topic, JSON.stringify(next)],
      );
      const accepted: FhircastMessage = { ...message, event: delivered };
      await this.insertMessage(tx, project, accepted, publisher, null);
      return accepted;
    });
  }

  /** A syncerror for `subscriber`'s sockets on the topic (the publisher of an undelivered event). */
  async sendSyncError(project: string, event: FhircastEvent, subscriber: string): Promise<void> {
    await this.db.transaction((tx) =>
      this.insertMessage(
        tx,
        project,
        { timestamp: new Date().toISOString(), id: crypto.randomUUID(), event },
        'hub',
        subscriber,
      ),
    );
  }

  private async insertMessage(
    tx: Queryable,
    project: string,
    message: FhircastMessage,
    publisher: string,
    onlySubscriber: string | null,
  ): Promise<void> {
    await tx.query(`DELETE FROM fhircast_message WHERE created < now() - interval '${MESSAGE_RETENTION}'`);
    const { rows } = await tx.query<{ seq: string }>(
      `INSERT INTO fhircast_message (project, topic, message, publisher, only_subscriber)
       VALUES ($1, $2, $3::jsonb, $4, $5)
       RETURNING seq::text AS seq`,
      [project, message.event['hub.topic'], JSON.stringify(message), publisher, onlySubscriber],
    );
    await this.notify(tx, { kind: 'message', seq: rows[0].seq });
  }

  async loadMessage(seq: string): Promise<StoredMessage | undefined> {
    const { rows } = await this.db.query<StoredMessage>(
      'SELECT project, topic, message, publisher, only_subscriber FROM fhircast_message WHERE seq = $1::bigint',
      [seq],
    );
    return rows[0];
  }
}
