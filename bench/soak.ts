// A short soak: the real server (`src/server/main.ts`, PGlite in a new DATA_DIR, demo clinic
// seeded) takes a mix of reads, searches and creates over loopback (autocannon) at 32 and then
// 128 connections, signed in as the demo admin. Reports per level: requests/s, p99, errors
// (socket errors, timeouts and non-2xx answers), and the server's RSS before the load, right
// after it and after 5 s of rest (memory must come back down). SOAK_SECONDS sets each level's
// length (default 30: 60 s in all). Alone (`npx tsx bench/soak.ts`) it also runs on PostgreSQL when
// SOAK_DATABASE_URL names a server: a database of its own is created there and dropped afterwards.
// The machine's load average is printed with each level: the figures depend on what else runs.
// Each level also polls the health check (its slowest answer). SOAK_COMPARE=1 runs PGlite with load
// shedding off and on (PGLITE_MAX_QUEUE_WAIT; SOAK_QUEUE_WAIT sets the "on" bound), SOAK_ROUNDS
// rounds (default 2) alternating which runs first, and prints them side by side.
// The server's own heap figures (process.memoryUsage(): heapUsed, heapTotal, external) come over an
// IPC channel from a preload (bench/support/memory-report.mjs), before each level and after its rest
// (each after a forced full GC) and right after it: whether the RSS kept after a level is live data (a leak grows
// heapUsed from level to level) or freed pages V8 and malloc keep. SOAK_REPEAT=n runs the levels n
// times on the same server (default 1), so growth from one round to the next shows.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

export interface SoakLevel {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  /**
   * Of errors: socket errors (by code), timeouts (no answer within autocannon's 10 s) and non-2xx
   * answers (by status). autocannon's own `errors` already includes its timeouts: they are taken
   * out of `socket` so nothing is counted twice.
   */
  errorKinds: {
    socket: number;
    timeouts: number;
    non2xx: number;
    socketCodes: Record<string, number>;
    statuses: Record<string, number>;
  };
  rssBeforeMb: number;
  rssAfterMb: number;
  rssRestedMb: number;
  /** The server's process.memoryUsage() before (after a forced full GC), right after, and rested (after a GC). */
  memoryBefore: MemoryFigures;
  memoryAfter: MemoryFigures;
  memoryRested: MemoryFigures;
  /** The 1-minute load average when the level started and when it ended. */
  loadBefore: number;
  loadAfter: number;
  /** GET /healthcheck every 250 ms during the level: the slowest answer and the answers not 200. */
  healthMaxMs: number;
  healthFailures: number;
}

const LEVELS = [32, 128];
const REST_MS = 5000;

/** process.memoryUsage() in MB; `collected` when a full GC ran just before. */
export interface MemoryFigures {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  collected: boolean;
}

let memoryRequests = 0;

/** The server's own process.memoryUsage(), asked over IPC (bench/support/memory-report.mjs). */
function serverMemory(child: ChildProcess, gc = false): Promise<MemoryFigures> {
  const id = ++memoryRequests;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error('the soak server did not report its memory within 30 s'));
    }, 30_000);
    const onMessage = (message: unknown): void => {
      const report = message as {
        type?: string;
        id?: number;
        collected?: boolean;
        usage?: NodeJS.MemoryUsage;
      };
      if (report.type !== 'memory' || report.id !== id || !report.usage) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
      resolve({
        rssMb: mb(report.usage.rss),
        heapUsedMb: mb(report.usage.heapUsed),
        heapTotalMb: mb(report.usage.heapTotal),
        externalMb: mb(report.usage.external),
        arrayBuffersMb: mb(report.usage.arrayBuffers),
        collected: report.collected === true,
      });
    };
    child.on('message', onMessage);
    child.send({ type: 'memory', id, gc });
  });
}

