// Subscription → Bot: an active Subscription with channel type
// rest-hook and endpoint `Bot/{id}` runs that bot on each matching write, with the resource as
// input (FHIR JSON). Matching is the live engine's (src/server/live): the criteria, and the access
// rules of the Subscription's author as for a read, so a subscription never hands a bot what its
// author could not read; the author must also be able to read the bot, as for $execute. Each match
// becomes a job row (subscription-jobs.ts): one instance runs it; a failed run is retried after a
// doubling delay up to the Subscription's max attempts (Medplum's subscription-max-attempts
// extension, default 3, at most 10), and every attempt leaves the bot's AuditEvent (outcome,
// attempt, Subscription and resource), so failures are visible. Deletes run the bot only when the
// subscription-supported-interaction extension asks for them. A bot's own writes do not trigger it.
import type { AuditEventEntity, Bot, ProjectMembership, Resource, Subscription } from '@medplum/fhirtypes';
import type { FastifyBaseLogger } from 'fastify';
import { operationOutcomeToString } from '../../fhir';
import { buildAuthState } from '../auth/authenticate';
import type { BinaryStorage } from '../binary/storage';
import type { Database } from '../db';
import { FHIR_JSON } from '../media-types';
import { deliverableTo } from '../live/audience';
import { parseCriteria } from '../live/criteria';
import type { MatchTarget } from '../live/criteria-match';
import type { WriteEvent } from '../live/event-log';
import { interactionFilter, SUPPORTED_INTERACTION_URL } from '../live/interactions';
import type { LiveEngine } from '../live/live-engine';
import { routingKey } from '../live/routing-keys';
import { Repository, systemContext } from '../repo';
import type { RepositoryContext } from '../repo';
import { extractIndexRows } from '../search/extract-index-rows';
import { executeBot, recordExecution } from './execute';
import type { BotExecutionResult, ExecutionAudit } from './execute';
import { BotJobStore } from './subscription-jobs';
import type { BotJob } from './subscription-jobs';

export const MAX_ATTEMPTS_URL = 'https://medplum.com/fhir/StructureDefinition/subscription-max-attempts';
const MAX_ATTEMPTS_CAP = 10;

export interface BotTriggerSettings {
  /** Attempts per write unless the Subscription says otherwise. */
  maxAttempts: number;
  /** Wait before the first retry; each further retry waits twice as long. */
  retryDelayMs: number;
  /** How often an instance looks for due jobs it was not told about (another instance's, after a stop). */
  sweepIntervalMs: number;
  /** How long a claimed attempt is this instance's before another may take it over. */
  leaseMs: number;
  /** Jobs run at once per instance. */
  concurrency: number;
}

export const DEFAULT_BOT_TRIGGER_SETTINGS: BotTriggerSettings = {
  maxAttempts: 3,
  retryDelayMs: 1000,
  sweepIntervalMs: 5000,
  leaseMs: 5 * 60_000,
  concurrency: 4,
};

export interface BotTriggerDeps {
  db: Database;
  storage: BinaryStorage;
  fhirBase: string;
  logger: FastifyBaseLogger;
}

const BOT_ENDPOINT = /^Bot\/([A-Za-z0-9\-.]{1,64})$/;

/** The bot a Subscription runs, when it is an active rest-hook to `Bot/{id}`. */
export function subscriptionBotId(subscription: Subscription): string | undefined {
  if (subscription.status !== 'active' || subscription.channel?.type !== 'rest-hook') return undefined;
  return BOT_ENDPOINT.exec(subscription.channel.endpoint ?? '')?.[1];
}

function maxAttemptsOf(subscription: Subscription, fallback: number): number {
  const value = subscription.extension?.find((e) => e.url === MAX_ATTEMPTS_URL)?.valueInteger;
  return typeof value === 'number' && value >= 1 ? Math.min(value, MAX_ATTEMPTS_CAP) : fallback;
}

/** Which events run the bot: the live rules, except that deletes must be asked for. */
function wantsEvent(subscription: Subscription): (event: WriteEvent) => boolean {
  const live = interactionFilter(subscription);
  const deletesAsked = (subscription.extension ?? []).some(
    (e) => e.url === SUPPORTED_INTERACTION_URL && e.valueCode === 'delete',
  );
  return (event) => (event.deleted ? deletesAsked : live(event));
}

function matchTarget(resource: Resource): MatchTarget {
  let rows: MatchTarget['rows'] | undefined;
  return {
    resource,
    get rows() {
      rows ??= extractIndexRows(resource);
      return rows;
    },
  };
}

