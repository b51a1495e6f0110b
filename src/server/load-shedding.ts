// Load shedding for an engine that runs one query at a time (embedded PGlite): once the oldest
// query waiting for it has waited longer than PGLITE_MAX_QUEUE_WAIT, a new request is answered 503
// with Retry-After at once, before it does any work, instead of joining a queue that would outlast
// the client's patience (at 128 connections the queue grew until clients gave up after 10 s). An
// admitted request is held to the same bound over all its statements (request-wait.ts): refused
// with the same 503 before its first write if their waits add up past it, never after, so nothing is
// left half-done. The health check is exempt: a busy server is alive. PostgreSQL (a pool) has no
// such queue on this thread: nothing is shed there.
//
// What an attacker can do with it: anyone who can keep the queue longer than the bound (a flood of
// requests, or one expensive search from a signed-in user) makes legitimate requests fail fast with
// 503 while it lasts, where without shedding they would wait and time out. It adds no way in and no
// information (the 503 says only that the server is busy, and at admission it comes before
// authentication); the bounds on one request's work (input-limits.ts) keep a single request from
// holding the queue long.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from './db';
import { FHIR_JSON } from './media-types';
import { busyOutcome, enterRequestWait, RequestWait, retryAfterSeconds } from './request-wait';

/** Paths answered even when shedding: liveness probes must see a busy server as alive. */
const EXEMPT_PATHS = new Set(['/healthcheck']);

/** How often a shedding server logs that it is shedding (one line per period, with the count). */
const LOG_PERIOD_MS = 10_000;

/** Adds the hooks; a no-op for an engine without a queue of its own. */
export function registerLoadShedding(app: FastifyInstance, db: Database, maxQueueWaitMs: number): void {
  if (!db.queueWaitMs) return;
  const queueWaitMs = db.queueWaitMs.bind(db);
  const waits = new WeakMap<FastifyRequest, RequestWait>();
  let shed = 0;
  let lastLog = -Infinity;
  const logShed = (request: FastifyRequest, waited: number, message: string): void => {
    shed++;
    const now = performance.now();
    if (now - lastLog < LOG_PERIOD_MS) return;
    request.log.warn({ shed, queueWaitMs: Math.round(waited) }, message);
    lastLog = now;
    shed = 0;
  };

  // A callback hook, so that the request's wait is entered in the context its handler runs in.
  app.addHook('onRequest', (request, reply, done) => {
    if (EXEMPT_PATHS.has(request.url.split('?')[0])) return done();
    const waited = queueWaitMs();
    if (waited <= maxQueueWaitMs) {
      const wait = new RequestWait(maxQueueWaitMs);
      waits.set(request, wait);
      enterRequestWait(wait);
      return done();
    }
    const retryAfter = retryAfterSeconds(waited);
    logShed(request, waited, 'Database queue over PGLITE_MAX_QUEUE_WAIT: answering 503');
    void reply
      .status(503)
      .header('retry-after', String(retryAfter))
      .type(FHIR_JSON)
      .send(
        busyOutcome(
          `The server is busy: its database queue has waited ${Math.round(waited)} ms. ` +
            `Nothing was done; retry after ${retryAfter} s.`,
        ),
      );
  });

  app.addHook('onResponse', (request, _reply, done) => {
    const wait = waits.get(request);
    wait?.end();
    if (wait?.refusal) {
      logShed(request, wait.waitedMs, 'A request waited over PGLITE_MAX_QUEUE_WAIT in all: answering 503');
    }
    done();
  });
}
