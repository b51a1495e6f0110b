// `tsx bench/app/run.ts`: the app benchmarks alone, the screens then the search table (npm run bench
// runs them too; APP_BENCH=0 and SEARCH_TABLE_BENCH=0 skip them there). Builds the app first when it
// is stale (scripts/build.mjs, through the e2e support).
import { formatApp, measureApp } from './index';
import { formatSearchTable, measureSearchTable } from './search-table';

async function main(): Promise<void> {
  const app = await measureApp();
  console.log(formatApp(app));
  const table = await measureSearchTable();
  console.log(formatSearchTable(table));
  console.log(JSON.stringify({ app, table }));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
