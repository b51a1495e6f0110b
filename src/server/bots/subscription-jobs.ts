// The job rows of Subscription → Bot executions ("runs the bot on each matching write ... with
// retries"; table bot_subscription_job, bots/migrations.ts). Every instance hears every write, so
// the first instance to insert (subscription, event) owns it (the unique key drops the others'
// copies); a job is then claimed with a lease (FOR UPDATE SKIP LOCKED), so one instance runs each
// attempt, and a job whose instance stopped is taken over when its lease runs out. Failed attempts
// wait a doubling delay; after the last one the job stays 'failed' with its error (the AuditEvents
// tell the details).
import type { Queryable } from '../db';

export type BotJobStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface BotJob {
  id: string;
  subscriptionId: string;
  eventSeq: string;
  deleted: boolean;
  status: BotJobStatus;
  /** Attempts started so far, this one included once claimed. */
  attempts: number;
  maxAttempts: number;
  lastError: string | undefined;
}

interface JobRow {
  id: string;
  subscription_id: string;
  event_seq: string;
  deleted: boolean;
  status: BotJobStatus;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
}

function toJob(row: JobRow): BotJob {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    eventSeq: row.event_seq,
    deleted: row.deleted,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    lastError: row.last_error ?? undefined,
  };
}

const COLUMNS =
  'id::text AS id, subscription_id, event_seq::text AS event_seq, deleted, status, attempts, max_attempts, last_error';

export class BotJobStore {
  constructor(private readonly db: Queryable) {}

  /** True when this call created the job (another instance may have been first). */
  async enqueue(
    subscriptionId: string,
    eventSeq: string,
    deleted: boolean,
    maxAttempts: number,
  ): Promise<boolean> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO bot_subscription_job (subscription_id, event_seq, deleted, max_attempts)
       VALUES ($1, $2::bigint, $3, $4)
       ON CONFLICT (subscription_id, event_seq) DO NOTHING RETURNING id::text AS id`,
      [subscriptionId, eventSeq, deleted, maxAttempts],
    );
    return rows.length > 0;
  }

  /** Up to `limit` due jobs (pending and due, or running with an expired lease), now leased to the caller. */
  async claimDue(limit: number, leaseMs: number): Promise<BotJob[]> {
    const { rows } = await this.db.query<JobRow>(
      `UPDATE bot_subscription_job SET status = 'running', attempts = attempts + 1,
              locked_until = now() + $2 * interval '1 millisecond', updated_at = now()
        WHERE id IN (
          SELECT id FROM bot_subscription_job
           WHERE (status = 'pending' AND next_attempt_at <= now())
              OR (status = 'running' AND locked_until < now())
           ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING ${COLUMNS}`,
      [limit, leaseMs],
    );
    return rows.map(toJob);
  }

  async succeeded(id: string): Promise<void> {
    await this.finish(id, 'succeeded', undefined);
  }

  /** Not to be run (the Subscription is gone or off): no failure to report. */
  async cancelled(id: string, reason: string): Promise<void> {
    await this.finish(id, 'cancelled', reason);
  }

  async failed(id: string, error: string): Promise<void> {
    await this.finish(id, 'failed', error);
  }

  /** Back to pending, due in `delayMs`. */
  async retryLater(id: string, error: string, delayMs: number): Promise<void> {
    await this.db.query(
      `UPDATE bot_subscription_job SET status = 'pending', last_error = $2, locked_until = NULL,
              next_attempt_at = now() + $3 * interval '1 millisecond', updated_at = now()
        WHERE id = $1::bigint`,
      [id, error, delayMs],
    );
  }

  async forSubscription(subscriptionId: string): Promise<BotJob[]> {
    const { rows } = await this.db.query<JobRow>(
      `SELECT ${COLUMNS} FROM bot_subscription_job WHERE subscription_id = $1 ORDER BY id`,
      [subscriptionId],
    );
    return rows.map(toJob);
  }

  private async finish(id: string, status: BotJobStatus, error: string | undefined): Promise<void> {
    await this.db.query(
      `UPDATE bot_subscription_job SET status = $2, last_error = $3, locked_until = NULL, updated_at = now()
        WHERE id = $1::bigint`,
      [id, status, error ?? null],
    );
  }
}
