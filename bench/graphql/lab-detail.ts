// bench/graphql: the lab-result detail screen (a DiagnosticReport with its results,
// specimens and performer) loaded through ONE GraphQL request, against the same data through REST
// calls made one by one as a screen would make them (the report, then each reference in turn).
// Bloom's API in this process on a PGlite database in a temporary directory, the demo clinic
// seeded, requests as the system (the token check is not what is measured). Times are medians.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DiagnosticReport, Reference } from '@medplum/fhirtypes';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';
import { Repository, systemContext } from '../../src/server/repo';
import { getGraphQLSchema } from '../../src/server/graphql/schema';
import { seedDemoClinic } from '../../src/server/seed';

export interface LabDetailFigures {
  results: number;
  /** First $graphql request of the process: includes building the schema. */
  firstGraphQLMs: number;
  /** Building the schema from the definitions alone (once per process, on first use). */
  schemaBuildMs: number;
  graphql: { requests: number; medianMs: number };
  rest: { requests: number; medianMs: number };
  /** REST median time / GraphQL median time. */
  ratio: number;
}

const ITERATIONS = Number(process.env.GRAPHQL_BENCH_ITERATIONS ?? 50);

const LAB_DETAIL_QUERY = `query LabDetail($id: ID!) {
  DiagnosticReport(id: $id) {
    id status code { text } effectiveDateTime issued conclusion
    subject { display }
    performer { display resource { ... on Organization { name } } }
    specimen { resource { ... on Specimen { id type { text } collection { collectedDateTime } } } }
    result { resource { ... on Observation {
      id code { text } valueQuantity { value unit } valueString
      interpretation { text coding { code } } referenceRange { low { value } high { value } text }
      specimen { resource { ... on Specimen { id type { text } } } }
    } } }
  }
}`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`GET ${url}: ${response.status}`);
  }
  return (await response.json()) as T;
}

/** The screen's REST waterfall: the report, then each result, specimen and performer, one at a time. */
async function restWaterfall(fhirUrl: string, reportId: string): Promise<number> {
  const report = await getJson<DiagnosticReport>(`${fhirUrl}DiagnosticReport/${reportId}`);
  let requests = 1;
  const references: (Reference | undefined)[] = [
    ...(report.result ?? []),
    ...(report.specimen ?? []),
    ...(report.performer ?? []),
  ];
  for (const reference of references) {
    if (reference?.reference) {
      await getJson(`${fhirUrl}${reference.reference}`);
      requests++;
    }
  }
  return requests;
}

async function graphqlRequest(fhirUrl: string, reportId: string): Promise<void> {
  const response = await fetch(`${fhirUrl}$graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: LAB_DETAIL_QUERY, variables: { id: reportId } }),
  });
  const body = (await response.json()) as { errors?: unknown };
  if (!response.ok || body.errors) {
    throw new Error(`$graphql: ${response.status} ${JSON.stringify(body.errors)}`);
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function measureGraphQLLabDetail(): Promise<LabDetailFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-graphql-'));
  const config = { ...loadConfig({ LOG_LEVEL: 'warn', DATA_DIR: dataDir }), port: 0 };
  const db = await openDatabase(config);
  try {
    await migrateServer(db);
    const repo = new Repository(db, systemContext());
    await seedDemoClinic(repo);
    const app = await buildServer({ config, db, getContext: () => systemContext() });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const fhirUrl = `${address}/fhir/R4/`;
    try {
      const reports = await repo.search<DiagnosticReport>({ resourceType: 'DiagnosticReport', count: 100 });
      const report = reports.resources.sort((a, b) => (b.result?.length ?? 0) - (a.result?.length ?? 0))[0];
      const reportId = report.id as string;

      const firstGraphQLMs = await timed(() => graphqlRequest(fhirUrl, reportId));
      let restRequests = 0;
      for (let i = 0; i < 5; i++) {
        await graphqlRequest(fhirUrl, reportId);
        restRequests = await restWaterfall(fhirUrl, reportId);
      }
      const graphqlTimes: number[] = [];
      const restTimes: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        graphqlTimes.push(await timed(() => graphqlRequest(fhirUrl, reportId)));
        restTimes.push(await timed(() => restWaterfall(fhirUrl, reportId)));
      }
      const graphql = { requests: 1, medianMs: median(graphqlTimes) };
      const rest = { requests: restRequests, medianMs: median(restTimes) };
      return {
        results: report.result?.length ?? 0,
        firstGraphQLMs,
        schemaBuildMs: getGraphQLSchema().buildMs,
        graphql,
        rest,
        ratio: rest.medianMs / graphql.medianMs,
      };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `tsx bench/graphql/lab-detail.ts` runs this benchmark alone. */
export function formatLabDetail(figures: LabDetailFigures): string {
  return (
    `GraphQL lab-result detail (DiagnosticReport + ${figures.results} results + specimens + performer):\n` +
    `  GraphQL  ${figures.graphql.requests} request,  ${figures.graphql.medianMs.toFixed(1)} ms (first request ${figures.firstGraphQLMs.toFixed(0)} ms, of which building the schema ${figures.schemaBuildMs.toFixed(0)} ms)\n` +
    `  REST     ${figures.rest.requests} requests one by one, ${figures.rest.medianMs.toFixed(1)} ms\n` +
    `  ratio    REST / GraphQL = ${figures.ratio.toFixed(1)}×`
  );
}
