// Builds src/server/bots/generated/care-plan-bot.js: the clinic's care-plan bot
// (src/server/bots/care-plan) with the pure registration module it imports, bundled by esbuild into the one
// CommonJS file a Bot's executableCode holds. Skips the work when the output is newer than its
// inputs, unless --force. Usage: tsx scripts/build-care-plan-bot.ts [--force]
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';
import { CARE_PLAN_BOT_BUNDLE_PATH } from '../src/server/bots/care-plan/care-plan-bot-bundle';

const ENTRY = 'src/server/bots/care-plan/care-plan-bot.ts';
const INPUTS = [ENTRY, 'src/server/bots/care-plan/registration.ts', 'scripts/build-care-plan-bot.ts'];

function upToDate(): boolean {
  if (!existsSync(CARE_PLAN_BOT_BUNDLE_PATH)) return false;
  const built = statSync(CARE_PLAN_BOT_BUNDLE_PATH).mtimeMs;
  return INPUTS.every((input) => statSync(input).mtimeMs <= built);
}

async function main(): Promise<void> {
  if (!process.argv.includes('--force') && upToDate()) {
    console.log(`care-plan-bot: ${CARE_PLAN_BOT_BUNDLE_PATH} is up to date`);
    return;
  }
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2020',
    banner: { js: '// Bloom care-plan bot, bundled by scripts/build-care-plan-bot.ts' },
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  mkdirSync(dirname(CARE_PLAN_BOT_BUNDLE_PATH), { recursive: true });
  writeFileSync(CARE_PLAN_BOT_BUNDLE_PATH, code);
  console.log(
    `care-plan-bot: bundled into ${CARE_PLAN_BOT_BUNDLE_PATH} (${(code.length / 1024).toFixed(1)} kB)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
