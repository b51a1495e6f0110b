// Search and read throughput over HTTP, before and after: two builds of the server (two checkouts,
// e.g. a worktree at main and this one) serve the same clinic on PostgreSQL and on PGlite (each
// build its own copy of one loaded PGlite directory: PGlite opens a directory in one process only),
// each cell measured for both back to back with the order alternating,
// with real bearer tokens of a patient and of a practitioner (both under AccessPolicies), for the
// vitals query, Patient?name= and reads of Patient/{id}, at 16 and 64 connections (autocannon).
// A bare Fastify route doing one primary-key SELECT on a pool of the same size is the floor that
// reads are compared with. Prints req/s per build (mean of the rounds), the ratios (of the means
// and the median of the paired ratios), statements
// sent to PostgreSQL per request (n/a on PGlite), the machine's load average with each round, and
// a last table with the new build's req/s on PGlite beside PostgreSQL.
//   npx tsx bench/search/throughput.ts --base ../wt-main [--new .]
// Settings (environment): TEST_DATABASE_URL (required for postgres), THROUGHPUT_ENGINES (default
// postgres,pglite; postgres only when TEST_DATABASE_URL is set), THROUGHPUT_SIZE (resources, default
// 50000), THROUGHPUT_SECONDS (per measurement, default 5), THROUGHPUT_ROUNDS (default 2),
// THROUGHPUT_CONNECTIONS (default 16,64).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { AccessPolicy, Practitioner, Project, ProjectMembership, User } from '@medplum/fhirtypes';
import autocannon from 'autocannon';
import { hashPassword } from '../../src/server/auth/passwords';
import type { Database } from '../../src/server/db';
import { openPGlite, openPostgres } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';
import { Repository, systemContext } from '../../src/server/repo';
import { datasetShape, LOINC, VITALS } from './dataset';
import { countResources } from './database';
import type { BenchEngine } from './database';
import { loadDataset } from './load';
import { BENCH_PROJECT, placeInBenchProject } from './policy-budget';

const PASSWORD = 'bench-throughput-2026';
const NAME_PREFIXES = ['smi', 'joh', 'wil', 'bro', 'gar', 'mil', 'dav', 'lee', 'kin', 'hil'];

type Role = 'patient' | 'practitioner';
type QueryName = 'vitals' | 'name' | 'read';
const QUERIES: QueryName[] = ['vitals', 'name', 'read'];
const ROLES: Role[] = ['patient', 'practitioner'];

interface Settings {
  roots: { base: string; new: string };
  engines: BenchEngine[];
  connectionString: string | undefined;
  schema: string;
  /** The loaded PGlite clinic; each server gets its own copy. */
  pgliteDir: string;
  total: number;
  seconds: number;
  rounds: number;
  connections: number[];
}

