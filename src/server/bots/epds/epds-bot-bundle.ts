// Where the built EPDS scoring bot lives (scripts/build-epds-bot.ts writes it) and how the seed reads it.
import fs from 'node:fs';

export const EPDS_BOT_BUNDLE_PATH = 'src/server/bots/generated/epds-scoring-bot.js';

export function readEpdsBotCode(): string {
  if (!fs.existsSync(EPDS_BOT_BUNDLE_PATH)) {
    throw new Error(`The EPDS scoring bot ${EPDS_BOT_BUNDLE_PATH} is missing: run "node scripts/build.mjs"`);
  }
  return fs.readFileSync(EPDS_BOT_BUNDLE_PATH, 'utf8');
}
