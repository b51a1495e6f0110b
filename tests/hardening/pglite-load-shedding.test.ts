// Load shedding on PGlite (src/server/load-shedding.ts): PGlite runs one query at a time, so under
// more connections than it can serve its queue grew until clients gave up (640 timeouts of 10 s at
// 128 connections in bench/soak.ts). Once the oldest waiting query has waited PGLITE_MAX_QUEUE_WAIT,
// new requests get 503 with Retry-After and an OperationOutcome at once, nothing of theirs is done,
// and the health check still answers within 1 s. Controls: the same full queue under a bound it
// does not pass (every request waits and succeeds), and PostgreSQL, whose pool is never shed.
// Real HTTP, real databases.
import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import type { Database } from '../../src/server/db';
import { databases } from '../server/support/test-databases';
import type { TestDatabaseKind } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

const engines = databases();
const pglite = engines.find(([engine]) => engine === 'pglite')?.[1] as TestDatabaseKind;
const postgres = engines.find(([engine]) => engine === 'postgres')?.[1];

const BOUND_MS = 300;

/** Queues `count` queries of `seconds` each on the database; resolves when all are done. */
function fillQueue(db: Database, count: number, seconds: number): Promise<unknown> {
  return Promise.all(Array.from({ length: count }, () => db.query(`SELECT pg_sleep(${seconds})`)));
}

/** Waits until the oldest waiting query has waited longer than `ms`. */
async function queueOlderThan(db: Database, ms: number): Promise<void> {
  const deadline = performance.now() + 10_000;
  while ((db.queueWaitMs?.() ?? 0) <= ms) {
    if (performance.now() > deadline) throw new Error(`the queue never waited ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function queueDrained(db: Database): Promise<void> {
  const deadline = performance.now() + 10_000;
  while ((db.queueWaitMs?.() ?? 0) > 0) {
    if (performance.now() > deadline) throw new Error('the queue never drained');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function timed(url: string, init?: RequestInit) {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  return { response, text, ms: performance.now() - started };
}

function createPatient(server: TestServer, family: string) {
  return timed(`${server.fhirUrl}Patient`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: JSON.stringify({ resourceType: 'Patient', name: [{ family }] }),
  });
}

async function countPatients(server: TestServer, family: string): Promise<number> {
  const { response, text } = await timed(`${server.fhirUrl}Patient?family=${family}&_total=accurate`);
  expect(response.status).toBe(200);
  return (JSON.parse(text) as Bundle).total ?? -1;
}

describe('PGlite load shedding', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(pglite, { PGLITE_MAX_QUEUE_WAIT: String(BOUND_MS) });
  });

  afterAll(async () => {
    await server.close();
  });

  test('a full queue: 503 with Retry-After and an OperationOutcome at once, nothing stored, the health check answers', async () => {
    // About 3 s of queued work, much longer than the bound.
    const filled = fillQueue(server.db, 10, 0.3);
    await queueOlderThan(server.db, BOUND_MS);

    const search = await timed(`${server.fhirUrl}Patient?family=Shed`);
    expect(search.response.status).toBe(503);
    expect(search.response.headers.get('content-type')).toContain('application/fhir+json');
    const retryAfter = Number(search.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    const outcome = JSON.parse(search.text) as OperationOutcome;
    expect(outcome.resourceType).toBe('OperationOutcome');
    expect(outcome.issue?.[0]).toMatchObject({ severity: 'error', code: 'transient' });
    expect(outcome.issue?.[0]?.details?.text).toMatch(/server is busy.*retry after \d+ s/i);
    // Answered without waiting for the queue (which holds seconds of work).
    expect(search.ms).toBeLessThan(1000);

    const write = await createPatient(server, 'Shed');
    expect(write.response.status).toBe(503);
    expect(write.ms).toBeLessThan(1000);

    const health = await timed(`${server.baseUrl}healthcheck`);
    expect(health.response.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ ok: true, database: 'pglite' });
    expect(health.ms).toBeLessThan(1000);

    await filled;
    // The queue has drained: requests are served again, and the refused write left nothing.
    // The server's own background queries queued behind the filler may still be answering.
    await queueDrained(server.db);
    expect(await countPatients(server, 'Shed')).toBe(0);
    const after = await createPatient(server, 'Served');
    expect(after.response.status).toBe(201);
    expect(await countPatients(server, 'Served')).toBe(1);
  });

  test('control: the same full queue under a bound it does not pass: requests wait and succeed', async () => {
    const patient = await startTestServer(pglite, { PGLITE_MAX_QUEUE_WAIT: '60000' });
    try {
      const filled = fillQueue(patient.db, 10, 0.3);
      await queueOlderThan(patient.db, BOUND_MS);
      const search = await timed(`${patient.fhirUrl}Patient?family=Shed`);
      const write = await createPatient(patient, 'Waited');
      expect(search.response.status).toBe(200);
      expect(write.response.status).toBe(201);
      await filled;
      expect(await countPatients(patient, 'Waited')).toBe(1);
    } finally {
      await patient.close();
    }
  });
});

// Only with TEST_DATABASE_URL (as every PostgreSQL suite here).
if (postgres) {
  describe('PostgreSQL is not shed (its pool has no queue on this thread)', () => {
    test('a busy connection of the pool: requests are served', async () => {
      const server = await startTestServer(postgres, {
        PGLITE_MAX_QUEUE_WAIT: String(BOUND_MS),
      });
      try {
        expect(server.db.queueWaitMs).toBeUndefined();
        const busy = server.db.query('SELECT pg_sleep(1.5)');
        await new Promise((resolve) => setTimeout(resolve, BOUND_MS + 200));
        const search = await timed(`${server.fhirUrl}Patient?family=Shed`);
        expect(search.response.status).toBe(200);
        await busy;
      } finally {
        await server.close();
      }
    });
  });
}
