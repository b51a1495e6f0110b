// `tsx bench/live/run.ts` (add --expose-gc for steadier memory figures): the live-updates benchmark
// alone; npm run bench runs it with the others (LIVE_BENCH=0 skips it there).
import { formatLive, liveBenchOptionsFromEnv, measureLive } from './index';

measureLive(liveBenchOptionsFromEnv()).then(
  (figures) => {
    console.log(formatLive(figures));
    console.log(JSON.stringify(figures));
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
