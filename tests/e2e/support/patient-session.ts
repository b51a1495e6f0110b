// Shared steps and checks of the e2e walks (issue #7): follow the header's main navigation and the
// Health Record menu, run axe on
// the current screen (critical and serious violations fail), check that nothing scrolls sideways, and
// read the signed-in app's access token to call the API as the signed-in account.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Follows a link of the header's main navigation: in the Menu below 768 px, in the bar above. */
export async function openMainNavItem(page: Page, width: number, name: string): Promise<void> {
  if (width < 768) {
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('menuitem', { name }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
  }
}

/** Follows a link of the Health Record side menu (behind its toggle below 768 px). */
export async function openHealthRecordItem(page: Page, width: number, name: string): Promise<void> {
  if (width < 768) await page.getByRole('button', { name: 'Health Record menu' }).click();
  await page.getByRole('navigation', { name: 'Health Record' }).getByRole('link', { name }).click();
}

/** The axe violations of impact critical or serious on the current screen, as "rule: targets". */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** How many pixels the page scrolls sideways (0 or less: none). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The signed-in app's access token and profile reference (its stored login, SPEC §3 "Stored login"). */
export async function storedLogin(page: Page): Promise<{ accessToken: string; profile: string }> {
  const login = await page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('@bloom/activeLogin') ?? '{}') as {
        accessToken?: string;
        profile?: { reference?: string };
      },
  );
  if (!login.accessToken || !login.profile?.reference) throw new Error('No stored login in the page');
  return { accessToken: login.accessToken, profile: login.profile.reference };
}
