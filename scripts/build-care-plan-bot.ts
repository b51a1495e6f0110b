// Builds src/server/bots/generated/care-plan-bot.js: the clinic's care-plan bot
// (src/server/bots/care-plan) with the pure registration module it imports.
// Usage: tsx scripts/build-care-plan-bot.ts [--force]
import { CARE_PLAN_BOT_BUNDLE_PATH } from '../src/server/bots/care-plan/care-plan-bot-bundle';
import { runBundleBot } from './bundle-bot';

const ENTRY = 'src/server/bots/care-plan/care-plan-bot.ts';

runBundleBot(
  {
    name: 'care-plan bot',
    entry: ENTRY,
    inputs: [ENTRY, 'src/server/bots/care-plan/registration.ts', 'scripts/build-care-plan-bot.ts'],
    output: CARE_PLAN_BOT_BUNDLE_PATH,
  },
  'scripts/build-care-plan-bot.ts',
);
