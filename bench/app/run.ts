// `tsx bench/app/run.ts`: the app benchmark alone (npm run bench runs it too; APP_BENCH=0 skips it
// there). Builds the app first when it is stale (scripts/build.mjs, through the e2e support).
import { formatApp, measureApp } from './index';

measureApp().then(
  (figures) => {
    console.log(formatApp(figures));
    console.log(JSON.stringify(figures));
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
