// Cache-hit read time: readResource and getCached on a warm cache against a
// plain Map lookup of the same resources, in ns per read.
import { performance } from 'node:perf_hooks';
import type { Resource } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import type { BenchServer } from './server';

export interface CacheHitFigures {
  mapNs: number;
  getCachedNs: number;
  readResourceNs: number;
}

const READS = 1_000_000;

function nsPerRead(run: () => number): number {
  run(); // warm-up
  const start = performance.now();
  const checksum = run();
  const elapsed = performance.now() - start;
  if (checksum < 0) {
    console.log(checksum); // keeps the loop's work observable
  }
  return (elapsed * 1e6) / READS;
}

export async function measureCacheHit(server: BenchServer): Promise<CacheHitFigures> {
  const client = new BloomClient({
    baseUrl: server.baseUrl,
    storage: new PrefixedStorage(new MemoryStorage()),
    cacheTime: 60 * 60 * 1000,
  });
  const ids = server.patientIds;
  const map = new Map<string, Resource>();
  for (const id of ids) {
    map.set(`Patient/${id}`, await client.readResource('Patient', id));
  }
  const keys = ids.map((id) => `Patient/${id}`);
  const mapNs = nsPerRead(() => {
    let n = 0;
    for (let i = 0; i < READS; i++) {
      n += map.get(keys[i % keys.length])?.id?.length ?? 0;
    }
    return n;
  });
  const getCachedNs = nsPerRead(() => {
    let n = 0;
    for (let i = 0; i < READS; i++) {
      n += client.getCached('Patient', ids[i % ids.length])?.id?.length ?? 0;
    }
    return n;
  });
  const readResourceNs = nsPerRead(() => {
    let n = 0;
    for (let i = 0; i < READS; i++) {
      n += client.readResource('Patient', ids[i % ids.length]).read().id?.length ?? 0;
    }
    return n;
  });
  return { mapNs, getCachedNs, readResourceNs };
}
