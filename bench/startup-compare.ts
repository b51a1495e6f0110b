// Start-up of two checkouts side by side: `npx tsx bench/startup-compare.ts BEFORE_DIR [AFTER_DIR]`
// (AFTER_DIR defaults to this one). Each round measures cold and warm `npm start` of one checkout,
// then the other, alternately, so machine load falls on both; prints each round, the medians,
// after/before ratios and `uptime`'s load. Both checkouts must be built (node scripts/build.mjs).
import { execSync } from 'node:child_process';
import path from 'node:path';
import { measureStartup } from './startup';

const ROUNDS = Number(process.env.ROUNDS ?? 3);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const [beforeArg, afterArg] = process.argv.slice(2);
  if (!beforeArg) throw new Error('usage: tsx bench/startup-compare.ts BEFORE_DIR [AFTER_DIR]');
  const dirs = { before: path.resolve(beforeArg), after: path.resolve(afterArg ?? '.') };
  const results: Record<'before' | 'after', { cold: number[]; warm: number[] }> = {
    before: { cold: [], warm: [] },
    after: { cold: [], warm: [] },
  };
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternate which goes first so neither always meets the other's leftovers.
    const order: ('before' | 'after')[] = round % 2 === 1 ? ['before', 'after'] : ['after', 'before'];
    for (const which of order) {
      const times = await measureStartup(18103, 13000, dirs[which]);
      results[which].cold.push(times.coldMs);
      results[which].warm.push(times.warmMs);
      console.log(
        `round ${round} ${which.padEnd(6)} cold ${Math.round(times.coldMs)} ms, warm ${Math.round(times.warmMs)} ms` +
          `  (load ${execSync('uptime')
            .toString()
            .trim()
            .replace(/.*load average: /, '')})`,
      );
    }
  }
  for (const kind of ['cold', 'warm'] as const) {
    const before = median(results.before[kind]);
    const after = median(results.after[kind]);
    console.log(
      `${kind}: before ${Math.round(before)} ms, after ${Math.round(after)} ms (medians of ${ROUNDS}), after/before ${(after / before).toFixed(2)}`,
    );
  }
  console.log(execSync('uptime').toString().trim());
}

void main();
