// "Long threads scroll smoothly and open at the newest message", measured in Chromium against
// a local Bloom (built app + API on PGlite, the demo clinic, as the e2e tests run it), signed in as
// Maria with a long thread (MESSAGES_BENCH_COUNT messages, default 400, from her and Dr. Chen):
// - time from navigation to the newest message shown, and whether the thread opened at it (beside the
//   same for the demo's short thread: fresh page loads cost the same whatever the thread's length);
// - time for each older page loaded by scrolling to the top, until the whole thread is on the screen;
// - frame intervals while the whole thread scrolls from the top to the newest message (a fixed step
//   per animation frame, as a steady fling): p50, p95, max and frames over 50 ms.
// Times are measured here, never asserted in tests.
import type { Communication } from '@medplum/fhirtypes';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../tests/e2e/support/browser';
import { demoApiClient, demoPatientId, signInAsDemo } from '../../tests/e2e/support/demo-sign-in';
import { startBloom, type RunningBloom } from '../../tests/e2e/support/server';
import type { StorageState } from './signed-in-page';
import { withPage } from './signed-in-page';
import { Repository, systemContext } from '../../src/server/repo';

export interface MessagesThreadFigures {
  readonly messages: number;
  readonly openMs: { readonly median: number; readonly runs: readonly number[] };
  /** The same with the demo clinic's short thread, before the long one is written: the machine's floor. */
  readonly openShortMs: { readonly median: number; readonly runs: readonly number[] };
  /** Pixels between the view's bottom and the thread's end once it opened (≤ 80 counts as the newest). */
  readonly openedDistancePx: number;
  readonly olderPageMs: { readonly pages: number; readonly median: number; readonly max: number };
  /** Messages on the screen after scrolling to the top until nothing more loaded. */
  readonly loadedMessages: number;
  readonly scroll: {
    readonly stepPx: number;
    readonly frames: number;
    readonly p50FrameMs: number;
    readonly p95FrameMs: number;
    readonly maxFrameMs: number;
    readonly framesOver50Ms: number;
  };
}

const OPEN_RUNS = 5;
const SCROLL_STEP_PX = 60;
const REGION = 'Conversation with your care team';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** `count` messages in Maria's thread (partOf its header), an hour apart, alternating with Dr. Chen; the newest text returned. */
async function seedThread(bloom: RunningBloom, count: number): Promise<string> {
  const maria = `Patient/${await demoPatientId(bloom, 'maria@bloom.example')}`;
  const chen = await demoApiClient(bloom, 'dr.chen@bloom.example');
  const chenRef = `Practitioner/${chen.getProfile()?.id}`;
  // Her demo thread header: the screen shows the messages partOf it.
  const [thread] = await chen.searchResources<Communication>('Communication', {
    subject: maria,
    'part-of:missing': 'true',
  });
  const repo = new Repository(bloom.db, systemContext(bloom.clinicProjectId));
  const start = Date.now() - count * 3_600_000;
  let newest = '';
  for (let i = 0; i < count; i++) {
    const fromChen = i % 2 === 0;
    newest = `Thread message ${i + 1} of ${count}: ${'how are you feeling today? '.repeat(1 + (i % 5))}`;
    await repo.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      partOf: [{ reference: `Communication/${thread.id}` }],
      subject: { reference: maria },
      sender: fromChen ? { reference: chenRef, display: 'Dr. Lily Chen' } : { reference: maria },
      recipient: [{ reference: fromChen ? maria : chenRef }],
      sent: new Date(start + i * 3_600_000).toISOString(),
      payload: [{ contentString: newest.trim() }],
    });
  }
  return newest.trim();
}

/** Navigation to /messages until `newest` shows (or any message, without it). */
async function openThread(page: Page, bloom: RunningBloom, newest?: string): Promise<number> {
  const started = performance.now();
  await page.goto(new URL('/messages', bloom.appUrl).toString(), { waitUntil: 'commit' });
  const list = page.getByRole('list', { name: 'Messages' });
  await (newest ? list.getByText(newest) : list.getByRole('listitem').first()).waitFor({ timeout: 30_000 });
  return performance.now() - started;
}

async function openRuns(browser: Browser, bloom: RunningBloom, state: StorageState, newest?: string) {
  const runs: number[] = [];
  for (let run = 0; run < OPEN_RUNS; run++) {
    runs.push(await withPage(browser, state, (page) => openThread(page, bloom, newest)));
  }
  return { median: round(median(runs)), runs: runs.map(round) };
}

