// Where a cold load of the search table spends its time: `tsx bench/app/search-table-timeline.ts`
// loads /Observation with 20 and 100 rows a page in fresh windows (Dr. Chen, built app + API on PGlite
// with the demo clinic) and prints, in ms from navigation start, when each script and API request
// started and ended (Resource Timing), the long tasks (main-thread work over 50 ms), each change in the
// number of real rows in the grid, and when the rows were shown. The median of RUNS loads per step;
// APP_TIMELINE_RUNS sets how many.
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tests/e2e/support/browser';
import { startBloom, type RunningBloom } from '../../tests/e2e/support/server';
import { ensureObservations, rowsShown, signedInState } from './search-table';
import { withPage, type StorageState } from './signed-in-page';

const RUNS = Number(process.env.APP_TIMELINE_RUNS ?? 3);

interface Step {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** Collects long tasks from the page's start (Resource Timing keeps the rest by itself). */
const COLLECT_LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  // When the grid (loading or not) and its first real row were in the document.
  window.__firstRows = {};
  // Each change in how many real rows the grid holds: a grid that renders in passes shows here.
  window.__rowCounts = [];
  new MutationObserver(() => {
    const first = window.__firstRows;
    const count = document.querySelectorAll('.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)').length;
    if (!first.grid && count > 0) first.grid = performance.now();
    if (!first.root && document.querySelector('.MuiDataGrid-root')) first.root = performance.now();
    const counts = window.__rowCounts;
    if (count !== (counts.at(-1)?.[1] ?? 0)) counts.push([performance.now(), count]);
  }).observe(document, { childList: true, subtree: true });
`;

function label(url: string, body: string | undefined): string {
  const { pathname } = new URL(url);
  if (pathname.includes('graphql')) {
    const operation = /"operationName":"(\w+)"/.exec(body ?? '')?.[1];
    return `graphql ${operation ?? '?'}`;
  }
  return pathname.split('/').pop() || pathname;
}

async function oneLoad(
  browser: Browser,
  bloom: RunningBloom,
  state: StorageState,
  rows: number,
): Promise<Step[]> {
  return withPage(browser, state, async (page: Page) => {
    await page.addInitScript(COLLECT_LONG_TASKS);
    const steps: Step[] = [];
    page.on('requestfinished', (request) => {
      const timing = request.timing();
      const name = label(request.url(), request.postData() ?? undefined);
      // Resource Timing does not tell GraphQL operations apart: Playwright's timing does.
      const api = ['fetch', 'xhr'].includes(request.resourceType());
      if (api && timing.responseEnd >= 0) {
        steps.push({ name, start: timing.startTime, end: timing.startTime + timing.responseEnd });
      }
    });
    await page.goto(new URL(`/Observation?_count=${rows}`, bloom.appUrl).toString(), { waitUntil: 'commit' });
    await rowsShown(page, rows);
    const inPage = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => entry.initiatorType !== 'fetch' && entry.initiatorType !== 'xmlhttprequest')
        .map((entry) => ({ name: entry.name, start: entry.startTime, end: entry.responseEnd }));
      const longTasks = (window as unknown as { __longTasks: [number, number][] }).__longTasks;
      const firstRows = (window as unknown as { __firstRows: { root?: number; grid?: number } }).__firstRows;
      const rowCounts = (window as unknown as { __rowCounts: [number, number][] }).__rowCounts;
      return {
        origin: performance.timeOrigin,
        html: { start: nav.requestStart, end: nav.responseEnd },
        domContentLoaded: nav.domContentLoadedEventEnd,
        resources,
        longTasks,
        firstRows,
        rowCounts,
        rowsAt: performance.now(),
      };
    });
    const relative = steps.map((s) => ({ ...s, start: s.start - inPage.origin, end: s.end - inPage.origin }));
    return [
      { name: 'html', ...inPage.html },
      { name: 'DOMContentLoaded', start: inPage.domContentLoaded, end: inPage.domContentLoaded },
      ...inPage.resources.map((r) => ({ name: label(r.name, undefined), start: r.start, end: r.end })),
      ...relative,
      ...inPage.longTasks.map(([start, duration], index) => ({
        name: `long task ${index + 1}`,
        start,
        end: start + duration,
      })),
      ...Object.entries(inPage.firstRows).map(([which, at]) => ({
        name: which === 'root' ? 'the grid in the document' : 'first grid row in the document',
        start: at,
        end: at,
      })),
      ...inPage.rowCounts.map(([at, count]) => ({
        name: `${count} real rows in the document`,
        start: at,
        end: at,
      })),
      { name: `${rows} rows shown (±1 frame)`, start: inPage.rowsAt, end: inPage.rowsAt },
    ].sort((a, b) => a.start - b.start);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const bloom = await startBloom({ seed: true });
  try {
    const chen = await signedInState(browser, bloom, 'dr.chen@bloom.example');
    await withPage(browser, chen, async (page) => {
      await page.goto(new URL('/', bloom.appUrl).toString());
      await ensureObservations(page, bloom, 120);
    });
    for (const rows of [20, 100]) {
      const loads: Step[][] = [];
      for (let run = 0; run < RUNS; run++) loads.push(await oneLoad(browser, bloom, chen, rows));
      // Steps by name, in the first load's order; the median start and end over the loads.
      console.log(`\n/Observation?_count=${rows}: ms from navigation start (median of ${RUNS} cold loads)`);
      for (const step of loads[0]) {
        const same = loads
          .map((load) => load.find((s) => s.name === step.name))
          .filter((s) => s !== undefined);
        const start = median(same.map((s) => s.start));
        const end = median(same.map((s) => s.end));
        console.log(`  ${start.toFixed(0).padStart(6)} → ${end.toFixed(0).padStart(6)}  ${step.name}`);
      }
    }
  } finally {
    await browser.close();
    await bloom.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
