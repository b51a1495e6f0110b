// The search benchmark: load the clinic (PGlite 200,000 resources, PostgreSQL 1,000,000
// by default), report the load rate, p50/p99 of the app's hot searches through Repository.search
// next to hand-written floor SQL, and a mixed HTTP search load per server core next to the
// Health Samurai figures / 8. `npx tsx bench/search/run.ts` runs it alone; `npm run bench` runs it
// at a quick size. Settings (environment):
//   SEARCH_BENCH_ENGINES     pglite,postgres (postgres needs TEST_DATABASE_URL; default: those available)
//   SEARCH_BENCH_PGLITE      resources on PGlite (default 200000)
//   SEARCH_BENCH_POSTGRES    resources on PostgreSQL (default 1000000)
//   SEARCH_BENCH_SAMPLES     timed searches per hot query (default 200, after 20 warm-up ones)
//   SEARCH_BENCH_SECONDS     HTTP load duration (default 10)
//   SEARCH_BENCH_RELOAD=1    drop a previously loaded clinic of the same size and load again
// With both engines, a last table puts their hot-search and HTTP-load figures side by side (give
// both the same size, e.g. SEARCH_BENCH_PGLITE=50000 SEARCH_BENCH_POSTGRES=50000, to compare like
// with like).
import os from 'node:os';
import type { BenchEngine } from './database';
import type { CacheState } from './database';
import { benchLocation, countResources, openBenchDatabase, resetBenchDatabase, warmCaches } from './database';
import { datasetShape } from './dataset';
import type { DatasetShape } from './dataset';
import { hotQueries } from './hot-queries';
import type { HttpLoadFigures } from './http-load';
import { measureHttpLoad, PUBLISHED_SEARCH_RPS } from './http-load';
import type { QueryLatency } from './latency';
import { measureLatency } from './latency';
import type { LoadFigures } from './load';
import { loadDataset } from './load';
import type { PolicyLatency } from './policy-budget';
import { measurePolicyBudget, placeInBenchProject, printPolicyFigures } from './policy-budget';

export interface SearchBenchOptions {
  engines: BenchEngine[];
  sizes: Record<BenchEngine, number>;
  samples: number;
  seconds: number;
  reload: boolean;
}

export interface SearchBenchFigures {
  engine: BenchEngine;
  shape: DatasetShape;
  /** Absent when the clinic was already loaded by an earlier run. */
  load?: LoadFigures;
  cache: CacheState;
  queries: QueryLatency[];
  /** The same searches under an AccessPolicy with criteria and without one. */
  policy: PolicyLatency[];
  http: HttpLoadFigures;
}

export function searchBenchOptionsFromEnv(
  defaults: Partial<Record<BenchEngine, number>> = {},
): SearchBenchOptions {
  const available: BenchEngine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const engines = (process.env.SEARCH_BENCH_ENGINES?.split(',') as BenchEngine[] | undefined) ?? available;
  return {
    engines,
    sizes: {
      pglite: Number(process.env.SEARCH_BENCH_PGLITE ?? defaults.pglite ?? 200_000),
      postgres: Number(process.env.SEARCH_BENCH_POSTGRES ?? defaults.postgres ?? 1_000_000),
    },
    samples: Number(process.env.SEARCH_BENCH_SAMPLES ?? 200),
    seconds: Number(process.env.SEARCH_BENCH_SECONDS ?? 10),
    reload: process.env.SEARCH_BENCH_RELOAD === '1',
  };
}

async function benchEngine(engine: BenchEngine, options: SearchBenchOptions): Promise<SearchBenchFigures> {
  const shape = datasetShape(options.sizes[engine]);
  const location = benchLocation(engine, shape.total);
  if (options.reload) {
    await resetBenchDatabase(location);
  }
  const db = await openBenchDatabase(location);
  let load: LoadFigures | undefined;
  const queries = hotQueries(shape);
  let latency: QueryLatency[];
  let policy: PolicyLatency[];
  let cache: CacheState;
  try {
    const present = await countResources(db);
    if (present !== shape.total) {
      if (present > 0) {
        throw new Error(
          `${engine}: ${present} resources present, expected 0 or ${shape.total}; set SEARCH_BENCH_RELOAD=1`,
        );
      }
      let lastReport = performance.now();
      load = await loadDataset(db, shape, {
        chunk: 500,
        concurrency: engine === 'postgres' ? 4 : 1,
        progress: (done) => {
          if (performance.now() - lastReport > 10_000) {
            lastReport = performance.now();
            console.log(`  ${engine}: loaded ${done} of ${shape.total}`);
          }
        },
      });
    }
    // Before the statistics are taken: placing a million rows in the project after them left the
    // planner sure that `project = …` matches one row (a full index walk per policy search).
    await placeInBenchProject(db);
    // What autovacuum would have done by now on a live server: planner statistics and the
    // visibility map (index-only scans) for the freshly loaded tables.
    await db.query('VACUUM ANALYZE');
    cache = await warmCaches(db);
    latency = await measureLatency(db, queries, { samples: options.samples, warmup: 20 });
    policy = await measurePolicyBudget(db, queries, { samples: options.samples, warmup: 20 });
  } finally {
    // PGlite's directory can be opened by one process at a time: the HTTP server child needs it.
    await db.close();
  }
  const http = await measureHttpLoad(location, queries, { seconds: options.seconds, connections: 10 });
  return { engine, shape, load, cache, queries: latency, policy, http };
}

