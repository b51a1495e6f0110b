// Bundles the service worker (src/app/sw/service-worker.ts) into dist/app/sw.js after the app build,
// with the list of files it precaches (the app shell: index.html, the hashed assets, the manifest and
// icons; source maps and the .br/.gz copies are not) and a version from their contents, so each new
// build installs a new worker that replaces the old shell.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { build } from 'esbuild';

const SKIPPED = /\.(map|br|gz)$|^sw\.js$/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The URL paths the worker caches at install, and a hash of their contents. */
export function precacheList(appDir) {
  const hash = createHash('sha256');
  const paths = [];
  for (const file of filesUnder(appDir).sort()) {
    const path = relative(appDir, file).split(sep).join('/');
    if (SKIPPED.test(path)) continue;
    paths.push(`/${path}`);
    hash.update(path).update(readFileSync(file));
  }
  // The worker's own code too: a changed worker gets a new shell cache.
  for (const file of filesUnder('src/app/sw').sort()) hash.update(readFileSync(file));
  return { paths, version: hash.digest('hex').slice(0, 16) };
}

export async function buildServiceWorker(appDir = 'dist/app') {
  const { paths, version } = precacheList(appDir);
  await build({
    entryPoints: ['src/app/sw/service-worker.ts'],
    outfile: join(appDir, 'sw.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    define: {
      __BLOOM_PRECACHE__: JSON.stringify(paths),
      __BLOOM_VERSION__: JSON.stringify(version),
    },
    logLevel: 'warning',
  });
  return { files: paths.length, version };
}
