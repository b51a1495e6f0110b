// Budget, measured in Chromium against a local Bloom (built app + API on PGlite, the demo
// clinic, as the e2e tests run it), signed in as Dr. Chen:
// - bytes on the wire (Chromium's encodedDataLength, cold cache) of a fresh load of /Observation with
//   its first rows, budget ≤ 350 KB; and of the JavaScript only the table's route loads: scripts that
//   load fetches that a fresh load of the home screen does not (the lazy chunk and what only it imports);
// - time from navigation to the rows shown on /Observation with 20 and with 100 rows a page (median
//   of several fresh loads). The demo clinic has fewer Observations than the largest page, so copies
//   of one of them are created first (as Dr. Chen, through the API) until a 100-row page is full.
import type { Bundle, Observation } from '@medplum/fhirtypes';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tests/e2e/support/browser';
import { signInAsDemo } from '../../tests/e2e/support/demo-sign-in';
import { storedLogin } from '../../tests/e2e/support/patient-session';
import { startBloom, type RunningBloom } from '../../tests/e2e/support/server';
import type { StorageState } from './signed-in-page';
import { withPage } from './signed-in-page';
import { countWireBytes } from './wire-bytes';

/** On-wire budget (KB) of a cold load of the search table with its first rows. */
export const SEARCH_TABLE_BUDGET_KB = 350;

export interface SearchTableFigures {
  readonly chunkFiles: readonly string[];
  readonly chunkWireKb: number;
  /** The whole cold load of /Observation until its first rows, on the wire: the budgeted figure. */
  readonly tableWireKb: number;
  readonly largest: readonly { path: string; kb: number }[];
  readonly rowsShownMs: readonly { rows: number; median: number; runs: readonly number[] }[];
}

const RUNS = 5;
/** Pages measured; the largest is DataGrid community's (and the server's) page cap. */
const PAGE_SIZES = [20, 100] as const;
/** Observations the clinic gets before measuring: more than the largest page. */
const MIN_OBSERVATIONS = 120;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Tops the clinic up to `atLeast` Observations with copies of one of its own, in one batch POSTed as
 * the signed-in user (so they are the clinic's, as a user would create them). Returns the total.
 */
async function ensureObservations(page: Page, bloom: RunningBloom, atLeast: number): Promise<number> {
  const { accessToken } = await storedLogin(page);
  const fhir = new URL('fhir/R4/', bloom.apiBaseUrl);
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/fhir+json' };
  const found = (await (
    await fetch(new URL('Observation?_count=1&_total=accurate', fhir), { headers })
  ).json()) as Bundle<Observation>;
  const total = found.total ?? 0;
  const sample = found.entry?.[0]?.resource;
  if (total >= atLeast || !sample) return total;
  const { id: _id, meta: _meta, ...copy } = sample;
  const batch: Bundle = {
    resourceType: 'Bundle',
    type: 'batch',
    entry: Array.from({ length: atLeast - total }, () => ({
      resource: copy,
      request: { method: 'POST', url: 'Observation' },
    })),
  };
  const response = await fetch(fhir, { method: 'POST', headers, body: JSON.stringify(batch) });
  const answer = (await response.json()) as Bundle;
  const created = (answer.entry ?? []).filter((entry) => entry.response?.status?.startsWith('201')).length;
  if (!response.ok || created !== atLeast - total) {
    throw new Error(`Creating Observations for the bench failed (${response.status}, ${created} created)`);
  }
  return atLeast;
}

interface LoadBytes {
  /** Script path → bytes on the wire. */
  readonly scripts: Map<string, number>;
  readonly total: number;
  readonly largest: { path: string; bytes: number }[];
}

/** Bytes on the wire of a fresh (cold) load of `path` until `ready`, and of each of its scripts. */
async function loadBytes(
  browser: Browser,
  bloom: RunningBloom,
  state: StorageState,
  path: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<LoadBytes> {
  return withPage(browser, state, async (page) => {
    const scriptPaths = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scriptPaths.add(new URL(response.url()).pathname);
    });
    const wire = await countWireBytes(page);
    await page.goto(new URL(path, bloom.appUrl).toString());
    await ready(page);
    await page.waitForLoadState('networkidle');
    await wire.stop();
    const all = wire.largest(Number.POSITIVE_INFINITY);
    return {
      scripts: new Map(all.filter((entry) => scriptPaths.has(entry.path)).map((e) => [e.path, e.bytes])),
      total: wire.total(),
      largest: all.slice(0, 3),
    };
  });
}