function settings(): Settings {
  const arg = (name: string): string | undefined => {
    const at = process.argv.indexOf(`--${name}`);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const base = arg('base');
  const connectionString = process.env.TEST_DATABASE_URL;
  const engines = (process.env.THROUGHPUT_ENGINES ?? (connectionString ? 'postgres,pglite' : 'pglite'))
    .split(',')
    .map((engine) => engine.trim());
  if (!base || engines.some((engine) => engine !== 'postgres' && engine !== 'pglite')) {
    throw new Error(
      'usage: [TEST_DATABASE_URL=…] [THROUGHPUT_ENGINES=postgres,pglite] npx tsx bench/search/throughput.ts --base DIR [--new DIR]',
    );
  }
  if (engines.includes('postgres') && !connectionString) {
    throw new Error('The PostgreSQL column needs TEST_DATABASE_URL');
  }
  const total = Number(process.env.THROUGHPUT_SIZE ?? 50_000);
  return {
    roots: { base: path.resolve(base), new: path.resolve(arg('new') ?? '.') },
    engines: engines as BenchEngine[],
    connectionString,
    schema: `bench_throughput_${total}`,
    pgliteDir: path.join(os.tmpdir(), `bloom-throughput-${total}`),
    total,
    seconds: Number(process.env.THROUGHPUT_SECONDS ?? 5),
    rounds: Number(process.env.THROUGHPUT_ROUNDS ?? 2),
    connections: (process.env.THROUGHPUT_CONNECTIONS ?? '16,64').split(',').map(Number),
  };
}

/** The patient who signs in: one of the clinic's (her Observations are the vitals she reads). */
const PATIENT_ID = 'p-7';

/** The clinic (loaded once per size), its project, policies and the two accounts. */
async function prepare(db: Database, total: number): Promise<void> {
  const shape = datasetShape(total);
  const present = await countResources(db);
  if (present < shape.total) {
    if (present > 0) {
      throw new Error(`schema holds ${present} resources: drop it to reload`);
    }
    console.log(`loading ${shape.total} resources…`);
    await loadDataset(db, shape, { chunk: 500, concurrency: db.engine === 'postgres' ? 4 : 1 });
    await placeInBenchProject(db);
    await db.query('VACUUM ANALYZE');
  }
  const repo = new Repository(db, systemContext(BENCH_PROJECT));
  const put = <T extends Parameters<Repository['updateResource']>[0]>(resource: T) =>
    repo.updateResource(resource);
  await put<AccessPolicy>({
    resourceType: 'AccessPolicy',
    id: 'bench-patient-policy',
    name: 'Patient',
    resource: ['Patient', 'Observation', 'DiagnosticReport', 'Communication'].map((resourceType) => ({
      resourceType,
      compartment: { reference: '%patient' },
    })),
  });
  await put<AccessPolicy>({
    resourceType: 'AccessPolicy',
    id: 'bench-practitioner-policy',
    name: 'Practitioner',
    resource: ['Patient', 'Observation', 'DiagnosticReport', 'Communication', 'Practitioner'].map(
      (resourceType) => ({ resourceType }),
    ),
  });
  await put<Project>({
    resourceType: 'Project',
    id: BENCH_PROJECT,
    name: 'Bench clinic',
    defaultPatientAccessPolicy: { reference: 'AccessPolicy/bench-patient-policy' },
  });
  await put<Practitioner>({
    resourceType: 'Practitioner',
    id: 'bench-practitioner',
    name: [{ family: 'Bench' }],
  });
  const passwordHash = await hashPassword(PASSWORD);
  for (const role of ROLES) {
    await put<User>({
      resourceType: 'User',
      id: `bench-${role}-user`,
      firstName: 'Bench',
      lastName: role,
      email: `bench-${role}@example.org`,
      passwordHash,
    });
    await put<ProjectMembership>({
      resourceType: 'ProjectMembership',
      id: `bench-${role}-member`,
      project: { reference: `Project/${BENCH_PROJECT}` },
      user: { reference: `User/bench-${role}-user` },
      profile: {
        reference: role === 'patient' ? `Patient/${PATIENT_ID}` : 'Practitioner/bench-practitioner',
      },
      accessPolicy: { reference: `AccessPolicy/bench-${role}-policy` },
    });
  }
}

async function post<T>(url: string, body: string, type: string): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
  if (!response.ok) {
    throw new Error(`${url}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/** A password sign-in with PKCE, as the app does it. */
async function signIn(base: string, role: Role): Promise<string> {
  const verifier = 'v'.repeat(43) + role;
  const challenge = (await import('node:crypto')).createHash('sha256').update(verifier).digest('base64url');
  const login = await post<{ code: string }>(
    `${base}/auth/login`,
    JSON.stringify({
      email: `bench-${role}@example.org`,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    }),
    'application/json',
  );
  const token = await post<{ access_token: string }>(
    `${base}/oauth2/token`,
    new URLSearchParams({
      grant_type: 'authorization_code',
      code: login.code,
      code_verifier: verifier,
    }).toString(),
    'application/x-www-form-urlencoded',
  );
  return token.access_token;
}

/** The request paths of a query for a role: a patient asks about herself, a practitioner about anyone. */
function pathsFor(query: QueryName, role: Role, patients: number): string[] {
  return Array.from({ length: 1000 }, (_, i) => {
    const patient = role === 'patient' ? PATIENT_ID : `p-${(i * 7919) % patients}`;
    switch (query) {
      case 'vitals':
        return `/fhir/R4/Observation?subject=Patient/${patient}&code=${LOINC}|${VITALS[i % VITALS.length].code}&_sort=-date`;
      case 'name':
        return `/fhir/R4/Patient?name=${NAME_PREFIXES[i % NAME_PREFIXES.length]}`;
      case 'read':
        return `/fhir/R4/Patient/${patient}`;
    }
  });
}

interface Child {
  url: string;
  process: ChildProcess;
  statements(): Promise<number>;
  stop(): Promise<void>;
}

/** Where a server child finds the clinic (throughput-server.ts reads it). */
interface ServerLocation {
  engine: BenchEngine;
  connectionString?: string;
  schema?: string;
  dataDir?: string;
}

async function startServer(root: string, mode: 'bloom' | 'bare', location: ServerLocation): Promise<Child> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve('bench/search/throughput-server.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: {
        ...process.env,
        THROUGHPUT_ROOT: root,
        THROUGHPUT_MODE: mode,
        THROUGHPUT_LOCATION: JSON.stringify(location),
      },
    },
  );
  const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`throughput server exited with ${code}`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    process: child,
    statements: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve((message as { statements: number }).statements));
        child.send('stats');
      }),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Measurement {
  rps: number;
  p99: number;
  errors: number;
  statementsPerRequest: number;
}

async function measure(
  server: Child,
  paths: string[],
  token: string | undefined,
  connections: number,
  seconds: number,
): Promise<Measurement> {
  let next = 0;
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const requests = [
    {
      method: 'GET' as const,
      headers,
      setupRequest: (r: object) => ({ ...r, path: paths[next++ % paths.length] }),
    },
  ];
  await autocannon({ url: server.url, connections, duration: 1, requests });
  const before = await server.statements();
  const result = await autocannon({ url: server.url, connections, duration: seconds, requests });
  const sent = (await server.statements()) - before;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    statementsPerRequest: Number((sent / Math.max(result.requests.total, 1)).toFixed(2)),
  };
}

function load(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

type Build = 'base' | 'new';
type Server = Build | 'bare';
const key = (engine: BenchEngine, build: Server, role: Role | 'none', query: QueryName, c: number): string =>
  `${engine}|${build}|${role}|${query}|${c}`;

/** Loads (once per size) and prepares the clinic on `engine`, then closes it. */
async function prepareEngine(s: Settings, engine: BenchEngine): Promise<void> {
  const db =
    engine === 'postgres'
      ? await openPostgres({
          connectionString: s.connectionString as string,
          schema: s.schema,
          maxConnections: 4,
        })
      : await openPGlite({ dataDir: s.pgliteDir });
  try {
    await migrateServer(db);
    await prepare(db, s.total);
  } finally {
    await db.close();
  }
}

/** Each server's clinic: the PostgreSQL schema they share, or a fresh copy of the PGlite directory. */
function locationFor(s: Settings, engine: BenchEngine, server: Server): ServerLocation {
  if (engine === 'postgres') {
    return { engine, connectionString: s.connectionString, schema: s.schema };
  }
  const dataDir = `${s.pgliteDir}-${server}`;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(s.pgliteDir, dataDir, { recursive: true });
  return { engine, dataDir };
}

const statementsText = (engine: BenchEngine, m: Measurement): string =>
  engine === 'postgres' ? `${m.statementsPerRequest} statements/request` : 'statements n/a';

async function main(): Promise<void> {
  const s = settings();
  const patients = datasetShape(s.total).patients;
  console.log(
    `throughput bench: node ${process.version}, ${os.cpus().length} cores, ${s.total} resources, engines ${s.engines.join(', ')}`,
  );
  console.log(`  base ${s.roots.base}\n  new  ${s.roots.new}`);
  const figures = new Map<string, Measurement[]>();
  const record = (k: string, m: Measurement): void => {
    figures.set(k, [...(figures.get(k) ?? []), m]);
  };
  const ratios = new Map<string, number[]>();
  for (const engine of s.engines) {
    await prepareEngine(s, engine);
    // All three servers run at once (an idle one costs nothing), and every cell is measured for both
    // builds back to back, the order alternating: on a shared, loaded machine the pair sees the same
    // load, and the ratio is taken per pair.
    const servers = {
      base: await startServer(s.roots.base, 'bloom', locationFor(s, engine, 'base')),
      new: await startServer(s.roots.new, 'bloom', locationFor(s, engine, 'new')),
      bare: await startServer(s.roots.new, 'bare', locationFor(s, engine, 'bare')),
    };
    try {
      // Signed in on each build's own server: a PGlite copy knows only its own sign-ins.
      const tokens = {} as Record<Build, Record<Role, string>>;
      for (const build of ['base', 'new'] as const) {
        tokens[build] = {
          patient: await signIn(servers[build].url, 'patient'),
          practitioner: await signIn(servers[build].url, 'practitioner'),
        };
      }
      for (let round = 0; round < s.rounds; round++) {
        console.log(`${engine} round ${round + 1}: load average ${load()}`);
        let cell = 0;
        for (const role of ROLES) {
          for (const query of QUERIES) {
            for (const c of s.connections) {
              const order: Build[] = (round + cell++) % 2 === 0 ? ['base', 'new'] : ['new', 'base'];
              const pair = {} as Record<Build, Measurement>;
              for (const build of order) {
                const m = await measure(
                  servers[build],
                  pathsFor(query, role, patients),
                  tokens[build][role],
                  c,
                  s.seconds,
                );
                pair[build] = m;
                record(key(engine, build, role, query, c), m);
                console.log(
                  `  ${build.padEnd(4)} ${role.padEnd(12)} ${query.padEnd(6)} c${c}: ${m.rps.toFixed(0)} req/s, p99 ${m.p99} ms, ` +
                    `${statementsText(engine, m)}${m.errors ? `, ${m.errors} ERRORS` : ''}`,
                );
              }
              const k = key(engine, 'new', role, query, c);
              ratios.set(k, [...(ratios.get(k) ?? []), pair.new.rps / pair.base.rps]);
            }
          }
        }
        for (const c of s.connections) {
          const m = await measure(
            servers.bare,
            pathsFor('read', 'practitioner', patients),
            undefined,
            c,
            s.seconds,
          );
          record(key(engine, 'bare', 'none', 'read', c), m);
          console.log(`  bare Fastify primary-key SELECT c${c}: ${m.rps.toFixed(0)} req/s, p99 ${m.p99} ms`);
        }
      }
    } finally {
      await Promise.all(Object.values(servers).map((server) => server.stop()));
      if (engine === 'pglite') {
        for (const server of ['base', 'new', 'bare'] as const) {
          fs.rmSync(`${s.pgliteDir}-${server}`, { recursive: true, force: true });
        }
      }
    }
  }
  const mean = (k: string): number => {
    const all = figures.get(k) ?? [];
    return all.reduce((sum, m) => sum + m.rps, 0) / Math.max(all.length, 1);
  };
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  console.log(
    `\nreq/s, mean of ${s.rounds} rounds (load average now ${load()}); pair = median of the paired new/base ratios:`,
  );
  console.log('  engine    role          query   conns   base     new   new/base   pair   new/bare');
  for (const engine of s.engines) {
    for (const role of ROLES) {
      for (const query of QUERIES) {
        for (const c of s.connections) {
          const b = mean(key(engine, 'base', role, query, c));
          const n = mean(key(engine, 'new', role, query, c));
          const pair = median(ratios.get(key(engine, 'new', role, query, c)) ?? []);
          const bare =
            query === 'read' ? `${(n / mean(key(engine, 'bare', 'none', 'read', c))).toFixed(2)}` : '';
          console.log(
            `  ${engine.padEnd(9)} ${role.padEnd(13)} ${query.padEnd(7)} ${String(c).padStart(5)} ${b.toFixed(0).padStart(6)} ${n.toFixed(0).padStart(7)}` +
              `   ${(n / b).toFixed(2).padStart(7)} ${pair.toFixed(2).padStart(6)}   ${bare.padStart(7)}`,
          );
        }
      }
    }
    for (const c of s.connections) {
      console.log(
        `  ${engine.padEnd(9)} bare Fastify primary-key SELECT c${c}: ${mean(key(engine, 'bare', 'none', 'read', c)).toFixed(0)} req/s`,
      );
    }
  }
  if (s.engines.includes('postgres') && s.engines.includes('pglite')) {
    console.log('\nnew build, req/s: PGlite beside PostgreSQL');
    console.log('  role          query   conns   postgres   pglite   pglite/postgres');
    for (const role of ROLES) {
      for (const query of QUERIES) {
        for (const c of s.connections) {
          const pgRps = mean(key('postgres', 'new', role, query, c));
          const liteRps = mean(key('pglite', 'new', role, query, c));
          console.log(
            `  ${role.padEnd(13)} ${query.padEnd(7)} ${String(c).padStart(5)} ${pgRps.toFixed(0).padStart(10)} ${liteRps.toFixed(0).padStart(8)}` +
              `   ${(liteRps / pgRps).toFixed(2).padStart(15)}`,
          );
        }
      }
    }
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
