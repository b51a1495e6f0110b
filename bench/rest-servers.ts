// Child process of the REST benchmark: starts, side by side in this one process, a bare Fastify
// route that answers a fixed JSON body (the baseline) and Bloom's API on a PGlite database in a
// temporary directory, then prints their URLs as one JSON line and waits to be killed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { ApiCompression } from '../src/server/api-delivery';
import { buildServer } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db';
import { migrateServer } from '../src/server/migrations';
import { systemContext } from '../src/server/repo';

/** A patient of the demo clinic's shape: what the benchmark creates and reads. */
export const benchPatient = {
  resourceType: 'Patient',
  name: [{ given: ['Maria'], family: 'Garcia' }],
  gender: 'female',
  birthDate: '1994-03-02',
  telecom: [{ system: 'email', value: 'maria@bloom.example' }],
  address: [{ line: ['12 Orchard Lane'], city: 'Springfield', state: 'IL', postalCode: '62701' }],
};

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-rest-'));
  const config = {
    ...loadConfig({ LOG_LEVEL: 'warn', DATA_DIR: dataDir, DATABASE_URL: process.env.BENCH_DATABASE_URL }),
    port: 0,
  };
  const db = await openDatabase(config);
  await migrateServer(db);
  // The benchmark measures the REST layer itself: no token check.
  // BENCH_COMPRESSION (JSON of ApiCompression): bench/api-compression.ts compares levels side by side.
  const compression = process.env.BENCH_COMPRESSION
    ? (JSON.parse(process.env.BENCH_COMPRESSION) as ApiCompression)
    : undefined;
  const api = await buildServer({ config, db, getContext: () => systemContext(), compression });
  const apiAddress = await api.listen({ port: 0, host: '127.0.0.1' });

  // The baseline answers with a body of exactly the size of a stored patient as our API returns it.
  const created = await fetch(`${apiAddress}/fhir/R4/Patient`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: JSON.stringify(benchPatient),
  });
  const fixedBody = await created.text();
  const bare = Fastify({ logger: false });
  // The baseline parses the same JSON body our API gets, so create compares like with like.
  bare.addContentTypeParser('application/fhir+json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (err) {
      done(err as Error);
    }
  });
  const reply = (): string => fixedBody;
  bare.get('/fixed', reply);
  bare.post('/fixed', reply);
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

  console.log(
    JSON.stringify({ api: apiAddress, bare: bareAddress, bodyBytes: Buffer.byteLength(fixedBody) }),
  );
  const stop = async (): Promise<void> => {
    await bare.close();
    await api.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

void main();
