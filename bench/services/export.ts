// bench/services: bulk export throughput in resources per second for
// 100,000 resources (EXPORT_BENCH_RESOURCES), over real HTTP on loopback: POST $export, the job
// runs in the background (keyset pages through the search SQL, NDJSON files in BinaryStorage),
// polled every 100 ms to the manifest; then every file downloaded. The load (transaction Bundles of
// 1,000 PUTs through the repository, validated and indexed) is timed separately. PGlite, and
// PostgreSQL when TEST_DATABASE_URL is set. The reader is a practitioner: the access SQL applies.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bundle, Observation, Patient, Project, Resource } from '@medplum/fhirtypes';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db';
import { processBatch } from '../../src/server/fhir/batch';
import { getPatientCompartments } from '../../src/fhir';
import { Repository, systemContext } from '../../src/server/repo';
import type { RepositoryContext } from '../../src/server/repo';
import { openBenchDatabase, resetBenchDatabase } from '../search/database';
import type { BenchDatabaseLocation, BenchEngine } from '../search/database';
import { combinePolicies } from '../../src/server/access/policy';

export interface ExportThroughput {
  engine: BenchEngine;
  resources: number;
  /** Set-based SQL load of all the resources. */
  load: { seconds: number; resourcesPerSecond: number };
  /** The repository's transaction-Bundle path on a sample, for comparison. */
  repositoryLoad: { resources: number; seconds: number; resourcesPerSecond: number };
  export: { seconds: number; resourcesPerSecond: number; files: number; megabytes: number };
  download: { seconds: number; megabytesPerSecond: number };
}

const OBSERVATIONS_PER_PATIENT = 99;
const CHUNK = 1000;

