// Load shedding on PGlite (src/server/load-shedding.ts): PGlite runs one query at a time, so under
// more connections than it can serve its queue grew until clients gave up (640 timeouts of 10 s at
// 128 connections in bench/soak.ts). Once the oldest waiting query has waited PGLITE_MAX_QUEUE_WAIT,
// new requests get 503 with Retry-After and an OperationOutcome at once, nothing of theirs is done,
// and the health check still answers within 1 s. Controls: the same full queue under a bound it
// does not pass (every request waits and succeeds), and PostgreSQL, whose pool is never shed.
// Real HTTP, real databases.
import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import type { Database } from '../../src/server/db';
// Gives Node what @medplum/core expects of a browser (its global WebSocket) before it loads.
import '../conformance/medplum-sdk/support/medplum-client';
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

/**
 * Keeps the queue full without letting its oldest query age past the bound: `depth` queries of
 * `seconds` each are always waiting, so every statement sent meanwhile waits about one of them.
 */
function keepBusy(db: Database, depth: number, seconds: number): { stop(): Promise<void> } {
  let running = true;
  const lane = async (): Promise<void> => {
    while (running) await db.query(`SELECT pg_sleep(${seconds})`);
  };
  const lanes = Array.from({ length: depth }, lane);
  return {
    stop: async () => {
      running = false;
      await Promise.all(lanes);
    },
  };
}

/** A batch of `reads` searches then one create: each search a statement outside any transaction. */
function readsThenCreate(reads: number, family: string): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'batch',
    entry: [
      ...Array.from({ length: reads }, (_, i) => ({
        request: { method: 'GET' as const, url: `Patient?family=Nobody${i}` },
      })),
      {
        request: { method: 'POST' as const, url: 'Patient' },
        resource: { resourceType: 'Patient' as const, name: [{ family }] },
      },
    ],
  };
}

function postBatch(server: TestServer, bundle: Bundle) {
  return timed(server.fhirUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: JSON.stringify(bundle),
  });
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

  test('an admitted request whose statements wait past the bound in all: 503 before its write, nothing stored', async () => {
    // Each statement waits about 150 ms, so the queue never looks old at admission, but eight
    // searches and a create would wait about 1.3 s in all, over four times the bound.
    const busy = keepBusy(server.db, 1, 0.15);
    try {
      const [batch, health] = await Promise.all([
        postBatch(server, readsThenCreate(8, 'HalfWritten')),
        new Promise((resolve) => setTimeout(resolve, 100)).then(() => timed(`${server.baseUrl}healthcheck`)),
      ]);
      expect(batch.response.status).toBe(503);
      const retryAfter = Number(batch.response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(30);
      const outcome = JSON.parse(batch.text) as OperationOutcome;
      expect(outcome.resourceType).toBe('OperationOutcome');
      expect(outcome.issue?.[0]).toMatchObject({ severity: 'error', code: 'transient' });
      expect(outcome.issue?.[0]?.details?.text).toMatch(
        /server is busy.*nothing was done.*retry after \d+ s/i,
      );
      expect(health.response.status).toBe(200);
      expect(health.ms).toBeLessThan(1000);
      console.log(
        `refused after ${Math.round(batch.ms)} ms (bound ${BOUND_MS} ms); health check ${Math.round(health.ms)} ms`,
      );
    } finally {
      await busy.stop();
    }
    await queueDrained(server.db);
    expect(await countPatients(server, 'HalfWritten')).toBe(0);
  });

  test("Medplum's own client: the busy batch is answered 503, retried, and stored once", async () => {
    const busy = keepBusy(server.db, 1, 0.15);
    const statuses: number[] = [];
    let stopped: Promise<void> | undefined;
    const { MedplumClient } = await import('@medplum/core');
    const medplum = new MedplumClient({
      baseUrl: server.baseUrl,
      fhirUrlPath: 'fhir/R4',
      fetch: async (url: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(url, init);
        statuses.push(response.status);
        // The first refusal ends the load, as a burst would: the client's retry finds a free queue.
        if (response.status === 503) stopped ??= busy.stop();
        return response;
      },
    });
    try {
      const answer = await medplum.executeBatch(readsThenCreate(8, 'RetriedByMedplum'));
      expect(statuses[0]).toBe(503);
      expect(statuses.at(-1)).toBe(200);
      expect(answer.entry?.map((entry) => entry.response?.status).at(-1)).toBe('201');
    } finally {
      await (stopped ?? busy.stop());
    }
    expect(await countPatients(server, 'RetriedByMedplum')).toBe(1);
  });

  test('control: the same batch under a bound it does not pass waits it out and is served in full', async () => {
    const patient = await startTestServer(pglite, { PGLITE_MAX_QUEUE_WAIT: '60000' });
    const busy = keepBusy(patient.db, 1, 0.15);
    try {
      const batch = await postBatch(patient, readsThenCreate(8, 'WaitedOut'));
      expect(batch.response.status).toBe(200);
      const statuses = (JSON.parse(batch.text) as Bundle).entry?.map((entry) => entry.response?.status);
      expect(statuses).toEqual([...Array.from({ length: 8 }, () => '200'), '201']);
      console.log(`served in ${Math.round(batch.ms)} ms with no per-request bound`);
    } finally {
      await busy.stop();
    }
    expect(await countPatients(patient, 'WaitedOut')).toBe(1);
    await patient.close();
  });

  test('a transaction is decided before it begins: under the same queue it is stored whole', async () => {
    const busy = keepBusy(server.db, 1, 0.15);
    let status: number;
    try {
      const transaction: Bundle = {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: Array.from({ length: 5 }, () => ({
          request: { method: 'POST' as const, url: 'Patient' },
          resource: { resourceType: 'Patient' as const, name: [{ family: 'Whole' }] },
        })),
      };
      status = (await postBatch(server, transaction)).response.status;
    } finally {
      await busy.stop();
    }
    await queueDrained(server.db);
    // Admitted (the queue was short), it ran to its end although its statements kept waiting.
    expect(status).toBe(200);
    expect(await countPatients(server, 'Whole')).toBe(5);
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
        // Nor are a request's statements bounded in all: the same batch as on PGlite is served.
        const pool = keepBusy(server.db, 1, 0.15);
        const batch = await postBatch(server, readsThenCreate(8, 'PoolServed'));
        await pool.stop();
        expect(batch.response.status).toBe(200);
        expect(await countPatients(server, 'PoolServed')).toBe(1);
      } finally {
        await server.close();
      }
    });
  });
}
