// What `npm start` runs (SPEC §2 Platform): the esbuild bundle dist/server/main.mjs, not the sources
// under tsx as every other server test does. Built as `npm start` builds it, started on a new data
// directory and again on the same one (the warm path: the database opens while the server's chunk
// loads), each time answering /healthcheck, a FHIR read and the app's page. PGlite (the default).
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Running {
  child: ChildProcess;
  apiUrl: string;
  appUrl: string;
}

async function startBundle(dataDir: string): Promise<Running> {
  let output = '';
  const child = spawn(process.execPath, ['dist/server/main.mjs'], {
    // No demo clinic: the seed is not what this test is about, and it would cost most of its time.
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      APP_PORT: '0',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const banner = /App:\s+(http:\/\/\S+)\s+FHIR API:\s+(http:\/\/\S+?)fhir\/R4\//;
  const started = Date.now();
  while (!banner.test(output)) {
    if (child.exitCode !== null || Date.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`The bundle did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const [, appUrl, apiUrl] = banner.exec(output) as RegExpExecArray;
  return { child, apiUrl, appUrl };
}

async function stop(running: Running): Promise<number | null> {
  if (running.child.exitCode !== null) return running.child.exitCode;
  const exited = new Promise<number | null>((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGINT');
  return exited;
}

async function expectServing(running: Running): Promise<void> {
  const health = await fetch(`${running.apiUrl}healthcheck`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true, database: 'pglite' });
  const metadata = await fetch(`${running.apiUrl}fhir/R4/metadata`);
  expect(metadata.status).toBe(200);
  expect(await metadata.json()).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1' });
  // A read without a token: the FHIR routes and their access check are in the bundle.
  const read = await fetch(`${running.apiUrl}fhir/R4/Patient/00000000-0000-4000-8000-000000000000`);
  expect(read.status).toBe(401);
  const page = await fetch(running.appUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<div id="root">/);
}

describe('the server bundle npm start runs', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bundle-'));

  beforeAll(() => {
    // As npm start builds it (skipped when current); the app must exist for the app host.
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { encoding: 'utf8' });
    expect(build.status).toBe(0);
  }, 600_000);

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on a new data directory and again on the same one, serving the API and the app', async () => {
    const cold = await startBundle(dataDir);
    try {
      await expectServing(cold);
    } finally {
      expect(await stop(cold)).toBe(0);
    }
    const warm = await startBundle(dataDir);
    try {
      await expectServing(warm);
    } finally {
      expect(await stop(warm)).toBe(0);
    }
  }, 300_000);
});