/** Real rows: the loading overlay's skeleton rows are '.MuiDataGrid-row' too and must not count. */
async function rowsShown(page: Page, rows: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelectorAll('.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)').length >= n,
    rows,
    { timeout: 120_000 },
  );
}

export async function measureSearchTable(): Promise<SearchTableFigures> {
  const browser = await launchChromium();
  const bloom = await startBloom({ seed: true });
  try {
    const context = await browser.newContext();
    const signInPage = await context.newPage();
    await signInAsDemo(signInPage, bloom, 'dr.chen@bloom.example');
    await ensureObservations(signInPage, bloom, MIN_OBSERVATIONS);
    const state = await context.storageState();
    await context.close();

    const home = await loadBytes(browser, bloom, state, '/', (page) =>
      page.getByRole('heading', { level: 1 }).waitFor(),
    );
    const table = await loadBytes(browser, bloom, state, '/Observation', (page) => rowsShown(page, 1));
    const chunk = [...table.scripts].filter(([url]) => !home.scripts.has(url));

    // What one page can show: the total from the range text.
    const total = await withPage(browser, state, async (page) => {
      await page.goto(new URL('/Observation', bloom.appUrl).toString());
      await rowsShown(page, 1);
      const text = (await page.getByRole('navigation', { name: 'Pages' }).locator('p').textContent()) ?? '';
      return Number((text.split(' of ')[1] ?? '0').replace(/[~,]/g, ''));
    });

    const rowsShownMs = [];
    for (const count of PAGE_SIZES) {
      const expected = Math.min(count, total);
      const runs: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(
          await withPage(browser, state, async (page) => {
            const started = performance.now();
            await page.goto(new URL(`/Observation?_count=${count}`, bloom.appUrl).toString(), {
              waitUntil: 'commit',
            });
            await rowsShown(page, expected);
            return performance.now() - started;
          }),
        );
      }
      rowsShownMs.push({ rows: expected, median: median(runs), runs });
    }
    return {
      chunkFiles: chunk.map(([url]) => url.split('/').pop() ?? url),
      chunkWireKb: chunk.reduce((sum, [, size]) => sum + size, 0) / 1024,
      tableWireKb: table.total / 1024,
      largest: table.largest.map(({ path, bytes }) => ({ path, kb: bytes / 1024 })),
      rowsShownMs,
    };
  } finally {
    await browser.close();
    await bloom.stop();
  }
}

export function formatSearchTable(figures: SearchTableFigures): string {
  const lines = [
    'search table (issue #9; Chromium, Dr. Chen, built app + API on PGlite with the demo clinic):',
    `  cold load of /Observation until its first rows: ${figures.tableWireKb.toFixed(1)} KB on the wire (budget ≤ ${SEARCH_TABLE_BUDGET_KB} KB)`,
    `  table-only JS: ${figures.chunkWireKb.toFixed(1)} KB on the wire in ${figures.chunkFiles.length} files (${figures.chunkFiles.join(', ')})`,
  ];
  if (figures.tableWireKb > SEARCH_TABLE_BUDGET_KB) {
    const blame = figures.largest.map((l) => `${l.path} ${l.kb.toFixed(1)} KB`).join(', ');
    lines.push(
      `  OVER BUDGET by ${(figures.tableWireKb - SEARCH_TABLE_BUDGET_KB).toFixed(1)} KB (largest: ${blame})`,
    );
  }
  for (const t of figures.rowsShownMs) {
    lines.push(
      `  /Observation, ${t.rows} rows shown: ${t.median.toFixed(0)} ms median (${t.runs.map((r) => r.toFixed(0)).join(', ')})`,
    );
  }
  return lines.join('\n');
}

// `tsx bench/app/search-table.ts` runs it alone.
if (process.argv[1]?.endsWith('search-table.ts')) {
  measureSearchTable().then(
    (figures) => {
      console.log(formatSearchTable(figures));
      console.log(JSON.stringify(figures));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
