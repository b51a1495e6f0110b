// Builds src/server/bots/generated/epds-scoring-bot.js: the clinic's EPDS scoring bot
// (src/server/bots/epds) with the pure scoring module it imports, bundled by esbuild into the one
// CommonJS file a Bot's executableCode holds. Skips the work when the output is newer than its
// inputs, unless --force. Usage: tsx scripts/build-epds-bot.ts [--force]
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';
import { EPDS_BOT_BUNDLE_PATH } from '../src/server/bots/epds/epds-bot-bundle';

const ENTRY = 'src/server/bots/epds/epds-scoring-bot.ts';
const INPUTS = [
  ENTRY,
  'src/server/bots/epds/plan-step.ts',
  'src/fhir/screening/epds.ts',
  'scripts/build-epds-bot.ts',
];

function upToDate(): boolean {
  if (!existsSync(EPDS_BOT_BUNDLE_PATH)) return false;
  const built = statSync(EPDS_BOT_BUNDLE_PATH).mtimeMs;
  return INPUTS.every((input) => statSync(input).mtimeMs <= built);
}

async function main(): Promise<void> {
  if (!process.argv.includes('--force') && upToDate()) {
    console.log(`epds-bot: ${EPDS_BOT_BUNDLE_PATH} is up to date`);
    return;
  }
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2020',
    banner: { js: '// Bloom EPDS scoring bot, bundled by scripts/build-epds-bot.ts' },
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  mkdirSync(dirname(EPDS_BOT_BUNDLE_PATH), { recursive: true });
  writeFileSync(EPDS_BOT_BUNDLE_PATH, code);
  console.log(`epds-bot: bundled into ${EPDS_BOT_BUNDLE_PATH} (${(code.length / 1024).toFixed(1)} kB)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
