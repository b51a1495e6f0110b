// Cold and warm start-up of `npm start`: time from launching `node scripts/start.mjs` until the
// API's /healthcheck and the app's index page both answer. Cold = a new, empty DATA_DIR (database
// creation, migrations, demo seed); warm = the same DATA_DIR again. Builds are assumed current
// (run.ts builds first), so neither figure includes a fresh app build.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export interface StartupTimes {
  coldMs: number;
  warmMs: number;
}

async function waitForOk(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not answer in time`);
}

async function timeOneStart(dataDir: string, apiPort: number, appPort: number, cwd: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(apiPort), APP_PORT: String(appPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const deadline = Date.now() + 120_000;
    await waitForOk(`http://localhost:${apiPort}/healthcheck`, deadline);
    await waitForOk(`http://localhost:${appPort}/`, deadline);
    return performance.now() - started;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
}

/** `cwd` is the checkout to start (another one's for a before/after comparison). */
export async function measureStartup(
  apiPort = 18103,
  appPort = 13000,
  cwd = process.cwd(),
): Promise<StartupTimes> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-start-'));
  try {
    const coldMs = await timeOneStart(dataDir, apiPort, appPort, cwd);
    const warmMs = await timeOneStart(dataDir, apiPort, appPort, cwd);
    return { coldMs, warmMs };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
