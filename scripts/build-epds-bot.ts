// Builds src/server/bots/generated/epds-scoring-bot.js: the clinic's EPDS scoring bot
// (src/server/bots/epds) with the pure scoring and plan-step modules it imports.
// Usage: tsx scripts/build-epds-bot.ts [--force]
import { EPDS_BOT_BUNDLE_PATH } from '../src/server/bots/epds/epds-bot-bundle';
import { runBundleBot } from './bundle-bot';

const ENTRY = 'src/server/bots/epds/epds-scoring-bot.ts';

runBundleBot(
  {
    name: 'EPDS scoring bot',
    entry: ENTRY,
    inputs: [
      ENTRY,
      'src/server/bots/epds/plan-step.ts',
      'src/fhir/screening/epds.ts',
      'scripts/build-epds-bot.ts',
    ],
    output: EPDS_BOT_BUNDLE_PATH,
  },
  'scripts/build-epds-bot.ts',
);
