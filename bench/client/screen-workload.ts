// A screen-like workload: 50 readReference calls issued in one tick, as a
// list screen does for its rows' references, with and without auto-batching. Counts the HTTP
// requests the client issues and times until every read has settled, over real HTTP.
import { performance } from 'node:perf_hooks';
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { BenchServer } from './server';

export interface WorkloadFigures {
  reads: number;
  requests: number;
  medianMs: number;
}

const ROUNDS = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function measureScreenWorkload(
  server: BenchServer,
  autoBatchTime: number,
): Promise<WorkloadFigures> {
  let requests = 0;
  const countingFetch = (input: string, init?: RequestInit): Promise<Response> => {
    requests++;
    return fetch(input, init);
  };
  const times: number[] = [];
  let requestsPerRound = 0;
  for (let round = 0; round < ROUNDS + 3; round++) {
    // A fresh client per round: nothing cached, as on a screen's first render.
    const client = new BloomClient({
      baseUrl: server.baseUrl,
      fetch: countingFetch,
      storage: new PrefixedStorage(new MemoryStorage()),
      autoBatchTime,
      cacheTime: 60000,
    });
    requests = 0;
    const start = performance.now();
    await Promise.all(server.patientIds.map((id) => client.readReference({ reference: `Patient/${id}` })));
    const elapsed = performance.now() - start;
    if (round >= 3) {
      // The first rounds warm up connections and the JIT.
      times.push(elapsed);
      requestsPerRound = requests;
    }
  }
  return { reads: server.patientIds.length, requests: requestsPerRound, medianMs: median(times) };
}
