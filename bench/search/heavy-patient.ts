// One patient with many Observations (SEARCH_BENCH_HEAVY, default 10,000) beside 20 others with
// a twentieth of that each, on PGlite and PostgreSQL in the same run: p50/p99 of the patient app's vitals query and
// of `_count=1&_total=accurate` through Repository.search, the PGlite/PostgreSQL ratio (goal ≤ 5),
// and EXPLAIN ANALYZE of the SQL each engine ran (HEAVY_PLANS=1 prints them). A database loaded by
// an earlier run is reused; HEAVY_RELOAD=1 loads it again and prints the load rate (the load goes
// through the repository in transaction Bundles of 500 PUTs, each one multi-row statement).
// `npx tsx bench/search/heavy-patient.ts`.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import type { Bundle, Observation, Resource } from '@medplum/fhirtypes';
import type { Database, QueryResult, Queryable, SqlValue } from '../../src/server/db';
import { openPGlite, openPostgres } from '../../src/server/db';
import { parseSearchRequest } from '../../src/fhir/search';
import { processBatch } from '../../src/server/fhir/batch';
import { migrateServer } from '../../src/server/migrations';
import { Repository, systemContext } from '../../src/server/repo';
import type { BenchEngine } from './database';
import { LOINC, VITALS, seededRandom } from './dataset';

export interface HeavyQueryFigures {
  name: string;
  p50Ms: number;
  p99Ms: number;
  plan: string;
}

export interface HeavyPatientFigures {
  engine: BenchEngine;
  observations: number;
  loadSeconds: number;
  queries: HeavyQueryFigures[];
}

const HEAVY = 'heavy';
const OTHERS = 20;
const DAY = 86_400_000;

function observation(id: string, patient: string, i: number, random: () => number): Observation {
  const kind = VITALS[i % VITALS.length];
  return {
    resourceType: 'Observation',
    id,
    status: 'final',
    category: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' },
        ],
      },
    ],
    code: { coding: [{ system: LOINC, code: kind.code, display: kind.display }], text: kind.display },
    subject: { reference: `Patient/${patient}` },
    effectiveDateTime: new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 700 * DAY)).toISOString(),
    valueQuantity: { value: Math.round(kind.min + random() * (kind.max - kind.min)), unit: kind.unit },
  };
}

function* resources(heavy: number): Generator<Resource> {
  const random = seededRandom(11);
  yield { resourceType: 'Patient', id: HEAVY, name: [{ family: 'Heavy', given: ['Maria'] }] };
  for (let p = 0; p < OTHERS; p++) {
    yield { resourceType: 'Patient', id: `other-${p}`, name: [{ family: 'Other' }] };
  }
  for (let i = 0; i < heavy; i++) yield observation(`h-${i}`, HEAVY, i, random);
  for (let p = 0; p < OTHERS; p++) {
    for (let i = 0; i < heavy / OTHERS; i++) yield observation(`o-${p}-${i}`, `other-${p}`, i, random);
  }
}

async function load(db: Database, heavy: number, engine: BenchEngine): Promise<void> {
  const repo = new Repository(db, systemContext());
  const total = 2 * heavy + OTHERS + 1;
  let done = 0;
  let lastReport = performance.now();
  let chunk: Resource[] = [];
  const flush = async (): Promise<void> => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: chunk.map((resource) => ({
        resource,
        request: { method: 'PUT', url: `${resource.resourceType}/${resource.id}` },
      })),
    };
    const response = await processBatch(repo, 'http://localhost/fhir/R4/', bundle);
    const failed = response.entry?.find((entry) => !entry.response?.status.startsWith('20'));
    if (failed) throw new Error(`load failed: ${JSON.stringify(failed.response)}`);
    done += chunk.length;
    chunk = [];
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      console.log(`  ${engine}: loaded ${done} of ${total} (load average ${os.loadavg()[0].toFixed(1)})`);
    }
  };
  for (const resource of resources(heavy)) {
    chunk.push(resource);
    if (chunk.length === 500) await flush();
  }
  if (chunk.length > 0) await flush();
}

/** Records the statements a search sends, to EXPLAIN the slowest one afterwards. */
class Recorder implements Database {
  readonly engine;
  statements: { sql: string; params: readonly SqlValue[]; ms: number }[] = [];
  constructor(private readonly db: Database) {
    this.engine = db.engine;
  }
  query<Row>(sql: string, params: readonly SqlValue[] = []): Promise<QueryResult<Row>> {
    return this.record(this.db, sql, params);
  }
  private async record<Row>(
    on: Queryable,
    sql: string,
    params: readonly SqlValue[],
  ): Promise<QueryResult<Row>> {
    const started = performance.now();
    const result = await on.query<Row>(sql, params);
    this.statements.push({ sql, params, ms: performance.now() - started });
    return result;
  }
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      fn({
        query: <Row>(sql: string, params: readonly SqlValue[] = []) => this.record<Row>(tx, sql, params),
      }),
    );
  }
  close(): Promise<void> {
    return this.db.close();
  }
}