/** The Subscription's author as a caller: their membership in its project (system for the server's own). */
async function authorContext(
  db: Database,
  subscription: Subscription,
): Promise<RepositoryContext | undefined> {
  const project = subscription.meta?.project;
  const author = subscription.meta?.author?.reference;
  const system = systemContext(project);
  if (!author || author === system.author.reference) return system;
  if (!project) return undefined;
  const { rows } = await db.query<{ content: ProjectMembership }>(
    `SELECT content FROM resource WHERE resource_type = 'ProjectMembership' AND NOT deleted
       AND content->'profile'->>'reference' = $1 AND content->'project'->>'reference' = $2
       AND coalesce(content->>'active', 'true') <> 'false'
     ORDER BY seq LIMIT 1`,
    [author, `Project/${project}`],
  );
  if (rows.length === 0) return undefined;
  return (await buildAuthState(db, rows[0].content, {})).context;
}

/** The version an event is about: the written one, or for a delete the one it deleted. */
async function loadVersion(db: Database, seq: string, deleted: boolean): Promise<Resource | undefined> {
  const { rows } = await db.query<{ content: Resource }>(
    deleted
      ? `SELECT p.content FROM resource_history d JOIN resource_history p
           ON p.resource_type = d.resource_type AND p.id = d.id AND p.seq < d.seq AND p.content IS NOT NULL
          WHERE d.seq = $1::bigint ORDER BY p.seq DESC LIMIT 1`
      : 'SELECT content FROM resource_history WHERE seq = $1::bigint AND content IS NOT NULL',
    [seq],
  );
  return rows[0]?.content;
}

interface Registration {
  subscription: Subscription;
  botId: string;
  context: Promise<RepositoryContext | undefined>;
  unsubscribe: () => void;
}

export class BotSubscriptionTrigger {
  readonly jobs: BotJobStore;
  private readonly settings: BotTriggerSettings;
  private readonly registrations = new Map<string, Registration>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private engine: LiveEngine | undefined;
  private stopWatching: (() => void) | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private stopped = false;
  private loaded = false;
  private draining = false;
  private drainAgain = false;

  constructor(
    private readonly deps: BotTriggerDeps,
    settings: Partial<BotTriggerSettings> = {},
  ) {
    this.settings = { ...DEFAULT_BOT_TRIGGER_SETTINGS, ...settings };
    this.jobs = new BotJobStore(deps.db);
  }

  /** Registers every bot Subscription and follows their changes; returns the stop. */
  async start(engine: LiveEngine): Promise<() => Promise<void>> {
    this.engine = engine;
    this.stopped = false;
    // Subscriptions written from now on (the engine hears them before any later write).
    this.stopWatching = engine.subscribe('Subscription', (event, target) => {
      if (event.deleted) this.unregister(event.id);
      else this.register(target.resource as Subscription);
    });
    // A database that fails now must not stop the server starting: the sweep loads them later.
    await this.loadExisting().catch((err: unknown) => {
      this.deps.logger.error({ err }, 'Bot subscriptions not loaded yet');
    });
    this.sweep = setInterval(() => {
      if (!this.loaded) void this.loadExisting().catch(() => undefined);
      this.kick();
    }, this.settings.sweepIntervalMs);
    this.sweep.unref();
    this.kick();
    return () => this.stop();
  }