function formatMemory(figures: MemoryFigures): string {
  return (
    `heap ${figures.heapUsedMb}/${figures.heapTotalMb} MB, external ${figures.externalMb} MB ` +
    `(array buffers ${figures.arrayBuffersMb}), RSS ${figures.rssMb} MB${figures.collected ? ' after GC' : ''}`
  );
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function startServer(
  dataDir: string,
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; baseUrl: string }> {
  let output = '';
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--import', './bench/support/memory-report.mjs', 'src/server/main.ts'],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        PORT: '0',
        APP_PORT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const banner = /FHIR API:\s+(http:\/\/\S+?)fhir\/R4\//;
  // Seeding a fresh DATA_DIR took over 2 minutes at load average 20 on 2 cores.
  const deadline = Date.now() + 300_000;
  while (!banner.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`soak server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, baseUrl: (banner.exec(output) as RegExpExecArray)[1] };
}

/** auth/login with PKCE, then the code exchanged at oauth2/token. */
async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const login = await fetch(`${baseUrl}auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, codeChallenge: challenge, codeChallengeMethod: 'S256' }),
  });
  const { code } = (await login.json()) as { code?: string };
  if (!code) throw new Error(`soak sign-in failed: ${login.status}`);
  const token = await fetch(`${baseUrl}oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier }).toString(),
  });
  return ((await token.json()) as { access_token: string }).access_token;
}

/** Runs SQL on the PostgreSQL server of `url` (creating and dropping the soak's database). */
async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The soak on PostgreSQL: a new database on the server of `serverUrl`, dropped afterwards. */
export async function measureSoakOnPostgres(
  serverUrl: string,
  seconds = Number(process.env.SOAK_SECONDS ?? 30),
  levels = LEVELS,
): Promise<SoakLevel[]> {
  const name = `bloom_soak_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await measureSoak(seconds, url.toString(), {}, levels);
  } finally {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/** Polls GET /healthcheck every 250 ms (one at a time) until stopped: the slowest answer and failures. */
function pollHealth(baseUrl: string): () => Promise<{ maxMs: number; failures: number }> {
  let maxMs = 0;
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}healthcheck`, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      } catch {
        failures++;
      }
      maxMs = Math.max(maxMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { maxMs: Math.round(maxMs), failures };
  };
}

/**
 * The soak on PGlite (a new DATA_DIR), or on the PostgreSQL database `databaseUrl`; `env` adds
 * server settings (e.g. PGLITE_MAX_QUEUE_WAIT).
 */
export async function measureSoak(
  seconds = Number(process.env.SOAK_SECONDS ?? 30),
  databaseUrl = '',
  env: Record<string, string> = {},
  levels = LEVELS,
): Promise<SoakLevel[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-soak-'));
  const { child, baseUrl } = await startServer(dataDir, databaseUrl, env);
  try {
    const pid = child.pid as number;
    const token = await signIn(baseUrl, 'admin@bloom.example', process.env.DEMO_PASSWORD ?? 'bloom-demo');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' };
    const created = await fetch(`${baseUrl}fhir/R4/Patient`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ resourceType: 'Patient', name: [{ family: 'Soak', given: ['Reader'] }] }),
    });
    const readId = ((await created.json()) as { id: string }).id;
    let sequence = 0;
    // Each connection cycles read → search → search → create.
    const requests = [
      { method: 'GET' as const, path: `/fhir/R4/Patient/${readId}` },
      { method: 'GET' as const, path: '/fhir/R4/Patient?name=soak&_count=20' },
      { method: 'GET' as const, path: '/fhir/R4/Observation?_count=20&_sort=-_lastUpdated' },
      {
        method: 'POST' as const,
        path: '/fhir/R4/Patient',
        setupRequest: (request: object) => ({
          ...request,
          body: JSON.stringify({
            resourceType: 'Patient',
            name: [{ family: 'Soak', given: [`w${sequence++}`] }],
          }),
        }),
      },
    ];
    const figures: SoakLevel[] = [];
    for (const connections of levels) {
      const rssBeforeMb = rssMb(pid);
      const memoryBefore = await serverMemory(child, true);
      const loadBefore = os.loadavg()[0];
      const socketCodes: Record<string, number> = {};
      const stopHealth = pollHealth(baseUrl);
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          { url: baseUrl, connections, duration: seconds, headers, requests },
          (err, finished) => (err ? reject(err) : resolve(finished)),
        );
        instance.on('reqError', (err: NodeJS.ErrnoException) => {
          const code = err.code ?? err.message;
          socketCodes[code] = (socketCodes[code] ?? 0) + 1;
        });
      });
      const health = await stopHealth();
      delete socketCodes['request timed out'];
      const statuses = Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {})
          .filter(([status]) => !status.startsWith('2'))
          .map(([status, stats]) => [status, stats.count ?? 0]),
      );
      const rssAfterMb = rssMb(pid);
      const memoryAfter = await serverMemory(child);
      const loadAfter = os.loadavg()[0];
      await new Promise((resolve) => setTimeout(resolve, REST_MS));
      const rssRestedMb = rssMb(pid);
      const memoryRested = await serverMemory(child, true);
      figures.push({
        connections,
        seconds,
        requests: result.requests.total,
        requestsPerSecond: result.requests.average,
        p99Ms: result.latency.p99,
        errors: result.errors + result.non2xx,
        errorKinds: {
          socket: result.errors - result.timeouts,
          timeouts: result.timeouts,
          non2xx: result.non2xx,
          socketCodes,
          statuses,
        },
        rssBeforeMb,
        rssAfterMb,
        rssRestedMb,
        memoryBefore,
        memoryAfter,
        memoryRested,
        loadBefore,
        loadAfter,
        healthMaxMs: health.maxMs,
        healthFailures: health.failures,
      });
    }
    return figures;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** ' [503: 12, 429: 3]', or nothing when there is nothing to list. */
function counts(byKind: Record<string, number>): string {
  const entries = Object.entries(byKind);
  return entries.length === 0 ? '' : ` [${entries.map(([kind, count]) => `${kind}: ${count}`).join(', ')}]`;
}

export function formatSoak(levels: readonly SoakLevel[], engine = 'PGlite'): string {
  return [
    `soak (${engine}, mixed read/search/search/create over loopback, demo admin, ${os.availableParallelism()} cores):`,
    ...levels.map(
      (level) =>
        `  ${String(level.connections).padStart(3)} connections, ${level.seconds} s: ` +
        `${level.requestsPerSecond.toFixed(0)} req/s, ${level.requests} requests, p99 ${level.p99Ms} ms, ` +
        `errors ${level.errors} (socket ${level.errorKinds.socket}${counts(level.errorKinds.socketCodes)}, ` +
        `timeouts ${level.errorKinds.timeouts}, non-2xx ${level.errorKinds.non2xx}${counts(level.errorKinds.statuses)}), RSS ${level.rssBeforeMb} → ${level.rssAfterMb} MB, ` +
        `${level.rssRestedMb} MB after ${REST_MS / 1000} s at rest; health check max ${level.healthMaxMs} ms` +
        `${level.healthFailures ? ` (${level.healthFailures} failed)` : ''}; load average ${level.loadBefore.toFixed(1)} → ${level.loadAfter.toFixed(1)}\n` +
        `      server memory: before ${formatMemory(level.memoryBefore)}; after ${formatMemory(level.memoryAfter)}; ` +
        `rested ${formatMemory(level.memoryRested)}`,
    ),
  ].join('\n');
}

/** PGLITE_MAX_QUEUE_WAIT for "shedding off": an hour, which no queue reaches in a soak. */
const NO_SHEDDING = '3600000';

/**
 * PGlite with load shedding off and on (PGLITE_MAX_QUEUE_WAIT an hour vs the default or
 * SOAK_QUEUE_WAIT), the same build, rounds alternating which goes first; each run a fresh server.
 */
async function compareShedding(rounds: number): Promise<void> {
  const on: Record<string, string> = process.env.SOAK_QUEUE_WAIT
    ? { PGLITE_MAX_QUEUE_WAIT: process.env.SOAK_QUEUE_WAIT }
    : {};
  const runs: { label: string; levels: SoakLevel[] }[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const label of order) {
      const levels = await measureSoak(
        undefined,
        '',
        label === 'on' ? on : { PGLITE_MAX_QUEUE_WAIT: NO_SHEDDING },
      );
      console.log(formatSoak(levels, `PGlite, shedding ${label}, round ${round + 1}`));
      runs.push({ label, levels });
    }
  }
  console.log('side by side (shedding off | on), per level and round:');
  for (const connections of LEVELS) {
    for (let round = 0; round < rounds; round++) {
      const pick = (label: string): SoakLevel => {
        const run = runs.filter((r) => r.label === label)[round];
        return run.levels.find((l) => l.connections === connections) as SoakLevel;
      };
      const cell = (level: SoakLevel) =>
        `${level.requestsPerSecond.toFixed(0)} req/s, p99 ${level.p99Ms} ms, errors ${level.errors} ` +
        `(timeouts ${level.errorKinds.timeouts}, 503 ${level.errorKinds.statuses['503'] ?? 0}), health max ${level.healthMaxMs} ms`;
      console.log(`  c${connections} round ${round + 1}: ${cell(pick('off'))} | ${cell(pick('on'))}`);
    }
  }
}

// `tsx bench/soak.ts` runs the soak alone; SOAK_COMPARE=1 compares PGlite's load shedding off and on.
if (process.argv[1]?.endsWith('bench/soak.ts')) {
  (async () => {
    if (process.env.SOAK_COMPARE === '1') {
      await compareShedding(Number(process.env.SOAK_ROUNDS ?? 2));
      return;
    }
    const repeat = Math.max(1, Number(process.env.SOAK_REPEAT ?? 1));
    const levels = Array.from({ length: repeat }, () => LEVELS).flat();
    console.log(formatSoak(await measureSoak(undefined, '', {}, levels)));
    const postgresUrl = process.env.SOAK_DATABASE_URL;
    if (postgresUrl) {
      console.log(formatSoak(await measureSoakOnPostgres(postgresUrl, undefined, levels), 'PostgreSQL'));
    }
  })().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
