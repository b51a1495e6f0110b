// bench/live: N sockets bound on loopback to /ws/subscriptions-r4, each to a
// Subscription on its own patient's Communications; then
//  - commit → delivery latency, p50 and p99, one write at a time (the write's promise resolving
//    is the commit; the clock stops when the client has parsed the notification);
//  - sustained writes per second with every notification delivered (concurrent writers for a
//    fixed time, each write to a random patient, the delivery lag at the end);
//  - memory per bound socket (RSS and heap growth over the sockets, server and client ends: both
//    run in this process).
// PGlite in-process (one connection: writes are serialized), unless LIVE_BENCH_DATABASE_URL names
// a PostgreSQL database (a fresh schema is used and dropped).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bundle, Communication, Parameters, Subscription, SubscriptionStatus } from '@medplum/fhirtypes';
import pg from 'pg';
import WebSocket from 'ws';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase, openPostgres } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';
import type { Database } from '../../src/server/db';
import { Repository, systemContext } from '../../src/server/repo';

export interface LiveBenchOptions {
  sockets: number;
  latencyWrites: number;
  sustainedSeconds: number;
  writers: number;
}

export interface LiveFigures {
  engine: string;
  sockets: number;
  bindSeconds: number;
  latency: { writes: number; p50Ms: number; p99Ms: number; maxMs: number };
  sustained: {
    seconds: number;
    writers: number;
    writesPerSecond: number;
    /** The same writes before any socket was bound. */
    baselineWritesPerSecond: number;
    delivered: number;
    written: number;
    finalLagMs: number;
  };
  memoryPerSocket: { rssKiB: number; heapKiB: number; externalKiB: number };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

async function openBenchDatabase(): Promise<{ db: Database; engine: string; cleanup: () => Promise<void> }> {
  const url = process.env.LIVE_BENCH_DATABASE_URL;
  if (url) {
    const schema = `bench_live_${crypto.randomBytes(3).toString('hex')}`;
    const db = await openPostgres({ connectionString: url, schema, maxConnections: 10 });
    await migrateServer(db);
    return {
      db,
      engine: 'postgres',
      cleanup: async () => {
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-live-'));
  const db = await openDatabase({ ...loadConfig({ DATA_DIR: dataDir }), databaseUrl: undefined });
  await migrateServer(db);
  return { db, engine: 'pglite', cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/** A full collection when run with --expose-gc (twice: the second frees what finalizers released). */
function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
}

export async function measureLive(options: LiveBenchOptions): Promise<LiveFigures> {
  const { db, engine, cleanup } = await openBenchDatabase();
  const config = { ...loadConfig({ LOG_LEVEL: 'warn', LIVE_HEARTBEAT_INTERVAL: '600000' }), port: 0 };
  const app = await buildServer({ config, db, getContext: () => systemContext() });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const repo = new Repository(db, systemContext());
  const sockets: WebSocket[] = [];
  try {
    const patients = Array.from({ length: options.sockets }, (_, i) => `bench-live-${i}`);
    // Deliveries by Communication id → time the client parsed it.
    const delivered = new Map<string, number>();
    let onDelivery: ((id: string) => void) | undefined;

    const write = (patient: string): Promise<Communication> =>
      repo.createResource<Communication>({
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: `Patient/${patient}` },
        payload: [{ contentString: 'bench' }],
      });
    const pick = (): string => patients[Math.floor(Math.random() * patients.length)];
    /** Concurrent writers for `seconds`; the ids written and the seconds taken. */
    const writeFor = async (seconds: number): Promise<{ ids: string[]; took: number }> => {
      const ids: string[] = [];
      const deadline = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: options.writers }, async () => {
          while (performance.now() < deadline) ids.push((await write(pick())).id as string);
        }),
      );
      return { ids, took: (performance.now() - started) / 1000 };
    };
    // The same writes with nobody listening (after a warm-up): what the store sustains alone.
    await writeFor(1);
    const baseline = await writeFor(options.sustainedSeconds);

    // Subscriptions and binding tokens first (over HTTP, 50 at a time), then the sockets alone
    // between the two memory samples.
    const tokens: string[] = [];
    for (let start = 0; start < patients.length; start += 50) {
      tokens.push(
        ...(await Promise.all(
          patients.slice(start, start + 50).map(async (patient) => {
            const subscription = await repo.createResource<Subscription>({
              resourceType: 'Subscription',
              status: 'active',
              reason: 'bench',
              criteria: `Communication?subject=Patient/${patient}`,
              channel: { type: 'websocket' },
            });
            const response = await fetch(
              `${address}/fhir/R4/Subscription/${subscription.id}/$get-ws-binding-token`,
            );
            const parameters = (await response.json()) as Parameters;
            return parameters.parameter?.find((p) => p.name === 'token')?.valueString as string;
          }),
        )),
      );
    }
    gc();
    const before = process.memoryUsage();
    const bindStart = performance.now();
    for (let start = 0; start < tokens.length; start += 50) {
      await Promise.all(
        tokens.slice(start, start + 50).map(async (token) => {
          const ws = new WebSocket(`${address.replace('http', 'ws')}/ws/subscriptions-r4`);
          sockets.push(ws);
          await new Promise<void>((resolve, reject) => {
            ws.once('error', reject);
            ws.on('message', (data) => {
              const bundle = JSON.parse(data.toString()) as Bundle;
              const status = bundle.entry?.[0]?.resource as SubscriptionStatus | undefined;
              if (status?.type === 'handshake') resolve();
              if (status?.type === 'event-notification') {
                const id = status.notificationEvent?.[0]?.focus?.reference?.split('/')[1] ?? '';
                delivered.set(id, performance.now());
                onDelivery?.(id);
              }
            });
            ws.once('open', () => ws.send(JSON.stringify({ type: 'bind-with-token', payload: { token } })));
          });
        }),
      );
    }
    const bindSeconds = (performance.now() - bindStart) / 1000;
    gc();
    const after = process.memoryUsage();

    // Latency: one write at a time, waiting for its notification.
    const latencies: number[] = [];
    for (let i = 0; i < options.latencyWrites; i++) {
      const waitFor = new Promise<string>((resolve) => {
        onDelivery = resolve;
      });
      const written = await write(pick());
      const committed = performance.now();
      let id = delivered.has(written.id as string) ? (written.id as string) : await waitFor;
      while (id !== written.id) id = await new Promise<string>((resolve) => (onDelivery = resolve));
      latencies.push((delivered.get(written.id as string) as number) - committed);
    }
    onDelivery = undefined;
    latencies.sort((a, b) => a - b);

    // Sustained: concurrent writers for a fixed time, then wait for the last deliveries.
    const { ids, took: writeSeconds } = await writeFor(options.sustainedSeconds);
    const lastWrite = performance.now();
    const settleBy = lastWrite + 30_000;
    while (ids.some((id) => !delivered.has(id)) && performance.now() < settleBy) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const deliveredCount = ids.filter((id) => delivered.has(id)).length;
    const finalLagMs = Math.max(0, ...ids.map((id) => (delivered.get(id) ?? settleBy) - lastWrite));

    return {
      engine,
      sockets: options.sockets,
      bindSeconds: round(bindSeconds),
      latency: {
        writes: latencies.length,
        p50Ms: round(percentile(latencies, 0.5)),
        p99Ms: round(percentile(latencies, 0.99)),
        maxMs: round(latencies[latencies.length - 1]),
      },
      sustained: {
        seconds: round(writeSeconds),
        writers: options.writers,
        written: ids.length,
        delivered: deliveredCount,
        writesPerSecond: round(deliveredCount / writeSeconds, 0),
        baselineWritesPerSecond: round(baseline.ids.length / baseline.took, 0),
        finalLagMs: round(finalLagMs),
      },
      memoryPerSocket: {
        rssKiB: round((after.rss - before.rss) / options.sockets / 1024, 1),
        heapKiB: round((after.heapUsed - before.heapUsed) / options.sockets / 1024, 1),
        externalKiB: round((after.external - before.external) / options.sockets / 1024, 1),
      },
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    await app.close();
    await db.close();
    await cleanup();
  }
}

export function formatLive(f: LiveFigures): string {
  return [
    `live (${f.engine}, ${f.sockets} sockets bound on loopback in ${f.bindSeconds} s, one Subscription per patient):`,
    `  commit → delivery, ${f.latency.writes} writes one at a time: p50 ${f.latency.p50Ms} ms, p99 ${f.latency.p99Ms} ms, max ${f.latency.maxMs} ms`,
    `  sustained, ${f.sustained.writers} writers for ${f.sustained.seconds} s: ${f.sustained.writesPerSecond} writes/s delivered ` +
      `(${f.sustained.delivered}/${f.sustained.written}; ${f.sustained.baselineWritesPerSecond} writes/s with no socket bound), ` +
      `last delivery ${f.sustained.finalLagMs} ms after the last write`,
    `  memory per bound socket (server and client ends, one process): RSS ${f.memoryPerSocket.rssKiB} KiB, heap ${f.memoryPerSocket.heapKiB} KiB, external ${f.memoryPerSocket.externalKiB} KiB`,
  ].join('\n');
}

export function liveBenchOptionsFromEnv(): LiveBenchOptions {
  const int = (name: string, fallback: number): number => Number(process.env[name] ?? fallback) || fallback;
  return {
    sockets: int('LIVE_BENCH_SOCKETS', 1000),
    latencyWrites: int('LIVE_BENCH_LATENCY_WRITES', 300),
    sustainedSeconds: int('LIVE_BENCH_SECONDS', 5),
    writers: int('LIVE_BENCH_WRITERS', 8),
  };
}
