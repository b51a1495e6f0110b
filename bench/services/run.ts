// `tsx bench/services/run.ts`: the services benchmark alone (npm run bench runs it too;
// SERVICES_BENCH=0 skips it there).
import { formatBotLatency, measureBotLatency } from './bots';

measureBotLatency().then(
  (figures) => {
    console.log(formatBotLatency(figures));
    console.log(JSON.stringify(figures));
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
