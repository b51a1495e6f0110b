// Budgets, measured in Chromium against a local Bloom (the built app and the API on PGlite,
// seeded with the demo clinic, as the e2e tests run it):
// - bytes on the wire for each screen's fresh page load with a cold cache: the sum of Chromium's
//   `encodedDataLength` (DevTools protocol Network.loadingFinished) over every response, so the figure
//   is what the servers really sent (compressed or not), the script share shown beside it;
// - the requests each signed-in screen makes to the API on that load (GraphQL, other API calls, images),
//   the patient screens signed in as Maria, the care team's as Dr. Chen and the invite screen as the admin;
// - time from navigation to the lab-result detail's table rows and to the vitals chart's line, median
//   of several fresh loads.
// Budgets on those bytes: landing ≤ 150 KB, every other (patient) screen ≤ 250 KB; one GraphQL
// request per screen.
// BENCH_BASELINE_APP_DIR=<a built app, e.g. main's dist/app copied away> serves that build too, from a
// second app host on the same API and database, and measures each screen's cold load on it right after
// this build's, so the bytes of before and after sit side by side from one run.
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { buildAppHost } from '../../src/server/app-host';
import { findFreePort } from '../../src/server/free-port';
import { findAppClientId } from '../../src/server/seed';
import { launchChromium } from '../../tests/e2e/support/browser';
import { signInAsDemo } from '../../tests/e2e/support/demo-sign-in';
import { startBloom, type RunningBloom } from '../../tests/e2e/support/server';
import {
  benchScreens,
  labResultShown,
  vitalsChartShown,
  type BenchAccount,
  type BenchScreen,
} from './screens';
import { countWireBytes } from './wire-bytes';

/** On-wire budgets (KB) of a cold load: the landing page, and every other screen. */
export const LANDING_BUDGET_KB = 150;
export const SCREEN_BUDGET_KB = 250;

export interface ScreenFigures {
  readonly name: string;
  readonly path: string;
  readonly jsFiles: number;
  /** Bytes received for the screen's scripts (on the wire). */
  readonly jsWireKb: number;
  /** Bytes received for everything the cold load fetched (on the wire): the budgeted figure. */
  readonly wireKb: number;
  /** The largest responses, to name the chunk to blame when the budget is missed. */
  readonly largest: readonly { path: string; kb: number }[];
  readonly graphqlRequests: number;
  /** API calls other than GraphQL, as "METHOD path" (the session's auth/me on a fresh load, ...). */
  readonly otherApiRequests: readonly string[];
  readonly imageRequests: number;
  /** False when the screen never showed its data (the figures then cover what loaded until then). */
  readonly shown: boolean;
}

