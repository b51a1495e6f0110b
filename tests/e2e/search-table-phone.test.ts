// The search table on a phone (SPEC §2 generic resource search table, §9 375 px), in Chromium against
// the real API with the demo clinic, as Dr. Chen at 375 px: the heading, the toolbar's actions, the
// first columns and the pager are inside the screen; the page itself never scrolls sideways (only
// the grid does, inside its own box); no skeleton is left once the rows are in; axe finds nothing
// critical or serious.
import type { Page } from 'playwright-core';
import { useDemoSuite } from './support/demo-suite';
import { seriousAxeViolations } from './support/patient-session';

const suite = useDemoSuite();
const PHONE = 375;

/** The element's box lies inside the 375 px viewport (nothing of it cut off at either side). */
async function insideScreen(page: Page, selector: string): Promise<boolean> {
  return page.evaluate(
    ([query, width]) => {
      const element = document.querySelector(query);
      if (!element) return false;
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.left >= 0 && box.right <= width;
    },
    [selector, PHONE] as const,
  );
}

describe('SPEC §9 the search table at 375 px', () => {
  it('Dr. Chen: /Observation fits the phone, scrolls only inside the grid, and is axe clean', async () => {
    const { page } = await suite.signIn('dr-chen', PHONE);
    await page.goto(suite.url('/Observation'));
    await page.getByRole('heading', { level: 1, name: 'Observation' }).waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)').length > 0,
      undefined,
      { timeout: 90_000 },
    );
    await page.waitForLoadState('networkidle');

    // Nothing left loading once the rows are in: no skeleton (the page's or the grid's), nothing busy.
    expect(await page.locator('.MuiSkeleton-root, .MuiDataGrid-rowSkeleton').count()).toBe(0);
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);

    // What a user needs is on the screen: the heading, the toolbar's actions for a phone, the first
    // data column's header and cells, and the pager.
    expect(await insideScreen(page, 'h1')).toBe(true);
    for (const name of ['Fields', 'Filters', 'New...', 'Refresh']) {
      const button = page.getByRole('button', { name, exact: true });
      const box = await button.boundingBox();
      expect({ name, inside: box !== null && box.x >= 0 && box.x + box.width <= PHONE }).toEqual({
        name,
        inside: true,
      });
    }
    expect(await insideScreen(page, '[role="columnheader"][data-field="subject"]')).toBe(true);
    expect(await insideScreen(page, '.MuiDataGrid-row [data-field="subject"]')).toBe(true);
    expect(await insideScreen(page, 'nav[aria-label="Pages"]')).toBe(true);
    for (const name of ['Next page', 'Previous page']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect({ name, inside: box !== null && box.x >= 0 && box.x + box.width <= PHONE }).toEqual({
        name,
        inside: true,
      });
    }

    // The page does not scroll sideways; the grid's wider columns scroll inside the grid.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    const grid = await page.evaluate(() => {
      const scroller = document.querySelector('.MuiDataGrid-virtualScroller');
      return scroller ? { scroll: scroller.scrollWidth, client: scroller.clientWidth } : undefined;
    });
    expect(grid).toBeDefined();
    expect(grid?.client).toBeLessThanOrEqual(PHONE);
    expect(grid?.scroll).toBeGreaterThan(grid?.client ?? 0);

    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 120_000);
});