const percentile = (sorted: number[], p: number): number =>
  Number(
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))].toFixed(2),
  );

export const HEAVY_QUERIES = [
  {
    name: 'vitals: Observation?subject&code&_sort=-date',
    url: `Observation?subject=Patient/${HEAVY}&code=${LOINC}|${VITALS[0].code}&_sort=-date`,
  },
  {
    name: 'count: Observation?subject&_count=1&_total=accurate',
    url: `Observation?subject=Patient/${HEAVY}&_count=1&_total=accurate`,
  },
];

export async function measureQueries(db: Database, samples: number): Promise<HeavyQueryFigures[]> {
  const figures: HeavyQueryFigures[] = [];
  for (const query of HEAVY_QUERIES) {
    const recorder = new Recorder(db);
    const repo = new Repository(recorder, systemContext());
    const times: number[] = [];
    for (let i = 0; i < samples + 5; i++) {
      recorder.statements = [];
      const started = performance.now();
      await repo.search(parseSearchRequest(query.url));
      if (i >= 5) times.push(performance.now() - started);
    }
    const slowest = [...recorder.statements].sort((a, b) => b.ms - a.ms)[0];
    const explained = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS OFF) ${slowest.sql}`,
      slowest.params,
    );
    times.sort((a, b) => a - b);
    figures.push({
      name: query.name,
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      plan: explained.rows.map((row) => row['QUERY PLAN']).join('\n'),
    });
  }
  return figures;
}

export async function openHeavyDatabase(engine: BenchEngine, dataDir: string): Promise<Database> {
  if (engine === 'pglite') return openPGlite({ dataDir });
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('PostgreSQL needs TEST_DATABASE_URL');
  return openPostgres({ connectionString: url, schema: 'bench_heavy_patient', maxConnections: 4 });
}

async function benchEngine(
  engine: BenchEngine,
  heavy: number,
  samples: number,
): Promise<HeavyPatientFigures> {
  const dataDir = path.join(os.tmpdir(), `bloom-heavy-patient-${heavy}`);
  let db = await openHeavyDatabase(engine, dataDir);
  await migrateServer(db);
  let loadSeconds = 0;
  const present = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM resource WHERE resource_type = 'Observation' AND NOT deleted",
  );
  // HEAVY_RELOAD=1 measures the load again on a database that already holds it.
  if (Number(present.rows[0].n) !== 2 * heavy || process.env.HEAVY_RELOAD === '1') {
    if (engine === 'postgres') await db.query('DROP SCHEMA bench_heavy_patient CASCADE');
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    db = await openHeavyDatabase(engine, dataDir);
    await migrateServer(db);
    const started = performance.now();
    await load(db, heavy, engine);
    loadSeconds = (performance.now() - started) / 1000;
  }
  try {
    // What autovacuum (PostgreSQL) and the worker's idle maintenance (PGlite) have done by then.
    if (process.env.HEAVY_ANALYZE !== '0') await db.query('VACUUM ANALYZE');
    return { engine, observations: heavy, loadSeconds, queries: await measureQueries(db, samples) };
  } finally {
    await db.close();
  }
}

if (process.argv[1]?.endsWith('heavy-patient.ts')) {
  const heavy = Number(process.env.SEARCH_BENCH_HEAVY ?? 10_000);
  const samples = Number(process.env.SEARCH_BENCH_SAMPLES ?? 30);
  const engines: BenchEngine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  (async () => {
    console.log(
      `heavy patient bench: load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const all: HeavyPatientFigures[] = [];
    for (const engine of engines) {
      const figures = await benchEngine(engine, heavy, samples);
      all.push(figures);
      console.log(
        `${engine}: ${heavy} Observations for one patient${
          figures.loadSeconds
            ? `, ${2 * heavy + OTHERS + 1} resources loaded in ${figures.loadSeconds.toFixed(0)} s ` +
              `(${((2 * heavy + OTHERS + 1) / figures.loadSeconds).toFixed(0)} resources/s, transaction Bundles of 500 PUTs)`
            : ' (loaded by an earlier run; HEAVY_RELOAD=1 measures the load)'
        }`,
      );
      for (const q of figures.queries) {
        console.log(`  ${q.name.padEnd(52)} p50 ${q.p50Ms} ms  p99 ${q.p99Ms} ms`);
        if (process.env.HEAVY_PLANS === '1') console.log(q.plan.replace(/^/gm, '      '));
      }
    }
    if (all.length === 2) {
      for (let i = 0; i < HEAVY_QUERIES.length; i++) {
        const ratio = all[0].queries[i].p50Ms / Math.max(all[1].queries[i].p50Ms, 0.01);
        console.log(`  PGlite / PostgreSQL p50, ${HEAVY_QUERIES[i].name}: ${ratio.toFixed(2)} (goal ≤ 5)`);
      }
    }
    console.log(
      `load after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  })().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
