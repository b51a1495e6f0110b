// The platform client's benchmark: requests issued and time for a screen of 50
// readReference calls with and without auto-batching, and cache-hit reads against a Map.
import { measureCacheHit } from './cache-hit';
import type { CacheHitFigures } from './cache-hit';
import { measureScreenWorkload } from './screen-workload';
import type { WorkloadFigures } from './screen-workload';
import { startBenchServer } from './server';

export interface ClientFigures {
  unbatched: WorkloadFigures;
  batched: WorkloadFigures;
  autoBatchTime: number;
  cacheHit: CacheHitFigures;
}

const READS = 50;
const AUTO_BATCH_TIME = 10;

export async function measureClient(): Promise<ClientFigures> {
  const server = await startBenchServer(READS);
  try {
    const unbatched = await measureScreenWorkload(server, 0);
    const batched = await measureScreenWorkload(server, AUTO_BATCH_TIME);
    const cacheHit = await measureCacheHit(server);
    return { unbatched, batched, autoBatchTime: AUTO_BATCH_TIME, cacheHit };
  } finally {
    await server.close();
  }
}

export function printClientFigures(figures: ClientFigures): void {
  const { unbatched, batched, cacheHit } = figures;
  console.log(
    `platform client (${unbatched.reads} readReference calls in one tick, real HTTP, median of 30):`,
  );
  console.log(`  no batching         ${unbatched.requests} requests, ${unbatched.medianMs.toFixed(1)} ms`);
  console.log(
    `  autoBatchTime ${figures.autoBatchTime} ms ${batched.requests} request(s), ${batched.medianMs.toFixed(1)} ms` +
      `  ratio requests ${(unbatched.requests / batched.requests).toFixed(0)}:1, time ${(unbatched.medianMs / batched.medianMs).toFixed(2)}x faster`,
  );
  console.log(
    `  cache hit: Map.get ${cacheHit.mapNs.toFixed(1)} ns, getCached ${cacheHit.getCachedNs.toFixed(1)} ns ` +
      `(ratio ${(cacheHit.getCachedNs / cacheHit.mapNs).toFixed(1)}), readResource().read() ${cacheHit.readResourceNs.toFixed(1)} ns ` +
      `(ratio ${(cacheHit.readResourceNs / cacheHit.mapNs).toFixed(1)})`,
  );
}

// `npx tsx bench/client/index.ts` runs this benchmark alone.
if (process.argv[1]?.endsWith('bench/client/index.ts')) {
  measureClient().then(
    (figures) => {
      printClientFigures(figures);
      console.log(JSON.stringify(figures));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
