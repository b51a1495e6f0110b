// What a page reports that a person would call broken: console errors and uncaught exceptions.
// A refused request (an expected 400 or 404) is logged by Chromium as "Failed to load resource";
// that is the test's business, not a problem of the page, so it is left out unless `failedLoads`
// (a signed-out page that should load everything it asks for).
import type { Page } from 'playwright-core';

/** Starts collecting the page's problems; the returned array fills as they happen. */
export function collectPageProblems(page: Page, { failedLoads = false } = {}): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && (failedLoads || !/Failed to load resource/.test(message.text()))) {
      problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}
