// Where the built care-plan bot lives (scripts/build-care-plan-bot.ts writes it) and how the seed reads it.
import fs from 'node:fs';

export const CARE_PLAN_BOT_BUNDLE_PATH = 'src/server/bots/generated/care-plan-bot.js';

export function readCarePlanBotCode(): string {
  if (!fs.existsSync(CARE_PLAN_BOT_BUNDLE_PATH)) {
    throw new Error(
      `The care-plan bot ${CARE_PLAN_BOT_BUNDLE_PATH} is missing: run "node scripts/build.mjs"`,
    );
  }
  return fs.readFileSync(CARE_PLAN_BOT_BUNDLE_PATH, 'utf8');
}
