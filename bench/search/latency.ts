// p50/p99 of each hot search through Repository.search next to its hand-written floor query, one
// request at a time, same targets for both; also checks both fetched the same result.
import type { Database } from '../../src/server/db';
import { parseSearchRequest } from '../../src/fhir/search';
import { Repository, systemContext } from '../../src/server/repo';
import { executeSearch } from '../../src/server/search/search-engine';
import { seededRandom } from './dataset';
import type { HotQuery } from './hot-queries';

export interface QueryLatency {
  name: string;
  engine: { p50Ms: number; p99Ms: number };
  floor: { p50Ms: number; p99Ms: number };
  /** engine p50 / floor p50 (goal: ≤ 2) */
  ratio: number;
  /** samples where the engine's result differed from the floor's */
  mismatches: number;
  samples: number;
  meanMatches: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Number(sorted[Math.max(0, index)].toFixed(2));
}

function summary(times: number[]): { p50Ms: number; p99Ms: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

const sameSet = (a: string[], b: string[]): boolean =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

export async function measureLatency(
  db: Database,
  queries: HotQuery[],
  options: { samples: number; warmup: number },
): Promise<QueryLatency[]> {
  const repo = new Repository(db, systemContext());
  const figures: QueryLatency[] = [];
  for (const query of queries) {
    const random = seededRandom(7);
    const engineTimes: number[] = [];
    const floorTimes: number[] = [];
    let mismatches = 0;
    let matchCount = 0;
    for (let i = 0; i < options.warmup + options.samples; i++) {
      const target = query.pick(random);
      const request = parseSearchRequest(target.url);
      // Alternate which runs first, so neither always finds the pages the other just read.
      const engineFirst = i % 2 === 0;
      const floorBefore = engineFirst ? undefined : await timed(() => target.floor(db));
      const engineRun = await timed(() =>
        query.searchOptions
          ? executeSearch(db, systemContext(), request, query.searchOptions)
          : repo.search(request),
      );
      const floorRun = floorBefore ?? (await timed(() => target.floor(db)));
      if (i < options.warmup) {
        continue;
      }
      const result = engineRun.value;
      const floor = floorRun.value;
      engineTimes.push(engineRun.ms);
      floorTimes.push(floorRun.ms);
      matchCount += result.resources.length;
      const matches = result.resources.map((r) => r.id as string);
      const included = result.included.map((r) => r.id as string);
      if (matches.join() !== floor.matches.join() || !sameSet(included, floor.included)) {
        mismatches++;
      }
    }
    const engine = summary(engineTimes);
    const floor = summary(floorTimes);
    figures.push({
      name: query.name,
      engine,
      floor,
      ratio: Number((engine.p50Ms / Math.max(floor.p50Ms, 0.01)).toFixed(2)),
      mismatches,
      samples: options.samples,
      meanMatches: Number((matchCount / options.samples).toFixed(1)),
    });
  }
  return figures;
}
