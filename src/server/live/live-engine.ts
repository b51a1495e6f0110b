// The subscription engine's core: hears every committed write through LISTEN/NOTIFY
// (migrations.ts), keeps the recent events in a bounded log, loads each new version once and hands
// it to the listeners interested in its resource type. Matching and access control are the
// listeners' business (audience.ts), so one write costs one query however many sockets. A delete
// is handed over with the version it deleted (the last one with content), so a listener decides
// whether the deleted resource matched its criteria and was the subscriber's to see.
import type { Resource } from '@medplum/fhirtypes';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';
import { extractIndexRows } from '../search/extract-index-rows';
import type { IndexRows } from '../search/index-rows';
import type { MatchTarget } from './criteria-match';
import { EventLog } from './event-log';
import type { WriteEvent } from './event-log';
import { LIVE_CHANNEL_PREFIX } from './migrations';
import { eventRoutingKeys } from './routing-keys';

export type LiveListener = (event: WriteEvent, target: MatchTarget) => void;

export type Replay = { kind: 'events'; deliveries: [WriteEvent, MatchTarget][] } | { kind: 'gap' };

interface VersionRow {
  seq: string;
  content: Resource;
}

/** Index rows are computed on first use and shared: most writes interest no listener's filters. */
function matchTarget(resource: Resource): MatchTarget {
  let rows: IndexRows | undefined;
  return {
    resource,
    get rows() {
      rows ??= extractIndexRows(resource);
      return rows;
    },
  };
}

export function parseNotifyPayload(payload: string): WriteEvent | undefined {
  const [seq, resourceType, id, kind] = payload.split('|');
  if (!/^\d+$/.test(seq ?? '') || !resourceType || !id || (kind !== 'w' && kind !== 'd')) {
    return undefined;
  }
  return { seq, resourceType, id, deleted: kind === 'd' };
}

export class LiveEngine {
  readonly log: EventLog;
  /** Per resource type: listeners filed under a routing key (routing-keys.ts), and the others. */
  private readonly listeners = new Map<
    string,
    { unkeyed: Set<LiveListener>; keyed: Map<string, Set<LiveListener>> }
  >();
  private pending: WriteEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    logCapacity: number,
    private readonly logger: FastifyBaseLogger,
  ) {
    this.log = new EventLog(logCapacity);
  }

  async start(): Promise<void> {
    if (!this.db.listen) {
      this.logger.warn('This database offers no LISTEN: live subscriptions receive no events');
      return;
    }
    const { rows } = await this.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    this.stopListening = await this.db.listen(
      LIVE_CHANNEL_PREFIX + rows[0].schema,
      (payload) => this.heard(payload),
      () => {
        this.logger.warn('The live LISTEN connection was lost and is back: re-binding clients get a gap');
        this.log.clear();
      },
    );
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
    await this.flushing;
  }

  /**
   * Calls `listener` with created or updated versions of `resourceType`, and with the last version
   * of a deleted one (`event.deleted`); with a `key`, only those having that routing key. Returns
   * the unsubscribe.
   */
  subscribe(resourceType: string, listener: LiveListener, key?: string): () => void {
    let entry = this.listeners.get(resourceType);
    if (!entry) {
      entry = { unkeyed: new Set(), keyed: new Map() };
      this.listeners.set(resourceType, entry);
    }
    const { unkeyed, keyed } = entry;
    let set = unkeyed;
    if (key !== undefined) {
      set = keyed.get(key) ?? new Set();
      keyed.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (key !== undefined && set.size === 0) keyed.delete(key);
      if (unkeyed.size === 0 && keyed.size === 0 && this.listeners.get(resourceType) === entry) {
        this.listeners.delete(resourceType);
      }
    };
  }

  /** The listeners a version can concern: the unkeyed ones and those filed under its keys. */
  private listenersFor(resourceType: string, target: MatchTarget): LiveListener[] {
    const entry = this.listeners.get(resourceType);
    if (!entry) return [];
    const found = [...entry.unkeyed];
    if (entry.keyed.size > 0) {
      for (const key of new Set(eventRoutingKeys(target))) {
        const set = entry.keyed.get(key);
        if (set) found.push(...set);
      }
    }
    return found;
  }

  /** The versions of `resourceType` written after event `seq` (as heard here), or a gap. */
  async replaySince(seq: string, resourceType: string): Promise<Replay> {
    const since = this.log.since(seq);
    if (since.kind === 'gap') return since;
    const wanted = since.events.filter((e) => e.resourceType === resourceType);
    const versions = await this.loadVersions(wanted);
    return {
      kind: 'events',
      deliveries: wanted.flatMap((e) => {
        const resource = versions.get(e.seq);
        return resource ? [[e, matchTarget(resource)] as [WriteEvent, MatchTarget]] : [];
      }),
    };
  }

  private heard(payload: string): void {
    const event = parseNotifyPayload(payload);
    if (!event) {
      this.logger.warn({ payload }, 'Ignoring a malformed live notification');
      return;
    }
    this.log.append(event);
    this.pending.push(event);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // Notifications arriving together are loaded with one query, in the order heard.
      setImmediate(() => {
        this.flushScheduled = false;
        const batch = this.pending;
        this.pending = [];
        this.flushing = this.flushing
          .then(() => this.deliver(batch))
          .catch((err: unknown) => {
            this.logger.error({ err }, 'Live delivery failed');
          });
      });
    }
  }

  private async deliver(batch: WriteEvent[]): Promise<void> {
    const wanted = batch.filter((e) => this.listeners.has(e.resourceType));
    if (wanted.length === 0) return;
    const versions = await this.loadVersions(wanted);
    for (const event of wanted) {
      const resource = versions.get(event.seq);
      if (!resource) continue;
      const target = matchTarget(resource);
      for (const listener of this.listenersFor(event.resourceType, target)) {
        try {
          listener(event, target);
        } catch (err) {
          this.logger.error({ err }, 'A live listener failed');
        }
      }
    }
  }

  /** Each event's version, by seq: the written one, or for a delete the version it deleted. */
  private async loadVersions(events: WriteEvent[]): Promise<Map<string, Resource>> {
    const written = events.filter((e) => !e.deleted).map((e) => e.seq);
    const deleted = events.filter((e) => e.deleted).map((e) => e.seq);
    const found = new Map<string, Resource>();
    if (written.length > 0) {
      const { rows } = await this.db.query<VersionRow>(
        'SELECT seq::text AS seq, content FROM resource_history WHERE seq = ANY($1::bigint[]) AND content IS NOT NULL',
        [written],
      );
      for (const row of rows) found.set(row.seq, row.content);
    }
    if (deleted.length > 0) {
      // resource_history_instance_idx (resource_type, id, seq DESC) finds each previous version.
      const { rows } = await this.db.query<VersionRow>(
        `SELECT d.seq::text AS seq, previous.content
           FROM resource_history d
           CROSS JOIN LATERAL (
             SELECT p.content FROM resource_history p
              WHERE p.resource_type = d.resource_type AND p.id = d.id AND p.seq < d.seq
                AND p.content IS NOT NULL
              ORDER BY p.seq DESC LIMIT 1
           ) previous
          WHERE d.seq = ANY($1::bigint[])`,
        [deleted],
      );
      for (const row of rows) found.set(row.seq, row.content);
    }
    return found;
  }
}
