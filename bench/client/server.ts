// Bloom's API in this process on a fresh PGlite database, for the client benchmarks: the client
// speaks real HTTP to it. No token check (system context): the benchmark measures the client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Patient } from '@medplum/fhirtypes';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';
import { systemContext } from '../../src/server/repo';

export interface BenchServer {
  baseUrl: string;
  patientIds: string[];
  close(): Promise<void>;
}

export async function startBenchServer(patients: number): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-client-'));
  const config = { ...loadConfig({ LOG_LEVEL: 'warn', DATA_DIR: dataDir }), port: 0 };
  const db = await openDatabase(config);
  await migrateServer(db);
  const app = await buildServer({ config, db, getContext: () => systemContext() });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `${address}/`;
  const patientIds: string[] = [];
  for (let i = 0; i < patients; i++) {
    const body: Patient = { resourceType: 'Patient', name: [{ given: [`P${i}`], family: 'Bench' }] };
    const response = await fetch(`${baseUrl}fhir/R4/Patient`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: JSON.stringify(body),
    });
    patientIds.push(((await response.json()) as Patient).id as string);
  }
  return {
    baseUrl,
    patientIds,
    async close() {
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
