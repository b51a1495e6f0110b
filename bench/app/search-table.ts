// Budget, measured in Chromium against a local Bloom (built app + API on PGlite, the demo
// clinic, as the e2e tests run it), signed in as Dr. Chen:
// - bytes on the wire (Chromium's encodedDataLength, cold cache) of a fresh load of /Observation with
//   its first rows, budget ≤ 350 KB; and of the JavaScript only the table's route loads: scripts that
//   load fetches that a fresh load of the home screen does not (the lazy chunk and what only it imports);
// - time from navigation to the rows shown on /Observation with 20 and with 100 rows a page (median
//   of several fresh loads), against the lab-result detail's time to its content (Maria, the same
//   fresh-load measure) in the same rounds: the goal is at most 1.2× it. The demo clinic has fewer
//   Observations than the largest page, so copies of one of them are created first (as Dr. Chen,
//   through the API) until a 100-row page is full.
// BENCH_BASELINE_APP_DIR=<a built app, e.g. main's dist/app copied away> serves that build too, from a
// second app host on the same API and database, and measures it in the same rounds (alternated), so
// before and after are compared on the same machine under the same load.
import type { Bundle, Observation } from '@medplum/fhirtypes';
import { execFileSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { buildAppHost } from '../../src/server/app-host';
import { findFreePort } from '../../src/server/free-port';
import { findAppClientId } from '../../src/server/seed';
import { launchChromium } from '../../tests/e2e/support/browser';
import { signInAsDemo } from '../../tests/e2e/support/demo-sign-in';
import { storedLogin } from '../../tests/e2e/support/patient-session';
import { startBloom, type RunningBloom } from '../../tests/e2e/support/server';
import type { StorageState } from './signed-in-page';
import { labResultShown } from './screens';
import { withPage } from './signed-in-page';
import { countWireBytes } from './wire-bytes';

/** On-wire budget (KB) of a cold load of the search table with its first rows. */
export const SEARCH_TABLE_BUDGET_KB = 350;

/** One build's figures: its cold load and its times, measured in the same rounds as the others. */
export interface SearchTableBuildFigures {
  /** 'this build', or 'baseline' (BENCH_BASELINE_APP_DIR). */
  readonly build: string;
  readonly chunkFiles: readonly string[];
  readonly chunkWireKb: number;
  /** The whole cold load of /Observation until its first rows, on the wire: the budgeted figure. */
  readonly tableWireKb: number;
  readonly largest: readonly { path: string; kb: number }[];
  /** The lab-result detail's time to content (Maria): the yardstick of the rows' times. */
  readonly labResultDetailMs: Timing;
  readonly rowsShownMs: readonly (Timing & { rows: number })[];
}

export interface SearchTableFigures {
  /** `uptime`'s load averages when the timed rounds started and when they ended. */
  readonly load: readonly string[];
  /** This build first, then the baseline when one was given. */
  readonly builds: readonly SearchTableBuildFigures[];
}

interface Timing {
  readonly median: number;
  readonly runs: readonly number[];
}

const RUNS = 9;
/** Responses named per cold load, largest first. */
const LARGEST = 8;
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
export async function ensureObservations(page: Page, bloom: RunningBloom, atLeast: number): Promise<number> {
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
      largest: all.slice(0, LARGEST),
    };
  });
}

/**
 * A page of `rows` rows is shown: the grid holds them (its aria-rowcount counts the header row and the
 * page's rows) and its real rows are painted, all of them or, in a virtualised grid that renders only
 * the rows in view, as many as fill its view. The loading overlay's skeleton rows are '.MuiDataGrid-row'
 * too and never count.
 */
export async function rowsShown(page: Page, rows: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const real = [...document.querySelectorAll('.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)')];
      if (real.length >= n) return true;
      const grid = document.querySelector('[role="grid"]');
      const scroller = document.querySelector('.MuiDataGrid-virtualScroller');
      const last = real.at(-1);
      if (!grid || !scroller || !last) return false;
      const held = Number(grid.getAttribute('aria-rowcount') ?? 0) - 1;
      return held >= n && last.getBoundingClientRect().bottom >= scroller.getBoundingClientRect().bottom;
    },
    rows,
    { timeout: 120_000 },
  );
}

function loadAverages(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' })
      .trim()
      .replace(/^.*load average:\s*/, 'load ');
  } catch {
    return 'load unknown';
  }
}

