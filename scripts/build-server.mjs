// Bundles the server (src/server/main.ts and the sources it imports) into ES modules: the entry
// dist/server/main.mjs and, in dist/server/chunks, what main.ts imports dynamically (the rest of the
// server, loaded while the database opens) and what both share. Every npm package is left external
// (loaded from node_modules), so `npm start` runs plain JavaScript instead of transpiling hundreds of
// TypeScript files through tsx on every start. Skips the work when no source file the last bundle
// read is newer than it.
// Usage: node scripts/build-server.mjs [--force] (scripts/build.mjs calls it).
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

export const SERVER_BUNDLE = 'dist/server/main.mjs';
const CHUNKS = 'dist/server/chunks';
// The source files the last bundle was built from (from esbuild's metafile).
const INPUT_LIST = 'dist/server/main.inputs.json';
const ALWAYS = ['scripts/build-server.mjs', 'package-lock.json', 'tsconfig.json'];

function upToDate() {
  if (!existsSync(SERVER_BUNDLE) || !existsSync(CHUNKS) || !existsSync(INPUT_LIST)) return false;
  const built = statSync(SERVER_BUNDLE).mtimeMs;
  const inputs = [...ALWAYS, ...JSON.parse(readFileSync(INPUT_LIST, 'utf8'))];
  // A deleted or renamed source counts as a change.
  return inputs.every((input) => existsSync(input) && statSync(input).mtimeMs <= built);
}

export async function buildServer({ force = false } = {}) {
  if (!force && upToDate()) return;
  const started = Date.now();
  // Loaded only to build: importing esbuild costs a warm start about 0.2 s.
  const { build } = await import('esbuild');
  // Chunk names carry a content hash: drop the previous build's so none is left behind.
  rmSync(CHUNKS, { recursive: true, force: true });
  const result = await build({
    entryPoints: ['src/server/main.ts'],
    outdir: 'dist/server',
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith('node_modules/'));
  writeFileSync(INPUT_LIST, `${JSON.stringify(inputs, null, 1)}\n`);
  console.log(`build: server bundled into ${SERVER_BUNDLE} in ${Date.now() - started} ms`);
}

if (process.argv[1]?.endsWith('build-server.mjs')) {
  await buildServer({ force: process.argv.includes('--force') });
}