/** Patients, each followed by its Observations, as transaction Bundles of CHUNK PUTs. */
function* datasetChunks(total: number): Generator<Resource[]> {
  let chunk: Resource[] = [];
  let made = 0;
  let patient: Patient | undefined;
  while (made < total) {
    let resource: Resource;
    if (!patient || made % (OBSERVATIONS_PER_PATIENT + 1) === 0) {
      patient = { resourceType: 'Patient', id: crypto.randomUUID(), name: [{ family: `Export${made}` }] };
      resource = patient;
    } else {
      resource = {
        resourceType: 'Observation',
        id: crypto.randomUUID(),
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }], text: 'Heart rate' },
        subject: { reference: `Patient/${patient.id}` },
        effectiveDateTime: new Date(Date.UTC(2024, 0, 1) + made * 60_000).toISOString(),
        valueQuantity: {
          value: 60 + (made % 40),
          unit: 'beats/minute',
          system: 'http://unitsofmeasure.org',
          code: '/min',
        },
      } satisfies Observation;
    }
    chunk.push(resource);
    made++;
    if (chunk.length === CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The rows as the repository stores them: meta stamped with version, time, project and compartments. */
function storedForm(resource: Resource, project: string): Resource {
  const compartment = getPatientCompartments(resource);
  return {
    ...resource,
    meta: {
      versionId: crypto.randomUUID(),
      lastUpdated: new Date().toISOString(),
      project,
      author: { reference: 'Device/bench' },
      ...(compartment.length > 0 ? { compartment } : {}),
    },
  };
}

/**
 * Set-based load: one statement per 1,000 resources into resource_history and resource, as the
 * repository stores them (one statement per resource, ~8 ms each on PGlite here, would take most of
 * the run). Search index tables stay empty: the export reads none of them.
 */
async function bulkLoad(
  db: Database,
  project: string,
  total: number,
): Promise<{ seconds: number; resourcesPerSecond: number }> {
  const started = performance.now();
  for (const chunk of datasetChunks(total)) {
    const rows = chunk.map((resource) => {
      const stored = storedForm(resource, project);
      return {
        resource_type: stored.resourceType,
        id: stored.id,
        version_id: stored.meta?.versionId,
        content: stored,
        last_updated: stored.meta?.lastUpdated,
        project,
        compartments: (stored.meta?.compartment ?? []).map((c) => c.reference),
      };
    });
    await db.query(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(resource_type text, id text, version_id uuid,
           content jsonb, last_updated timestamptz, project text, compartments text[])),
       h AS (
         INSERT INTO resource_history (version_id, resource_type, id, content, last_updated, deleted)
         SELECT version_id, resource_type, id, content, last_updated, false FROM input RETURNING seq, version_id)
       INSERT INTO resource (resource_type, id, version_id, content, last_updated, deleted, project, compartments, seq)
       SELECT i.resource_type, i.id, i.version_id, i.content, i.last_updated, false, i.project, i.compartments, h.seq
       FROM input i JOIN h USING (version_id)`,
      [JSON.stringify(rows)],
    );
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds: Number(seconds.toFixed(2)), resourcesPerSecond: Math.round(total / seconds) };
}

/** The repository's own write path (transaction Bundles of PUTs, validated and indexed), on a sample. */
async function repositoryLoad(
  db: Database,
  project: string,
  sample: number,
): Promise<{ seconds: number; resourcesPerSecond: number }> {
  const repo = new Repository(db, systemContext(project));
  const started = performance.now();
  for (const chunk of datasetChunks(sample)) {
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
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds: Number(seconds.toFixed(2)), resourcesPerSecond: Math.round(sample / seconds) };
}

function location(engine: BenchEngine, total: number): BenchDatabaseLocation {
  return engine === 'pglite'
    ? { engine, dataDir: path.join(os.tmpdir(), `bloom-export-bench-${total}`) }
    : { engine, connectionString: process.env.TEST_DATABASE_URL, schema: `bench_export_${total}` };
}

export async function measureExportThroughput(
  engine: BenchEngine,
  total = Number(process.env.EXPORT_BENCH_RESOURCES ?? 100_000),
): Promise<ExportThroughput> {
  const where = location(engine, total);
  await resetBenchDatabase(where);
  const db = await openBenchDatabase(where);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-export-'));
  try {
    const project = await new Repository(db, systemContext()).createResource<Project>({
      resourceType: 'Project',
      name: 'Export bench',
    });
    const projectId = project.id as string;
    // The repository path on a sample, in a project of its own (not exported).
    const sample = Math.min(total, Number(process.env.EXPORT_BENCH_REPOSITORY_SAMPLE ?? 2000));
    const repositoryLoaded = await repositoryLoad(db, `${projectId}-sample`, sample);
    const loaded = await bulkLoad(db, projectId, total);
    const reader: RepositoryContext = {
      project: projectId,
      author: { reference: 'Practitioner/bench' },
      access: {
        superAdmin: false,
        projectAdmin: false,
        profile: { reference: 'Practitioner/bench' },
        membership: { reference: 'ProjectMembership/bench' },
        policy: combinePolicies([], { reference: 'Practitioner/bench' }),
      },
    };
    const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), port: 0 };
    const app = await buildServer({ config, db, getContext: () => reader });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/fhir/R4/`;
    try {
      const started = performance.now();
      const kickoff = await fetch(`${base}$export?_type=Patient,Observation`, {
        method: 'POST',
        headers: { prefer: 'respond-async' },
      });
      if (kickoff.status !== 202)
        throw new Error(`kick-off answered ${kickoff.status}: ${await kickoff.text()}`);
      const statusUrl = (kickoff.headers.get('content-location') as string).replace(
        /^https?:\/\/[^/]+\/fhir\/R4\//,
        base,
      );
      let manifest: { output: { url: string; count: number }[] } | undefined;
      while (!manifest) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const status = await fetch(statusUrl);
        if (status.status === 200) manifest = await status.json();
        else if (status.status !== 202)
          throw new Error(`status answered ${status.status}: ${await status.text()}`);
        else await status.text();
      }
      const exportSeconds = (performance.now() - started) / 1000;
      const exported = manifest.output.reduce((sum, file) => sum + file.count, 0);
      if (exported !== total) throw new Error(`exported ${exported} of ${total} resources`);
      const downloadStarted = performance.now();
      let bytes = 0;
      for (const file of manifest.output) {
        const response = await fetch(file.url.replace(/^https?:\/\/[^/]+\/fhir\/R4\//, base));
        bytes += (await response.arrayBuffer()).byteLength;
      }
      const downloadSeconds = (performance.now() - downloadStarted) / 1000;
      const megabytes = bytes / 1024 / 1024;
      return {
        engine,
        resources: total,
        load: loaded,
        repositoryLoad: { resources: sample, ...repositoryLoaded },
        export: {
          seconds: Number(exportSeconds.toFixed(2)),
          resourcesPerSecond: Math.round(total / exportSeconds),
          files: manifest.output.length,
          megabytes: Number(megabytes.toFixed(1)),
        },
        download: {
          seconds: Number(downloadSeconds.toFixed(2)),
          megabytesPerSecond: Number((megabytes / downloadSeconds).toFixed(1)),
        },
      };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    await resetBenchDatabase(where);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export async function measureExports(): Promise<ExportThroughput[]> {
  const engines: BenchEngine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const figures: ExportThroughput[] = [];
  for (const engine of engines) {
    figures.push(await measureExportThroughput(engine));
  }
  return figures;
}

export function formatExportThroughput(figures: ExportThroughput[]): string {
  return figures
    .map(
      (f) =>
        `Bulk export on ${f.engine}, ${f.resources} resources: set-based load ${f.load.seconds} s (${f.load.resourcesPerSecond}/s; ` +
        `repository path ${f.repositoryLoad.resourcesPerSecond}/s on ${f.repositoryLoad.resources}); ` +
        `$export ${f.export.seconds} s (${f.export.resourcesPerSecond} resources/s, ${f.export.files} files, ${f.export.megabytes} MB); ` +
        `download ${f.download.seconds} s (${f.download.megabytesPerSecond} MB/s)`,
    )
    .join('\n');
}