  private async loadExisting(): Promise<void> {
    const { rows } = await this.deps.db.query<{ content: Subscription }>(
      `SELECT content FROM resource WHERE resource_type = 'Subscription' AND NOT deleted
         AND content->'channel'->>'type' = 'rest-hook' AND content->'channel'->>'endpoint' LIKE 'Bot/%'`,
    );
    for (const row of rows) {
      if (!this.registrations.has(row.content.id as string)) this.register(row.content);
    }
    this.loaded = true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.stopWatching?.();
    for (const id of [...this.registrations.keys()]) this.unregister(id);
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private register(subscription: Subscription): void {
    const id = subscription.id as string;
    this.unregister(id);
    const botId = subscriptionBotId(subscription);
    if (!botId || !this.engine) return;
    let criteria;
    try {
      criteria = parseCriteria(subscription.criteria);
    } catch (err) {
      this.deps.logger.warn({ err, subscription: id }, 'Bot subscription with invalid criteria is ignored');
      return;
    }
    const context = authorContext(this.deps.db, subscription).catch(() => undefined);
    const wants = wantsEvent(subscription);
    const maxAttempts = maxAttemptsOf(subscription, this.settings.maxAttempts);
    const unsubscribe = this.engine.subscribe(
      criteria.resourceType,
      (event, target) => {
        if (!wants(event)) return;
        // A bot's own writes do not run it again (no loops through its own output).
        if (target.resource.meta?.author?.reference === `Bot/${botId}`) return;
        this.track(
          (async () => {
            const caller = await context;
            if (!caller || !deliverableTo({ context: caller, criteria }, target)) return;
            if (await this.jobs.enqueue(id, event.seq, event.deleted, maxAttempts)) this.kick();
          })(),
        );
      },
      routingKey(criteria),
    );
    this.registrations.set(id, { subscription, botId, context, unsubscribe });
  }

  private unregister(id: string): void {
    this.registrations.get(id)?.unsubscribe();
    this.registrations.delete(id);
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch((err: unknown) => {
      this.deps.logger.error({ err }, 'Bot subscription trigger failed');
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  /** Runs due jobs until none is left; a kick during a run runs another round. */
  private kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = true;
    this.track(
      (async () => {
        try {
          do {
            this.drainAgain = false;
            for (;;) {
              if (this.stopped) return;
              const due = await this.jobs.claimDue(this.settings.concurrency, this.settings.leaseMs);
              if (due.length === 0) break;
              await Promise.all(due.map((job) => this.attempt(job)));
            }
          } while (this.drainAgain);
        } finally {
          this.draining = false;
        }
      })(),
    );
  }

  private later(delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.kick();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(job: BotJob): Promise<void> {
    try {
      const error = await this.run(job);
      if (error === undefined) {
        await this.jobs.succeeded(job.id);
      } else if (job.attempts >= job.maxAttempts) {
        this.deps.logger.warn(
          { job: job.id, subscription: job.subscriptionId, error },
          'Bot subscription job failed',
        );
        await this.jobs.failed(job.id, error);
      } else {
        const delay = this.settings.retryDelayMs * 2 ** (job.attempts - 1);
        await this.jobs.retryLater(job.id, error, delay);
        this.later(delay);
      }
    } catch (err) {
      // The database or the server failed, not the bot: try again later as well.
      const message = err instanceof Error ? err.message : String(err);
      await this.jobs.retryLater(job.id, message, this.settings.retryDelayMs).catch(() => undefined);
      this.later(this.settings.retryDelayMs);
    }
  }

  /** One attempt; undefined when the bot ran fine, else the failure's text. Ends jobs that no longer apply. */
  private async run(job: BotJob): Promise<string | undefined> {
    const { db } = this.deps;
    if (job.attempts > job.maxAttempts) {
      return 'Gave up: the instance running the last attempt stopped before it finished';
    }
    const system = new Repository(db, systemContext());
    const subscription = await system
      .readResource<Subscription>('Subscription', job.subscriptionId)
      .catch(() => undefined);
    const botId = subscription && subscriptionBotId(subscription);
    const cancel = async (reason: string): Promise<undefined> => {
      await this.jobs.cancelled(job.id, reason);
      return undefined;
    };
    if (!subscription || !botId) return cancel('The Subscription is gone, off, or no longer runs a bot');
    const caller = await authorContext(db, subscription);
    if (!caller) return 'The Subscription’s author is no longer a member of its project';
    const version = await loadVersion(db, job.eventSeq, job.deleted);
    const input =
      version &&
      deliverableTo(
        { context: caller, criteria: parseCriteria(subscription.criteria) },
        matchTarget(version),
      );
    if (!version || !input) return cancel('The resource no longer matches or is not the author’s to read');
    let bot: Bot;
    try {
      bot = await new Repository(db, caller).readResource<Bot>('Bot', botId);
    } catch {
      return `Bot/${botId} is not readable by the Subscription’s author`;
    }
    const resourceRef = `${version.resourceType}/${version.id}`;
    const audit: ExecutionAudit = {
      entity: [
        { what: { reference: `Subscription/${subscription.id}` } },
        { what: { reference: resourceRef } } as AuditEventEntity,
      ],
      note: `Subscription/${subscription.id} on ${job.deleted ? 'delete of ' : ''}${resourceRef}: attempt ${job.attempts} of ${job.maxAttempts}`,
    };
    let result: BotExecutionResult;
    try {
      result = await executeBot(this.deps, { bot, caller, input, contentType: FHIR_JSON, audit });
    } catch (err) {
      // Could not start (no deployed code): recorded like a failed run, so it shows in the log.
      const message = err instanceof Error ? err.message : String(err);
      const now = new Date();
      await recordExecution(
        db,
        bot,
        caller,
        { ok: false, reason: 'error', error: message, logs: [] },
        now,
        now,
        audit,
      );
      return message;
    }
    return result.ok ? undefined : operationOutcomeToString(result.outcome);
  }
}
