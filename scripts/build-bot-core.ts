// Builds src/server/bots/generated/medplum-core.js: the part of the installed
// @medplum/core that bots may require, bundled by esbuild into one script that the QuickJS sandbox
// evaluates when a bot first asks for it. Skips the work when the output is newer than its inputs,
// unless --force. Usage: tsx scripts/build-bot-core.ts [--force]
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';
import {
  MEDPLUM_CORE_BUNDLE_PATH,
  MEDPLUM_CORE_EXPORTS,
  MEDPLUM_CORE_GLOBAL,
} from '../src/server/bots/medplum-core-exports';

const PACKAGE_JSON = 'node_modules/@medplum/core/package.json';
const INPUTS = [PACKAGE_JSON, 'src/server/bots/medplum-core-exports.ts', 'scripts/build-bot-core.ts'];

function upToDate(): boolean {
  if (!existsSync(MEDPLUM_CORE_BUNDLE_PATH)) return false;
  const built = statSync(MEDPLUM_CORE_BUNDLE_PATH).mtimeMs;
  return INPUTS.every((input) => statSync(input).mtimeMs <= built);
}

async function main(): Promise<void> {
  if (!process.argv.includes('--force') && upToDate()) {
    console.log(`bot-core: ${MEDPLUM_CORE_BUNDLE_PATH} is up to date`);
    return;
  }
  const started = Date.now();
  const { version } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string };
  const result = await build({
    stdin: {
      contents: `export { ${MEDPLUM_CORE_EXPORTS.join(', ')} } from '@medplum/core';`,
      resolveDir: process.cwd(),
      sourcefile: 'bot-core-entry.js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: MEDPLUM_CORE_GLOBAL,
    platform: 'neutral',
    target: 'es2020',
    minify: true,
    // The package is one file whose top level also sets up its WebSocket client; with these two
    // constants that statement is side-effect free and tree-shaken, and QuickJS has no WebSocket.
    define: { 'WebSocket.CLOSING': '2', 'WebSocket.CLOSED': '3' },
    banner: { js: `// @medplum/core ${version} (Apache-2.0), bundled by scripts/build-bot-core.ts` },
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  mkdirSync(dirname(MEDPLUM_CORE_BUNDLE_PATH), { recursive: true });
  writeFileSync(MEDPLUM_CORE_BUNDLE_PATH, code);
  console.log(
    `bot-core: ${MEDPLUM_CORE_EXPORTS.length} exports of @medplum/core ${version} bundled into ` +
      `${MEDPLUM_CORE_BUNDLE_PATH} (${(code.length / 1024).toFixed(1)} kB) in ${Date.now() - started} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
