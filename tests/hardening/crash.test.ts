// SIGKILL crash test (SPEC §7 "FHIR calls": creates and transaction bundles). The real server
// process (`src/server/main.ts` under tsx, the source of the bundle `npm start` runs) takes creates and 5-entry transactions
// from several concurrent writers, is killed with SIGKILL after a seeded number of acknowledged
// writes, and is restarted on the same data (PGlite's data directory; a PostgreSQL database of
// its own). After every restart: the health check answers, every acknowledged create is readable,
// and every transaction sent (acknowledged or not) is all-or-nothing. Prints the figures.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Bundle, Patient } from '@medplum/fhirtypes';
import { signIn } from '../server/auth/support/auth-fixtures';

const SEED = 20261127;
const KILLS = 3;
const WRITERS = 6;
const TX_ENTRIES = 5;
const CREATE_SYSTEM = 'urn:bloom:crash-test:create';
const TX_SYSTEM = 'urn:bloom:crash-test:transaction';
const ADMIN = 'admin@bloom.example';
const DEMO_PASSWORD = 'bloom-demo';

/** mulberry32: a small seeded generator, so every run kills at the same counts. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Running {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

/** Starts main.ts on the given data and waits for its banner and a healthy /healthcheck. */
async function startServer(env: Record<string, string>): Promise<Running> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    // Load shedding off: a 503 under a loaded machine would read as a failed write here.
    env: {
      ...process.env,
      PORT: '0',
      APP_PORT: '0',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      PGLITE_MAX_QUEUE_WAIT: '600000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const banner = /FHIR API:\s+(http:\/\/\S+?)fhir\/R4\//;
  const started = Date.now();
  while (!banner.test(output)) {
    if (child.exitCode !== null || Date.now() - started > 90_000) {
      child.kill('SIGKILL');
      throw new Error(`The server did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const baseUrl = (banner.exec(output) as RegExpExecArray)[1];
  const health = await fetch(`${baseUrl}healthcheck`);
  if (health.status !== 200) {
    throw new Error(`The health check answered ${health.status} after a restart: ${await health.text()}`);
  }
  return { child, baseUrl, output: () => output };
}

async function kill(server: Running): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

interface Ledger {
  /** Acknowledged creates (201): id and identifier value. */
  creates: { id: string; value: string }[];
  /** Every transaction sent, by identifier value, and whether it was acknowledged (200). */
  transactions: Map<string, boolean>;
  acknowledged: number;
}

function patient(system: string, value: string): Patient {
  return {
    resourceType: 'Patient',
    identifier: [{ system, value }],
    name: [{ family: 'Crash', given: [value] }],
  };
}

/** Writers run until a request fails (the server is gone); the kill comes after `killAfter` acks. */
async function writeUntilKilled(
  server: Running,
  token: string,
  ledger: Ledger,
  random: () => number,
  killAfter: number,
  round: number,
): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' };
  const fhir = `${server.baseUrl}fhir/R4/`;
  const target = ledger.acknowledged + killAfter;
  let sequence = 0;
  let killing: Promise<void> | undefined;
  let failure: unknown;
  const acknowledge = () => {
    ledger.acknowledged++;
    if (ledger.acknowledged >= target && !killing) killing = kill(server);
  };
  const writer = async (writerId: number): Promise<void> => {
    for (;;) {
      const value = `r${round}-w${writerId}-${sequence++}`;
      const isTransaction = random() < 0.3;
      try {
        if (isTransaction) {
          ledger.transactions.set(value, false);
          const bundle: Bundle = {
            resourceType: 'Bundle',
            type: 'transaction',
            entry: Array.from({ length: TX_ENTRIES }, () => ({
              resource: patient(TX_SYSTEM, value),
              request: { method: 'POST', url: 'Patient' },
            })),
          };
          const response = await fetch(fhir, { method: 'POST', headers, body: JSON.stringify(bundle) });
          await response.text();
          if (response.status !== 200) throw new Error(`transaction answered ${response.status}`);
          ledger.transactions.set(value, true);
        } else {
          const response = await fetch(`${fhir}Patient`, {
            method: 'POST',
            headers,
            body: JSON.stringify(patient(CREATE_SYSTEM, value)),
          });
          const body = (await response.json()) as Patient;
          if (response.status !== 201) throw new Error(`create answered ${response.status}`);
          ledger.creates.push({ id: body.id as string, value });
        }
        acknowledge();
      } catch (err) {
        // Only the kill may end a writer: an error answer from a live server is a failure (the
        // server is then killed so the other writers stop too).
        if (!killing) {
          failure = err;
          killing = kill(server);
        }
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
  await killing;
  if (failure) throw failure;
}

interface Check {
  missing: string[];
  halfApplied: string[];
  acknowledgedTxMissing: string[];
}

async function verify(server: Running, token: string, ledger: Ledger): Promise<Check> {
  const headers = { authorization: `Bearer ${token}` };
  const fhir = `${server.baseUrl}fhir/R4/`;
  const check: Check = { missing: [], halfApplied: [], acknowledgedTxMissing: [] };
  for (const { id, value } of ledger.creates) {
    const response = await fetch(`${fhir}Patient/${id}`, { headers });
    const body = (await response.json()) as Patient;
    if (response.status !== 200 || body.identifier?.[0]?.value !== value) check.missing.push(value);
  }
  for (const [value, acknowledged] of ledger.transactions) {
    const query = new URLSearchParams({ identifier: `${TX_SYSTEM}|${value}`, _count: '20' });
    const response = await fetch(`${fhir}Patient?${query}`, { headers });
    const bundle = (await response.json()) as Bundle;
    if (response.status !== 200) throw new Error(`search answered ${response.status}`);
    const count = bundle.entry?.length ?? 0;
    if (count !== 0 && count !== TX_ENTRIES) check.halfApplied.push(`${value}: ${count}`);
    if (acknowledged && count !== TX_ENTRIES) check.acknowledgedTxMissing.push(value);
  }
  return check;
}

interface Engine {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function pgliteEngine(): Promise<Engine> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-crash-'));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    async cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A database of its own (main.ts uses the connection's default schema), dropped afterwards. */
async function postgresEngine(url: string): Promise<Engine> {
  const name = `bloom_crash_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-crash-pg-'));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString() },
    async cleanup() {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const engines: [string, () => Promise<Engine>][] = [['pglite', pgliteEngine]];
const testDatabaseUrl = process.env.TEST_DATABASE_URL;
if (testDatabaseUrl) engines.push(['postgres', () => postgresEngine(testDatabaseUrl)]);

describe.each(engines)('SIGKILL under write load on %s', (engineName, open) => {
  let engine: Engine;
  let server: Running | undefined;

  beforeAll(async () => {
    engine = await open();
  });

  afterAll(async () => {
    if (server) await kill(server);
    await engine.cleanup();
  });

  test(`${KILLS} kills: every acknowledged write survives, no transaction is half-applied, restarts are clean`, async () => {
    const random = seededRandom(SEED);
    const ledger: Ledger = { creates: [], transactions: new Map(), acknowledged: 0 };
    const started = Date.now();
    server = await startServer(engine.env);
    // A sign-in per start: the restarted server signs people in, and its token writes the next round.
    // The worst check after any restart (each check covers every write so far).
    let missing = 0;
    let halfApplied = 0;
    let token = (await signIn(server.baseUrl, ADMIN, DEMO_PASSWORD)).access_token;
    for (let round = 1; round <= KILLS; round++) {
      const killAfter = 20 + Math.floor(random() * 60);
      await writeUntilKilled(server, token, ledger, random, killAfter, round);
      expect(server.child.signalCode).toBe('SIGKILL');
      server = await startServer(engine.env);
      token = (await signIn(server.baseUrl, ADMIN, DEMO_PASSWORD)).access_token;
      const check = await verify(server, token, ledger);
      missing = Math.max(missing, check.missing.length + check.acknowledgedTxMissing.length);
      halfApplied = Math.max(halfApplied, check.halfApplied.length);
      expect(check).toEqual({ missing: [], halfApplied: [], acknowledgedTxMissing: [] });
    }
    const transactions = [...ledger.transactions.values()];
    console.log(
      `crash test on ${engineName}: ${KILLS} SIGKILLs, ${ledger.acknowledged} acknowledged writes ` +
        `(${ledger.creates.length} creates, ${transactions.filter(Boolean).length} transactions of ${TX_ENTRIES}; ` +
        `${transactions.length} transactions sent), ${missing} acknowledged missing, ${halfApplied} half-applied, ` +
        `${KILLS} clean restarts, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    // SIGTERM after the last restart still stops it cleanly.
    const exited = new Promise<number | null>((resolve) =>
      server?.child.once('exit', (code) => resolve(code)),
    );
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 180_000);
});
