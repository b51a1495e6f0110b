// `tsx bench/services/run.ts`: the services benchmark alone (npm run bench runs it too;
// SERVICES_BENCH=0 skips it there): bot latency, then bulk export throughput (EXPORT_BENCH=0 skips).
import { formatBotLatency, measureBotLatency } from './bots';
import { formatExportThroughput, measureExports } from './export';

async function main(): Promise<void> {
  const bots = await measureBotLatency();
  console.log(formatBotLatency(bots));
  const exports = process.env.EXPORT_BENCH === '0' ? undefined : await measureExports();
  if (exports) {
    console.log(formatExportThroughput(exports));
  }
  console.log(JSON.stringify({ bots, exports }));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
