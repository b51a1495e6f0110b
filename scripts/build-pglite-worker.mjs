// Bundles the PGlite worker thread's entry (src/server/db/pglite-worker.ts) into one ES module,
// dist/server/pglite-worker.mjs, with PGlite itself left external (loaded from node_modules). Node
// loads it in a worker thread as is, under `npm start` (tsx), the bench and jest alike.
// Skips the work when the output is newer than its inputs, unless --force.
// Usage: node scripts/build-pglite-worker.mjs [--force] (scripts/build.mjs calls it).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PGLITE_WORKER_OUTPUT = 'dist/server/pglite-worker.mjs';
const INPUTS = ['src/server/db', 'scripts/build-pglite-worker.mjs', 'package-lock.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

export async function buildPgliteWorker({ force = false } = {}) {
  if (!force && existsSync(PGLITE_WORKER_OUTPUT)) {
    const built = statSync(PGLITE_WORKER_OUTPUT).mtimeMs;
    if (INPUTS.every((input) => newestMtime(input) <= built)) return;
  }
  const started = Date.now();
  // Loaded only to build: importing esbuild costs a warm start about 0.2 s.
  const { build } = await import('esbuild');
  await build({
    entryPoints: ['src/server/db/pglite-worker.ts'],
    outfile: PGLITE_WORKER_OUTPUT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@electric-sql/pglite'],
    logLevel: 'warning',
  });
  console.log(`build: PGlite worker bundled into ${PGLITE_WORKER_OUTPUT} in ${Date.now() - started} ms`);
}

if (process.argv[1]?.endsWith('build-pglite-worker.mjs')) {
  await buildPgliteWorker({ force: process.argv.includes('--force') });
}
