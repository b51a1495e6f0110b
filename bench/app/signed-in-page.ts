// A fresh browser window carrying a signed-in session (its saved storage state), for the app
// benchmarks that time screens as a demo user.
import type { Browser, BrowserContext, Page } from 'playwright-core';

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Runs `run` in a new 1280-wide window signed in with `state`, and closes the window after. */
export async function withPage<T>(
  browser: Browser,
  state: StorageState,
  run: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ storageState: state, viewport: { width: 1280, height: 900 } });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}
