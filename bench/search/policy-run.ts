// The AccessPolicy budget alone, on a clinic bench/search/run.ts already loaded (no load, no HTTP
// load): `npx tsx bench/search/policy-run.ts` with the same SEARCH_BENCH_* settings. Prints the
// machine's load average beside the figures, which are ratios of searches run alternately.
import os from 'node:os';
import type { BenchEngine } from './database';
import { benchLocation, countResources, openBenchDatabase, warmCaches } from './database';
import { datasetShape } from './dataset';
import { hotQueries } from './hot-queries';
import { measurePolicyBudget, placeInBenchProject, printPolicyFigures } from './policy-budget';
import { searchBenchOptionsFromEnv } from './run';

async function main(): Promise<void> {
  const options = searchBenchOptionsFromEnv();
  for (const engine of options.engines as BenchEngine[]) {
    const shape = datasetShape(options.sizes[engine]);
    const db = await openBenchDatabase(benchLocation(engine, shape.total));
    try {
      const present = await countResources(db);
      if (present !== shape.total) {
        throw new Error(
          `${engine}: ${present} resources present, expected ${shape.total}: run bench/search/run.ts first`,
        );
      }
      await placeInBenchProject(db);
      await db.query('ANALYZE');
      // As run.ts before it times searches: the search tables read into memory.
      const cache = await warmCaches(db);
      console.log(`  shared_buffers ${cache.sharedBuffers ?? '-'}, ${cache.prewarmed} relations prewarmed`);
      const load = () =>
        os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ');
      console.log(
        `policy budget on ${engine}: ${shape.total} resources, ${os.cpus().length} cores, load ${load()}`,
      );
      const figures = await measurePolicyBudget(db, hotQueries(shape), {
        samples: options.samples,
        warmup: Math.min(20, Math.ceil(options.samples / 5)),
      });
      printPolicyFigures(figures);
      console.log(`  load average after: ${load()}`);
    } finally {
      await db.close();
    }
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
