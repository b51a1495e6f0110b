// Load shedding for an engine that runs one query at a time (embedded PGlite): once the oldest
// query waiting for it has waited longer than PGLITE_MAX_QUEUE_WAIT, a new request is answered 503
// with Retry-After at once, before it does any work, instead of joining a queue that would outlast
// the client's patience (at 128 connections the queue grew until clients gave up after 10 s). A
// request already admitted runs to the end, so nothing is left half-done. The health check is exempt:
// a busy server is alive. PostgreSQL (a pool) has no such queue on this thread: nothing is shed there.
//
// What an attacker can do with it: anyone who can keep the queue longer than the bound (a flood of
// requests, or one expensive search from a signed-in user) makes legitimate requests fail fast with
// 503 while it lasts, where without shedding they would wait and time out. It adds no way in and no
// information (the 503 is sent before authentication and says only that the server is busy); the
// bounds on one request's work (input-limits.ts) keep a single request from holding the queue long.
import type { OperationOutcome } from '@medplum/fhirtypes';
import type { FastifyInstance } from 'fastify';
import type { Database } from './db';
import { FHIR_JSON } from './media-types';

/** Paths answered even when shedding: liveness probes must see a busy server as alive. */
const EXEMPT_PATHS = new Set(['/healthcheck']);

/** The longest Retry-After sent, in seconds. */
const MAX_RETRY_AFTER = 30;

/** How often a shedding server logs that it is shedding (one line per period, with the count). */
const LOG_PERIOD_MS = 10_000;

export function busyOutcome(waitedMs: number, retryAfterSeconds: number): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'transient',
        details: {
          text:
            `The server is busy: its database queue has waited ${Math.round(waitedMs)} ms. ` +
            `Nothing was done; retry after ${retryAfterSeconds} s.`,
        },
      },
    ],
  };
}

/** Adds the onRequest hook; a no-op for an engine without a queue of its own. */
export function registerLoadShedding(app: FastifyInstance, db: Database, maxQueueWaitMs: number): void {
  if (!db.queueWaitMs) return;
  const queueWaitMs = db.queueWaitMs.bind(db);
  let shed = 0;
  let lastLog = -Infinity;
  app.addHook('onRequest', async (request, reply) => {
    const waited = queueWaitMs();
    if (waited <= maxQueueWaitMs || EXEMPT_PATHS.has(request.url.split('?')[0])) return;
    // About as long as the queue ahead has been building up: by then it has likely drained.
    const retryAfter = Math.min(MAX_RETRY_AFTER, Math.max(1, Math.ceil(waited / 1000)));
    shed++;
    const now = performance.now();
    if (now - lastLog >= LOG_PERIOD_MS) {
      request.log.warn(
        { shed, queueWaitMs: Math.round(waited) },
        'Database queue over PGLITE_MAX_QUEUE_WAIT: answering 503',
      );
      lastLog = now;
      shed = 0;
    }
    return reply
      .status(503)
      .header('retry-after', String(retryAfter))
      .type(FHIR_JSON)
      .send(busyOutcome(waited, retryAfter));
  });
}
