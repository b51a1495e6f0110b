// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of a directory (the built app),
// at the strongest levels since this runs once per build; the app host serves the copy the browser
// accepts (@fastify/static preCompressed). Copies newer than their source are kept.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Extensions of the text files a Vite build writes (and of the files in public/). */
export const TEXT_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.json',
  '.svg',
  '.map',
  '.txt',
  '.xml',
  '.webmanifest',
]);

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

function isFresh(copy, sourceMtime) {
  return existsSync(copy) && statSync(copy).mtimeMs >= sourceMtime;
}

/** Compresses the text files under `dir`; returns how many copies were written. */
export function compressAssets(dir) {
  let written = 0;
  for (const file of filesUnder(dir)) {
    if (!TEXT_EXTENSIONS.has(extname(file))) continue;
    const mtime = statSync(file).mtimeMs;
    const br = `${file}.br`;
    const gz = `${file}.gz`;
    if (isFresh(br, mtime) && isFresh(gz, mtime)) continue;
    const body = readFileSync(file);
    writeFileSync(
      br,
      brotliCompressSync(body, {
        params: {
          // Source maps are large and rarely fetched: a fast level keeps the build short.
          [constants.BROTLI_PARAM_QUALITY]: file.endsWith('.map') ? 5 : constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    writeFileSync(gz, gzipSync(body, { level: 9 }));
    written += 2;
  }
  return written;
}
