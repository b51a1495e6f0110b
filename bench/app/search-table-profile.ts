// Where the main thread spends a cold load of the search table: `tsx bench/app/search-table-profile.ts`
// loads /Observation?_count=100 (APP_PROFILE_ROWS) in fresh windows as Dr. Chen (built app + API on
// PGlite with the demo clinic) under Chromium's sampling profiler (CDP Profiler), from navigation to the
// rows shown, and prints the functions with the most self time, each mapped through the build's source
// maps to its source file and package, then the time per package. Summed over APP_PROFILE_RUNS loads.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { launchChromium } from '../../tests/e2e/support/browser';
import { startBloom } from '../../tests/e2e/support/server';
import { decodeSegment, groupOf, type SourceMap } from './source-map';
import { ensureObservations, rowsShown, signedInState } from './search-table';
import { withPage } from './signed-in-page';

const RUNS = Number(process.env.APP_PROFILE_RUNS ?? 3);
const ROWS = Number(process.env.APP_PROFILE_ROWS ?? 100);
const TOP = Number(process.env.APP_PROFILE_TOP ?? 30);
const ASSETS = path.resolve(process.env.APP_DIR ?? 'dist/app', 'assets');

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

/** Per generated line: [column, source index, source line] of each mapped segment, in order. */
type LineMap = [number, number, number][][];
const maps = new Map<string, { sources: readonly string[]; lines: LineMap } | null>();

function lineMap(file: string) {
  if (maps.has(file)) return maps.get(file) ?? null;
  const mapFile = path.join(ASSETS, `${file}.map`);
  if (!fs.existsSync(mapFile)) {
    maps.set(file, null);
    return null;
  }
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as SourceMap;
  const lines: LineMap = [];
  let sourceIndex = 0;
  let sourceLine = 0;
  for (const line of map.mappings.split(';')) {
    const segments: [number, number, number][] = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const fields = decodeSegment(segment);
      column += fields[0];
      if (fields.length >= 4) {
        sourceIndex += fields[1];
        sourceLine += fields[2];
        segments.push([column, sourceIndex, sourceLine]);
      }
    }
    lines.push(segments);
  }
  const entry = { sources: map.sources, lines };
  maps.set(file, entry);
  return entry;
}

/** The source file (and line) a profiled frame's code came from. */
function sourceOf(frame: CallFrame): string {
  if (!frame.url) return `(${frame.functionName || 'native'})`;
  const file = new URL(frame.url).pathname.split('/').pop() ?? '';
  const map = lineMap(file);
  const segments = map?.lines[frame.lineNumber];
  if (!map || !segments) return file;
  let found: [number, number, number] | undefined;
  for (const segment of segments) {
    if (segment[0] > frame.columnNumber) break;
    found = segment;
  }
  if (!found) return file;
  const source = map.sources[found[1]] ?? file;
  return `${source}:${found[2] + 1}`;
}

function addTo(totals: Map<string, number>, key: string, ms: number) {
  totals.set(key, (totals.get(key) ?? 0) + ms);
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const bloom = await startBloom({ seed: true });
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  try {
    const chen = await signedInState(browser, bloom, 'dr.chen@bloom.example');
    await withPage(browser, chen, async (page) => {
      await page.goto(new URL('/', bloom.appUrl).toString());
      await ensureObservations(page, bloom, 120);
    });
    for (let run = 0; run < RUNS; run++) {
      await withPage(browser, chen, async (page) => {
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        await page.goto(new URL(`/Observation?_count=${ROWS}`, bloom.appUrl).toString(), {
          waitUntil: 'commit',
        });
        await rowsShown(page, ROWS);
        const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
        const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
        const samples = profile.samples ?? [];
        const deltas = profile.timeDeltas ?? [];
        for (let i = 0; i < samples.length; i++) {
          // A sample's time is the gap to the next sample.
          const ms = (deltas[i + 1] ?? 0) / 1000;
          const frame = nodes.get(samples[i])?.callFrame;
          if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
          const source = sourceOf(frame);
          total += ms;
          const shown = source.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, '');
          addTo(byFunction, `${frame.functionName || '(anonymous)'}  ${shown}`, ms);
          addTo(byPackage, frame.url ? groupOf(source.replace(/:\d+$/, '')) : source, ms);
        }
      });
    }
  } finally {
    await browser.close();
    await bloom.stop();
  }
  const load = execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/^.*load average:\s*/, '');
  const per = (ms: number) =>
    `${(ms / RUNS).toFixed(0).padStart(6)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)}%`;
  console.log(
    `/Observation?_count=${ROWS}: main-thread self time (not idle) per cold load, mean of ${RUNS}; load ${load}`,
  );
  console.log(`  total ${(total / RUNS).toFixed(0)} ms`);
  console.log('By package / app folder:');
  for (const [key, ms] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${per(ms)}  ${key}`);
  console.log('By function:');
  for (const [key, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${per(ms)}  ${key}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
