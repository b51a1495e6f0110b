// A request's share of PGlite's one worker: how long its statements have waited in the worker's
// queue, summed over the request. Load shedding (load-shedding.ts) refuses a request at admission
// when the queue is already long; this carries the same bound through the request, so an admitted
// request that sends several statements cannot take several times the bound.
//
// Where it may refuse: only before a statement sent outside a transaction, and only while the
// request has written nothing. Its first write (a transaction begun, or a statement other than a
// plain SELECT) commits it to run to the end, waits and all: refusing later would answer 503 for a
// request that changed data, or cut a transaction in the middle. So a refusal always means nothing
// of the request was done.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { RetryAfterError } from './retry-after';

/** The longest Retry-After sent, in seconds. */
export const MAX_RETRY_AFTER = 30;

export function busyOutcome(text: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    id: 'service-unavailable',
    issue: [{ severity: 'error', code: 'transient', details: { text } }],
  };
}

/** About as long as the queue has been building up: by then it has likely drained. */
export function retryAfterSeconds(waitedMs: number): number {
  return Math.min(MAX_RETRY_AFTER, Math.max(1, Math.ceil(waitedMs / 1000)));
}

/** A statement starts a write when it is anything but a plain SELECT (WITH may hold an INSERT). */
const READ_ONLY = /^\s*SELECT\b/i;

export class RequestWait {
  /** ms this request's statements have waited for the worker so far. */
  waitedMs = 0;
  /** Set by the first write, or once the answer is sent: from then on nothing is refused. */
  private settled = false;
  /**
   * The refusal, once made. Every later statement of the request is refused too, so a refused
   * request never writes: routes that catch errors (GraphQL's) answer it.
   */
  refusal?: RetryAfterError;

  constructor(readonly limitMs: number) {}

  /** Answered: work this request left running (a cache fill, a trigger) is no longer its to refuse. */
  end(): void {
    this.settled = true;
  }

  /**
   * Before a statement outside a transaction (`sql`), or before a transaction begins (no `sql`):
   * throws the 503 when this request's wait so far plus the wait ahead (`queueWaitMs`) passes the bound.
   */
  admit(queueWaitMs: number, sql?: string): void {
    if (this.settled) return;
    // Once refused, always refused: the queue may have drained, but a later write would then run
    // under an answer that says nothing was done.
    if (this.refusal) throw this.refusal;
    const projected = this.waitedMs + queueWaitMs;
    if (projected > this.limitMs) {
      const retryAfter = retryAfterSeconds(projected);
      this.refusal = new RetryAfterError(
        busyOutcome(
          `The server is busy: this request would wait more than ${this.limitMs} ms for its database ` +
            `(${Math.round(projected)} ms). Nothing was done; retry after ${retryAfter} s.`,
        ),
        retryAfter,
      );
      throw this.refusal;
    }
    if (sql === undefined || !READ_ONLY.test(sql)) this.settled = true;
  }

  /** After a statement was answered: it had waited `ms` before the worker took it. */
  waited(ms: number): void {
    this.waitedMs += ms;
  }
}

const current = new AsyncLocalStorage<RequestWait>();

/** Makes `wait` the current request's for the rest of its handling (called from an onRequest hook). */
export function enterRequestWait(wait: RequestWait): void {
  current.enterWith(wait);
}

/** The request being handled, when it is bounded (an API request on PGlite). */
export function currentRequestWait(): RequestWait | undefined {
  return current.getStore();
}