export function printSearchFigures(figures: SearchBenchFigures): void {
  const { engine, shape, load, cache, queries, policy, http } = figures;
  console.log(
    `search on ${engine}: ${shape.total} resources (${shape.patients} Patients, ${shape.observations} Observations, ` +
      `${shape.reports} DiagnosticReports, ${shape.communications} Communications, ${shape.schedules} Schedules × ${shape.slotsPerSchedule} Slots)`,
  );
  console.log(
    load
      ? `  load: ${load.resourcesPerSecond.toFixed(0)} resources/s (${load.seconds.toFixed(0)} s, transaction Bundles of 500 PUTs)`
      : '  load: already loaded by an earlier run (SEARCH_BENCH_RELOAD=1 to measure it)',
  );
  if (cache.sharedBuffers) {
    console.log(
      `  caches: shared_buffers ${cache.sharedBuffers}; ${cache.prewarmed ? `${cache.prewarmed} tables and indexes prewarmed` : 'pg_prewarm not available, caches cold'}`,
    );
  }
  console.log('  hot searches (Repository.search vs hand-written SQL floor, p50 / p99 ms, one at a time):');
  for (const q of queries) {
    console.log(
      `    ${q.name.padEnd(72)} engine ${q.engine.p50Ms} / ${q.engine.p99Ms}   floor ${q.floor.p50Ms} / ${q.floor.p99Ms}` +
        `   ratio ${q.ratio}   matches ${q.meanMatches}${q.mismatches ? `   RESULT DIFFERS in ${q.mismatches}/${q.samples}` : ''}`,
    );
  }
  printPolicyFigures(policy);
  console.log(
    `  mixed HTTP search load: ${http.requestsPerSecond.toFixed(0)} req/s (p50 ${http.p50Ms} ms, p99 ${http.p99Ms} ms, ` +
      `errors ${http.errors}) on ${http.serverCores} server cores (PostgreSQL ${http.postgresCores}) = ${http.requestsPerSecondPerCore} req/s per core`,
  );
  console.log('  published search throughput per core (8-CPU figures / 8):');
  for (const [server, rps] of Object.entries(PUBLISHED_SEARCH_RPS)) {
    console.log(`    ${server.padEnd(8)} ${(rps / 8).toFixed(0)} req/s`);
  }
}

/** The engines' figures in columns, one row per hot search and one for the HTTP load. */
export function printEnginesSideBySide(all: readonly SearchBenchFigures[]): void {
  if (all.length < 2) return;
  const cell = (text: string): string => text.padStart(22);
  console.log(
    `search, engines side by side (load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}):`,
  );
  console.log(`  ${''.padEnd(72)}${all.map((f) => cell(`${f.engine} ${f.shape.total}`)).join('')}`);
  console.log(`  ${'hot search p50 / p99 ms (Repository.search)'.padEnd(72)}`);
  for (const q of all[0].queries) {
    const row = all
      .map((f) => f.queries.find((l) => l.name === q.name))
      .map((l) => cell(l ? `${l.engine.p50Ms} / ${l.engine.p99Ms}` : '-'));
    console.log(`    ${q.name.padEnd(70)}${row.join('')}`);
  }
  const http = (f: SearchBenchFigures, text: (h: HttpLoadFigures) => string): string => cell(text(f.http));
  console.log(
    `  ${'mixed HTTP search load, 10 connections: req/s'.padEnd(72)}${all.map((f) => http(f, (h) => h.requestsPerSecond.toFixed(0))).join('')}`,
  );
  console.log(
    `  ${'  p50 / p99 ms'.padEnd(72)}${all.map((f) => http(f, (h) => `${h.p50Ms} / ${h.p99Ms}`)).join('')}`,
  );
  console.log(`  ${'  errors'.padEnd(72)}${all.map((f) => http(f, (h) => String(h.errors))).join('')}`);
  console.log(
    `  ${'  req/s per server core'.padEnd(72)}${all.map((f) => http(f, (h) => String(h.requestsPerSecondPerCore))).join('')}`,
  );
}

export async function measureSearch(options: SearchBenchOptions): Promise<SearchBenchFigures[]> {
  const all: SearchBenchFigures[] = [];
  for (const engine of options.engines) {
    const figures = await benchEngine(engine, options);
    printSearchFigures(figures);
    all.push(figures);
  }
  printEnginesSideBySide(all);
  return all;
}

// Run directly (not when bench/run.ts imports it).
if (process.argv[1]?.endsWith('search/run.ts')) {
  console.log(`search bench: node ${process.version}, ${os.cpus().length} cores`);
  measureSearch(searchBenchOptionsFromEnv()).then(
    (figures) => {
      console.log(JSON.stringify(figures));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
