// A mixed search load over loopback HTTP (autocannon, 10 connections) against the API in a child
// process, reported as requests/s per server CPU core: the server's CPU time (the Node process,
// plus its own PostgreSQL backends when on PostgreSQL) divided by the wall time gives the cores used.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { seededRandom } from './dataset';
import type { BenchDatabaseLocation } from './database';
import { BENCH_SERVER_APPLICATION } from './database';
import type { HotQuery } from './hot-queries';

export interface HttpLoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  serverCores: number;
  /** Of serverCores: the PostgreSQL backends' share (0 on PGlite, which runs inside the Node process). */
  postgresCores: number;
  requestsPerSecondPerCore: number;
}

/** The Health Samurai FHIR benchmark's search throughput, each server on 8 CPUs. */
export const PUBLISHED_SEARCH_RPS = { Aidbox: 3400, Medplum: 1800, HAPI: 1000 } as const;

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds each process has used so far. */
function cpuSecondsOf(pids: readonly number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND); // utime, stime
    } catch {
      // The process ended while we read.
    }
  }
  return seconds;
}

/**
 * The PostgreSQL backends serving the bench server (by application_name): only theirs is counted,
 * not the CPU of other databases' backends on a shared cluster.
 */
async function serverBackends(connectionString: string): Promise<number[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [BENCH_SERVER_APPLICATION],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

export async function measureHttpLoad(
  location: BenchDatabaseLocation,
  queries: HotQuery[],
  options: { seconds: number; connections: number },
): Promise<HttpLoadFigures> {
  // SEARCH_BENCH_PROFILE_DIR=dir writes the server's V8 CPU profile there (open it in Chrome DevTools).
  const profileDir = process.env.SEARCH_BENCH_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'bench/search/http-server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, SEARCH_BENCH_LOCATION: JSON.stringify(location) },
  });
  try {
    const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const first = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`search bench server exited with ${code}`)));
    });
    const { url } = JSON.parse(first) as { url: string };
    const childCpu = (): Promise<number> =>
      new Promise((resolve) => {
        child.once('message', (message) => {
          const { cpu } = message as { cpu: NodeJS.CpuUsage };
          resolve((cpu.user + cpu.system) / 1e6);
        });
        child.send('cpu');
      });
    const random = seededRandom(11);
    // Layout comparisons search the same URL as their query: the mix holds each URL once.
    const mix = queries.filter((query) => !query.searchOptions);
    const paths = Array.from({ length: 5000 }, (_, i) => `/fhir/R4/${mix[i % mix.length].pick(random).url}`);
    let next = 0;
    const requests = [
      {
        method: 'GET' as const,
        setupRequest: (request: object) => ({ ...request, path: paths[next++ % paths.length] }),
      },
    ];
    // A short warm-up, not measured.
    await autocannon({ url, connections: options.connections, duration: 2, requests });
    const postgres = location.engine === 'postgres' ? (location.connectionString as string) : undefined;
    const backendsBefore = postgres
      ? cpuSecondsOf(await serverBackends(postgres))
      : new Map<number, number>();
    const cpuBefore = await childCpu();
    const started = performance.now();
    const result = await autocannon({
      url,
      connections: options.connections,
      duration: options.seconds,
      requests,
    });
    const wall = (performance.now() - started) / 1000;
    const cpuAfter = await childCpu();
    let backendCpu = 0;
    if (postgres) {
      // A backend opened during the run started from zero.
      for (const [pid, seconds] of cpuSecondsOf(await serverBackends(postgres))) {
        backendCpu += seconds - (backendsBefore.get(pid) ?? 0);
      }
    }
    const serverCores = (cpuAfter - cpuBefore + backendCpu) / wall;
    return {
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.non2xx,
      serverCores: Number(serverCores.toFixed(2)),
      postgresCores: Number((backendCpu / wall).toFixed(2)),
      requestsPerSecondPerCore: Number((result.requests.average / Math.max(serverCores, 0.01)).toFixed(0)),
    };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited; // the profile is written as the child exits
  }
}
