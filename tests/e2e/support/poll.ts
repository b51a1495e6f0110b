// Waits on something only an async read in the page can tell (service worker notifications, Cache
// Storage). Playwright's waitForFunction does not keep polling an async predicate (it answered at
// once with the predicate's false), so the polling happens here.
import type { Page } from 'playwright-core';

export async function pollUntil<T>(
  page: Page,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await page.waitForTimeout(250);
  }
}