const messageCount = (page: Page) =>
  page.getByRole('list', { name: 'Messages' }).getByRole('listitem').count();

/** Scrolls to the top until no older page comes within 10 s; the time of each page. */
async function loadWholeThread(page: Page): Promise<number[]> {
  const region = page.getByRole('region', { name: REGION });
  const times: number[] = [];
  for (;;) {
    const before = await messageCount(page);
    const started = performance.now();
    await region.evaluate((element) => {
      element.scrollTop = 0;
    });
    const grew = await page
      .waitForFunction(
        ([name, count]) => document.querySelectorAll(`[aria-label="${name}"] li`).length > (count as number),
        ['Messages', before] as const,
        { timeout: 10_000 },
      )
      .then(
        () => true,
        () => false,
      );
    if (!grew) return times;
    times.push(performance.now() - started);
  }
}

/**
 * Frame intervals while scrolling from the top to the end by a fixed step per animation frame. (No
 * named function inside: tsx would wrap it in a helper the page does not have.)
 */
function scrollFrames(page: Page): Promise<number[]> {
  return page.getByRole('region', { name: REGION }).evaluate(async (element, step) => {
    element.scrollTop = 0;
    const intervals: number[] = [];
    let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
    while (element.scrollTop < element.scrollHeight - element.clientHeight - 1) {
      element.scrollTop = Math.min(element.scrollHeight - element.clientHeight, element.scrollTop + step);
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      intervals.push(now - last);
      last = now;
    }
    return intervals;
  }, SCROLL_STEP_PX);
}

export async function measureMessagesThread(count = 400): Promise<MessagesThreadFigures> {
  const browser = await launchChromium();
  const bloom = await startBloom({ seed: true });
  try {
    const context = await browser.newContext();
    let state: StorageState;
    try {
      await signInAsDemo(await context.newPage(), bloom, 'maria@bloom.example');
      state = await context.storageState();
    } finally {
      await context.close();
    }
    const openShortMs = await openRuns(browser, bloom, state);
    const newest = await seedThread(bloom, count);
    const openMs = await openRuns(browser, bloom, state, newest);
    return await withPage(browser, state, async (page) => {
      await openThread(page, bloom, newest);
      const region = page.getByRole('region', { name: REGION });
      const openedDistancePx = await region.evaluate(
        (element) => element.scrollHeight - element.scrollTop - element.clientHeight,
      );
      const pages = await loadWholeThread(page);
      const loadedMessages = await messageCount(page);
      const frames = await scrollFrames(page);
      return {
        messages: count,
        openMs,
        openShortMs,
        openedDistancePx: Math.round(openedDistancePx),
        olderPageMs: {
          pages: pages.length,
          median: round(pages.length ? median(pages) : 0),
          max: round(Math.max(0, ...pages)),
        },
        loadedMessages,
        scroll: {
          stepPx: SCROLL_STEP_PX,
          frames: frames.length,
          p50FrameMs: round(percentile(frames, 0.5)),
          p95FrameMs: round(percentile(frames, 0.95)),
          maxFrameMs: round(Math.max(0, ...frames)),
          framesOver50Ms: frames.filter((ms) => ms > 50).length,
        },
      };
    });
  } finally {
    await browser.close();
    await bloom.stop();
  }
}

export function formatMessagesThread(f: MessagesThreadFigures): string {
  return [
    `messages thread (issue #8; Chromium 1280×900, ${f.messages} messages, built app + API on PGlite):`,
    `  opens at the newest: ${f.openMs.median} ms median (${f.openMs.runs.join(', ')}), ` +
      `${f.openedDistancePx} px from the end; the demo's short thread: ${f.openShortMs.median} ms ` +
      `(${f.openShortMs.runs.join(', ')})`,
    `  older pages by scrolling to the top: ${f.olderPageMs.pages} pages, ${f.olderPageMs.median} ms median, ` +
      `${f.olderPageMs.max} ms max; ${f.loadedMessages} messages on the screen`,
    `  scrolling the whole thread (${f.scroll.stepPx} px a frame, ${f.scroll.frames} frames): ` +
      `p50 ${f.scroll.p50FrameMs} ms, p95 ${f.scroll.p95FrameMs} ms, max ${f.scroll.maxFrameMs} ms, ` +
      `${f.scroll.framesOver50Ms} frames over 50 ms`,
  ].join('\n');
}
