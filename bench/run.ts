// `npm run bench`: the project's performance figures, printed as a table and as one JSON line.
// - the FHIR definitions index's load time (fresh process);
// - REST read and create throughput against a bare Fastify route with a same-sized fixed body;
// - cold and warm start-up of `npm start`;
// - search: load rate, hot searches against their SQL floor, HTTP search
//   load per core, at a quick size here (SEARCH_BENCH=0 skips it; bench/search/run.ts has the sizes);
// - live updates: 1,000 bound sockets, commit → delivery, writes/s, memory;
// - soak: 60 s of mixed reads, searches and creates at 32 and 128 connections, RSS before/after
//   (SOAK_BENCH=0 skips);
// - the patient app: JS and requests per screen, time to show in Chromium;
//   a long messages thread: opening at the newest, older pages,
//   frame intervals while it scrolls.
// Times are measured here, never asserted in tests.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { formatApp, measureApp } from './app';
import { formatMessagesThread, measureMessagesThread } from './app/messages-thread';
import { formatSearchTable, measureSearchTable } from './app/search-table';
import { measureClient, printClientFigures } from './client';
import { formatLive, liveBenchOptionsFromEnv, measureLive } from './live';
import { formatLabDetail, measureGraphQLLabDetail } from './graphql/lab-detail';
import { measureRest } from './rest-throughput';
import type { Throughput } from './rest-throughput';
import { measureSearch, searchBenchOptionsFromEnv } from './search/run';
import { formatBotLatency, measureBotLatency } from './services/bots';
import { formatAgentPush, measureAgentPush } from './services/agents';
import { formatExportThroughput, measureExports } from './services/export';
import { formatSoak, measureSoak } from './soak';
import { measureStartup } from './startup';

// The public Health Samurai FHIR benchmark's CRUD throughput ranges, each server on 8 CPUs.
const PUBLISHED_CRUD_RPS = { Aidbox: [4000, 5200], HAPI: [3000, 3900], Medplum: [1350, 1420] } as const;

function definitionsLoad(): { resourceTypes: number; loadMs: number; firstValidationMs: number } {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'bench/definitions-load.ts'], {
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').pop() ?? '{}');
}

const rps = (t: Throughput): string =>
  `${t.requestsPerSecond.toFixed(0)} req/s (p50 ${t.p50Ms} ms, p99 ${t.p99Ms} ms, errors ${t.errors})`;

async function main(): Promise<void> {
  console.log(`bench: node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  const definitions = definitionsLoad();
  console.log(
    `definitions: ${definitions.resourceTypes} resource types, index loads in ${definitions.loadMs.toFixed(1)} ms, ` +
      `first validation ${definitions.firstValidationMs.toFixed(1)} ms`,
  );

  const rest = await measureRest();
  const readRatio = rest.apiRead.requestsPerSecond / rest.bareRead.requestsPerSecond;
  const createRatio = rest.apiCreate.requestsPerSecond / rest.bareCreate.requestsPerSecond;
  console.log(`REST (${rest.bodyBytes}-byte Patient, one server process = one core):`);
  console.log(`  bare route GET    ${rps(rest.bareRead)}`);
  console.log(`  API read          ${rps(rest.apiRead)}  ratio ${readRatio.toFixed(2)}`);
  console.log(`  bare route POST   ${rps(rest.bareCreate)}`);
  console.log(`  API create        ${rps(rest.apiCreate)}  ratio ${createRatio.toFixed(2)}`);
  console.log('  published CRUD throughput per core (8-CPU figures / 8):');
  for (const [server, [low, high]] of Object.entries(PUBLISHED_CRUD_RPS)) {
    console.log(`    ${server.padEnd(8)} ${(low / 8).toFixed(0)}–${(high / 8).toFixed(0)} req/s`);
  }

  const startup = await measureStartup();
  console.log(
    `npm start: cold ${(startup.coldMs / 1000).toFixed(2)} s (new data dir: initdb, migrations, demo seed), ` +
      `warm ${(startup.warmMs / 1000).toFixed(2)} s`,
  );
  const search =
    process.env.SEARCH_BENCH === '0'
      ? undefined
      : await measureSearch(searchBenchOptionsFromEnv({ pglite: 10_000, postgres: 50_000 }));
  const client = await measureClient();
  printClientFigures(client);
  const graphql = process.env.GRAPHQL_BENCH === '0' ? undefined : await measureGraphQLLabDetail();
  if (graphql) {
    console.log(formatLabDetail(graphql));
  }
  // 1,000 bound sockets, commit → delivery and sustained writes (LIVE_BENCH=0 skips).
  const live = process.env.LIVE_BENCH === '0' ? undefined : await measureLive(liveBenchOptionsFromEnv());
  if (live) {
    console.log(formatLive(live));
  }
  // Bot $execute latency cold and warm (SERVICES_BENCH=0 skips).
  const bots = process.env.SERVICES_BENCH === '0' ? undefined : await measureBotLatency();
  if (bots) {
    console.log(formatBotLatency(bots));
  }
  // Agent $push round trip to an MLLP echo, direct and relayed (SERVICES_BENCH=0 skips).
  const agents = process.env.SERVICES_BENCH === '0' ? undefined : await measureAgentPush();
  if (agents) {
    console.log(formatAgentPush(agents));
  }
  // Bulk export throughput for 100,000 resources (EXPORT_BENCH=0 skips).
  const exports =
    process.env.SERVICES_BENCH === '0' || process.env.EXPORT_BENCH === '0'
      ? undefined
      : await measureExports();
  if (exports) {
    console.log(formatExportThroughput(exports));
  }
  // Mixed reads, searches and creates at 32 and 128 connections, memory before and after.
  const soak = process.env.SOAK_BENCH === '0' ? undefined : await measureSoak();
  if (soak) {
    console.log(formatSoak(soak));
  }
  // JS per screen, requests per screen, time to show (Chromium; APP_BENCH=0 skips).
  const app = process.env.APP_BENCH === '0' ? undefined : await measureApp();
  if (app) {
    console.log(formatApp(app));
  }
  // A long messages thread in Chromium (MESSAGES_BENCH=0 skips).
  const messagesThread = process.env.MESSAGES_BENCH === '0' ? undefined : await measureMessagesThread();
  if (messagesThread) {
    console.log(formatMessagesThread(messagesThread));
  }
  // The search table's own JS and time to rows (Chromium; SEARCH_TABLE_BENCH=0 skips).
  const searchTable = process.env.SEARCH_TABLE_BENCH === '0' ? undefined : await measureSearchTable();
  if (searchTable) {
    console.log(formatSearchTable(searchTable));
  }
  console.log(
    JSON.stringify({
      definitions,
      rest,
      readRatio,
      createRatio,
      startup,
      search,
      client,
      graphql,
      live,
      bots,
      agents,
      exports,
      soak,
      app,
      messagesThread,
      searchTable,
    }),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