/** One app build served to the browser, with Dr. Chen's and Maria's sessions on its origin. */
interface Build {
  readonly name: string;
  /** The same RunningBloom, seen from this build's origin. */
  readonly bloom: RunningBloom;
  readonly chen: StorageState;
  readonly maria: StorageState;
}

export async function signedInState(
  browser: Browser,
  bloom: RunningBloom,
  email: string,
): Promise<StorageState> {
  const context = await browser.newContext();
  try {
    await signInAsDemo(await context.newPage(), bloom, email);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Maria's first lab report (the one the lab-result detail is timed on). */
async function firstLabReport(browser: Browser, build: Build): Promise<string> {
  return withPage(browser, build.maria, async (page) => {
    await page.goto(new URL('/health-record/lab-results', build.bloom.appUrl).toString());
    const report = page.getByRole('list', { name: 'Lab results' }).getByRole('link').first();
    await report.waitFor();
    return ((await report.getAttribute('href')) ?? '').split('/').pop() ?? '';
  });
}

/** Milliseconds from navigating a fresh window to `path` until `shown`. */
async function timeToShow(
  browser: Browser,
  state: StorageState,
  url: string,
  shown: (page: Page) => Promise<void>,
): Promise<number> {
  return withPage(browser, state, async (page) => {
    const started = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    await shown(page);
    return performance.now() - started;
  });
}

type ColdLoad = Pick<SearchTableBuildFigures, 'chunkFiles' | 'chunkWireKb' | 'tableWireKb' | 'largest'>;

async function coldLoad(browser: Browser, build: Build): Promise<ColdLoad> {
  const home = await loadBytes(browser, build.bloom, build.chen, '/', (page) =>
    page.getByRole('heading', { level: 1 }).waitFor(),
  );
  const table = await loadBytes(browser, build.bloom, build.chen, '/Observation', (page) =>
    rowsShown(page, 1),
  );
  const chunk = [...table.scripts].filter(([url]) => !home.scripts.has(url));
  return {
    chunkFiles: chunk.map(([url]) => url.split('/').pop() ?? url),
    chunkWireKb: chunk.reduce((sum, [, size]) => sum + size, 0) / 1024,
    tableWireKb: table.total / 1024,
    largest: table.largest.map(({ path, bytes }) => ({ path, kb: bytes / 1024 })),
  };
}

/** The rows one page can show: the total from the pager's range text. */
async function observationTotal(browser: Browser, build: Build): Promise<number> {
  return withPage(browser, build.chen, async (page) => {
    await page.goto(new URL('/Observation', build.bloom.appUrl).toString());
    await rowsShown(page, 1);
    const text = (await page.getByRole('navigation', { name: 'Pages' }).locator('p').textContent()) ?? '';
    return Number((text.split(' of ')[1] ?? '0').replace(/[~,]/g, ''));
  });
}

/** A second app host serving `appDir` against the same API (its origin allowed by the API's CORS). */
async function serveBaseline(bloom: RunningBloom, appDir: string, port: number): Promise<FastifyInstance> {
  const clientId = bloom.clinicProjectId ? await findAppClientId(bloom.db, bloom.clinicProjectId) : undefined;
  const host = await buildAppHost({ appDir, apiBaseUrl: bloom.apiBaseUrl, clientId, logLevel: 'warn' });
  await host.listen({ port, host: 'localhost' });
  return host;
}

export async function measureSearchTable(): Promise<SearchTableFigures> {
  const baselineDir = process.env.BENCH_BASELINE_APP_DIR;
  const browser = await launchChromium();
  const baselinePort = baselineDir ? await findFreePort('localhost') : undefined;
  const baselineOrigin = baselinePort ? `http://localhost:${baselinePort}` : undefined;
  const bloom = await startBloom({ seed: true, extraOrigins: baselineOrigin ? [baselineOrigin] : [] });
  let baselineHost: FastifyInstance | undefined;
  try {
    const origins: { name: string; bloom: RunningBloom }[] = [{ name: 'this build', bloom }];
    if (baselineDir && baselinePort && baselineOrigin) {
      baselineHost = await serveBaseline(bloom, baselineDir, baselinePort);
      origins.push({ name: 'baseline', bloom: { ...bloom, appUrl: `${baselineOrigin}/` } });
    }
    const builds: Build[] = [];
    for (const origin of origins) {
      builds.push({
        ...origin,
        chen: await signedInState(browser, origin.bloom, 'dr.chen@bloom.example'),
        maria: await signedInState(browser, origin.bloom, 'maria@bloom.example'),
      });
    }
    await withPage(browser, builds[0].chen, async (page) => {
      await page.goto(new URL('/', bloom.appUrl).toString());
      await ensureObservations(page, bloom, MIN_OBSERVATIONS);
    });
    const labReport = await firstLabReport(browser, builds[0]);
    const total = await observationTotal(browser, builds[0]);

    const cold: ColdLoad[] = [];
    for (const build of builds) cold.push(await coldLoad(browser, build));

    // Timed rounds: in each, every build in turn (the order alternating between rounds), and in each
    // build the lab-result detail and then the table's pages.
    const load = [loadAverages()];
    const lab = builds.map((): number[] => []);
    const pages = builds.map(() => PAGE_SIZES.map((): number[] => []));
    for (let run = 0; run < RUNS; run++) {
      const order = builds.map((_, index) => index);
      if (run % 2 === 1) order.reverse();
      for (const index of order) {
        const build = builds[index];
        const labUrl = new URL(`/health-record/lab-results/${labReport}`, build.bloom.appUrl).toString();
        lab[index].push(await timeToShow(browser, build.maria, labUrl, labResultShown));
        for (const [sizeIndex, count] of PAGE_SIZES.entries()) {
          const url = new URL(`/Observation?_count=${count}`, build.bloom.appUrl).toString();
          const expected = Math.min(count, total);
          pages[index][sizeIndex].push(
            await timeToShow(browser, build.chen, url, (page) => rowsShown(page, expected)),
          );
        }
      }
    }
    load.push(loadAverages());
    const timing = (runs: number[]): Timing => ({ median: median(runs), runs });
    return {
      load,
      builds: builds.map((build, index) => ({
        build: build.name,
        ...cold[index],
        labResultDetailMs: timing(lab[index]),
        rowsShownMs: PAGE_SIZES.map((count, sizeIndex) => ({
          rows: Math.min(count, total),
          ...timing(pages[index][sizeIndex]),
        })),
      })),
    };
  } finally {
    await browser.close();
    await baselineHost?.close();
    await bloom.stop();
  }
}

/** The goal: time to rows at most this many times the lab-result detail's time to content. */
export const ROWS_TO_DETAIL_GOAL = 1.2;

export function formatSearchTable(figures: SearchTableFigures): string {
  const lines = [
    'search table (Chromium; Dr. Chen on /Observation, Maria on the lab-result detail; built app + API on PGlite with the demo clinic):',
    `  ${figures.load.join(' → ')} (before → after the timed rounds)`,
  ];
  const ms = (t: Timing) =>
    `${t.median.toFixed(0)} ms median (${t.runs.map((r) => r.toFixed(0)).join(', ')})`;
  for (const build of figures.builds) {
    lines.push(
      `  [${build.build}] cold load of /Observation until its first rows: ${build.tableWireKb.toFixed(1)} KB on the wire (budget ≤ ${SEARCH_TABLE_BUDGET_KB} KB)`,
      `  [${build.build}] table-only JS: ${build.chunkWireKb.toFixed(1)} KB on the wire in ${build.chunkFiles.length} files (${build.chunkFiles.join(', ')})`,
    );
    const blame = build.largest.map((l) => `${l.path} ${l.kb.toFixed(1)} KB`).join(', ');
    lines.push(
      build.tableWireKb > SEARCH_TABLE_BUDGET_KB
        ? `  [${build.build}] OVER BUDGET by ${(build.tableWireKb - SEARCH_TABLE_BUDGET_KB).toFixed(1)} KB (largest: ${blame})`
        : `  [${build.build}] largest: ${blame}`,
    );
    lines.push(`  [${build.build}] lab-result detail shown: ${ms(build.labResultDetailMs)}`);
    for (const t of build.rowsShownMs) {
      const ratio = t.median / build.labResultDetailMs.median;
      lines.push(
        `  [${build.build}] /Observation, ${t.rows} rows shown: ${ms(t)}; ${ratio.toFixed(2)}× the detail (goal ≤ ${ROWS_TO_DETAIL_GOAL}×)`,
      );
    }
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