export interface AppFigures {
  readonly screens: readonly ScreenFigures[];
  /** The same screens' cold loads from the baseline build (BENCH_BASELINE_APP_DIR), when one was given. */
  readonly baselineScreens?: readonly ScreenFigures[];
  readonly labResultDetailMs: { readonly median: number; readonly runs: readonly number[] };
  readonly vitalsChartMs: { readonly median: number; readonly runs: readonly number[] };
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

const TIMING_RUNS = 5;

/**
 * APP_BENCH_SCREENS=messages,get-care measures only the named screens and skips the timing runs (to
 * iterate on one screen); APP_BENCH_LARGEST=30 lists that many of each screen's largest responses.
 */
const onlyScreens = (process.env.APP_BENCH_SCREENS ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
const largestCount = Number(process.env.APP_BENCH_LARGEST ?? 3) || 3;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function signIn(
  browser: Browser,
  bloom: RunningBloom,
  account: BenchAccount = 'maria@bloom.example',
): Promise<StorageState> {
  const context = await browser.newContext();
  try {
    await signInAsDemo(await context.newPage(), bloom, account);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** A fresh context (empty HTTP cache), signed in through the stored login when `state` is given. */
async function freshPage(browser: Browser, state: StorageState | undefined): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext({ storageState: state, viewport: { width: 1280, height: 900 } });
  return [context, await context.newPage()];
}

/** Ids the detail screens need: the first lab report, one of Maria's vitals, and Maria (for her chart). */
async function findIds(browser: Browser, bloom: RunningBloom, state: StorageState) {
  const [context, page] = await freshPage(browser, state);
  try {
    await page.goto(new URL('/', bloom.appUrl).toString());
    const patient = await page.evaluate(
      () =>
        (
          JSON.parse(localStorage.getItem('@bloom/activeLogin') ?? '{}') as {
            profile?: { reference?: string };
          }
        ).profile?.reference?.split('/')[1] ?? '',
    );
    await page.goto(new URL('/health-record/lab-results', bloom.appUrl).toString());
    const report = page.getByRole('list', { name: 'Lab results' }).getByRole('link').first();
    await report.waitFor();
    const labReport = ((await report.getAttribute('href')) ?? '').split('/').pop() ?? '';
    await page.goto(new URL('/health-record/vitals/weight', bloom.appUrl).toString());
    const measurement = page.getByRole('table', { name: 'Weight measurements' }).getByRole('link').first();
    await measurement.waitFor();
    const observation = ((await measurement.getAttribute('href')) ?? '').split('/').pop() ?? '';
    return { labReport, observation, patient };
  } finally {
    await context.close();
  }
}

async function measureScreen(
  browser: Browser,
  bloom: RunningBloom,
  screen: BenchScreen,
  state: StorageState,
): Promise<ScreenFigures> {
  const [context, page] = await freshPage(browser, screen.signedIn ? state : undefined);
  const wire = await countWireBytes(page);
  let scripts = 0;
  const api: string[] = [];
  let images = 0;
  const apiOrigin = new URL(bloom.apiBaseUrl).origin;
  page.on('response', (response: Response) => {
    const request = response.request();
    const url = new URL(response.url());
    if (request.resourceType() === 'script') {
      scripts += 1;
    } else if (request.resourceType() === 'image') {
      images += 1;
    } else if (url.origin === apiOrigin) {
      api.push(`${request.method()} ${url.pathname}`);
    }
  });
  try {
    await page.goto(new URL(screen.path, bloom.appUrl).toString());
    const shown = await screen.ready(page).then(
      () => true,
      () => false,
    );
    await page.waitForLoadState('networkidle');
    await wire.stop();
    const graphqlRequests = api.filter((call) => call.endsWith('/$graphql')).length;
    return {
      name: screen.name,
      path: screen.path,
      jsFiles: scripts,
      jsWireKb: wire.scripts() / 1024,
      wireKb: wire.total() / 1024,
      largest: wire.largest(largestCount).map(({ path, bytes }) => ({ path, kb: bytes / 1024 })),
      graphqlRequests,
      otherApiRequests: api.filter((call) => !call.endsWith('/$graphql')),
      imageRequests: images,
      shown,
    };
  } finally {
    await context.close();
  }
}

async function timeToShow(
  browser: Browser,
  url: string,
  state: StorageState,
  shown: (page: Page) => Promise<void>,
): Promise<number> {
  const [context, page] = await freshPage(browser, state);
  try {
    const started = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    await shown(page);
    return performance.now() - started;
  } finally {
    await context.close();
  }
}

/** A second app host serving `appDir` against the same API (its origin allowed by the API's CORS). */
async function serveBaseline(bloom: RunningBloom, appDir: string, port: number): Promise<FastifyInstance> {
  const clientId = bloom.clinicProjectId ? await findAppClientId(bloom.db, bloom.clinicProjectId) : undefined;
  const host = await buildAppHost({ appDir, apiBaseUrl: bloom.apiBaseUrl, clientId, logLevel: 'warn' });
  await host.listen({ port, host: 'localhost' });
  return host;
}

export async function measureApp(): Promise<AppFigures> {
  const baselineDir = process.env.BENCH_BASELINE_APP_DIR;
  const browser = await launchChromium();
  const baselinePort = baselineDir ? await findFreePort('localhost') : undefined;
  const baselineOrigin = baselinePort ? `http://localhost:${baselinePort}` : undefined;
  const bloom = await startBloom({ seed: true, extraOrigins: baselineOrigin ? [baselineOrigin] : [] });
  let baselineHost: FastifyInstance | undefined;
  try {
    const baseline = baselineOrigin ? { ...bloom, appUrl: `${baselineOrigin}/` } : undefined;
    if (baselineDir && baselinePort) baselineHost = await serveBaseline(bloom, baselineDir, baselinePort);
    const state = await signIn(browser, bloom);
    const ids = await findIds(browser, bloom, state);
    const screens: ScreenFigures[] = [];
    const baselineScreens: ScreenFigures[] = [];
    // Signed-in states per build (each origin keeps its own stored login) and account.
    const states = new Map<string, StorageState>([[`this maria@bloom.example`, state]]);
    const stateFor = async (build: 'this' | 'baseline', target: RunningBloom, account: BenchAccount) => {
      const key = `${build} ${account}`;
      if (!states.has(key)) states.set(key, await signIn(browser, target, account));
      return states.get(key) as StorageState;
    };
    const wanted = benchScreens(ids).filter(
      (screen) => onlyScreens.length === 0 || onlyScreens.includes(screen.name),
    );
    for (const screen of wanted) {
      const account = screen.account ?? 'maria@bloom.example';
      screens.push(await measureScreen(browser, bloom, screen, await stateFor('this', bloom, account)));
      if (baseline) {
        const baselineState = await stateFor('baseline', baseline, account);
        baselineScreens.push(await measureScreen(browser, baseline, screen, baselineState));
      }
    }
    const labUrl = new URL(`/health-record/lab-results/${ids.labReport}`, bloom.appUrl).toString();
    const vitalsUrl = new URL('/health-record/vitals/weight', bloom.appUrl).toString();
    const labRuns: number[] = [];
    const vitalsRuns: number[] = [];
    for (let run = 0; run < (onlyScreens.length > 0 ? 0 : TIMING_RUNS); run++) {
      labRuns.push(await timeToShow(browser, labUrl, state, labResultShown));
      vitalsRuns.push(await timeToShow(browser, vitalsUrl, state, vitalsChartShown));
    }
    return {
      screens,
      ...(baseline ? { baselineScreens } : {}),
      labResultDetailMs: { median: median(labRuns), runs: labRuns },
      vitalsChartMs: { median: median(vitalsRuns), runs: vitalsRuns },
    };
  } finally {
    await browser.close();
    await baselineHost?.close();
    await bloom.stop();
  }
}

export function formatApp(figures: AppFigures): string {
  const lines = [
    'app (issue #7; Chromium, fresh page load per screen, built app + API on PGlite with the demo clinic):',
    '  bytes on the wire of a cold load (CDP encodedDataLength), all responses and scripts alone:',
    `  ${'screen'.padEnd(24)} ${'wire'.padStart(9)} ${'budget'.padStart(7)} ${'JS wire'.padStart(9)} ${'files'.padStart(5)}  GraphQL  other API calls; images`,
  ];
  const over: string[] = [];
  for (const s of figures.screens) {
    const other = s.otherApiRequests.length > 0 ? s.otherApiRequests.join(', ') : '-';
    const budget = screenBudgetKb(s.name);
    lines.push(
      `  ${s.name.padEnd(24)} ${`${s.wireKb.toFixed(1)} KB`.padStart(9)} ${`${budget}`.padStart(7)} ` +
        `${`${s.jsWireKb.toFixed(1)} KB`.padStart(9)} ${String(s.jsFiles).padStart(5)}  ` +
        `${String(s.graphqlRequests).padStart(7)}  ${other}; ${s.imageRequests}${s.shown ? '' : '  (NOT SHOWN)'}`,
    );
    if (largestCount > 3) {
      lines.push(...s.largest.map((l) => `      ${l.path} ${l.kb.toFixed(1)} KB`));
    }
    if (s.wireKb > budget) {
      const blame = s.largest.map((l) => `${l.path} ${l.kb.toFixed(1)} KB`).join(', ');
      over.push(`  OVER BUDGET: ${s.name} by ${(s.wireKb - budget).toFixed(1)} KB (largest: ${blame})`);
    }
  }
  lines.push(...(over.length > 0 ? over : ['  every screen within its on-wire budget']));
  if (figures.baselineScreens) {
    lines.push(
      '  this build beside the baseline (BENCH_BASELINE_APP_DIR), same run, wire KB (JS KB):',
      `  ${'screen'.padEnd(24)} ${'baseline'.padStart(16)} ${'this build'.padStart(16)} ${'change'.padStart(9)}`,
    );
    for (const s of figures.screens) {
      const before = figures.baselineScreens.find((b) => b.name === s.name);
      if (!before) continue;
      const cell = (f: ScreenFigures) => `${f.wireKb.toFixed(1)} (${f.jsWireKb.toFixed(1)})`;
      lines.push(
        `  ${s.name.padEnd(24)} ${cell(before).padStart(16)} ${cell(s).padStart(16)} ` +
          `${(s.wireKb - before.wireKb).toFixed(1).padStart(9)}${before.shown ? '' : '  (baseline NOT SHOWN)'}`,
      );
    }
  }
  const ms = (t: { median: number; runs: readonly number[] }) =>
    t.runs.length === 0
      ? 'not timed (APP_BENCH_SCREENS)'
      : `${t.median.toFixed(0)} ms median (${t.runs.map((r) => r.toFixed(0)).join(', ')})`;
  lines.push(`  lab-result detail shown: ${ms(figures.labResultDetailMs)}`);
  lines.push(`  vitals chart shown:      ${ms(figures.vitalsChartMs)}`);
  lines.push(
    `  budgets: landing ≤ ${LANDING_BUDGET_KB} KB, every other screen ≤ ${SCREEN_BUDGET_KB} KB on the wire; one GraphQL request per screen`,
  );
  return lines.join('\n');
}

export function screenBudgetKb(name: string): number {
  return name === 'landing' ? LANDING_BUDGET_KB : SCREEN_BUDGET_KB;
}
