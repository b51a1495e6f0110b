// Shared steps and checks of the e2e walks: follow the header's main navigation and the
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

/**
 * Follows a link of a section's side menu ('Health Record', 'Account'), behind its toggle below
 * 768 px. The toggle is pressed until the link shows: while the page under the menu is still loading
 * (a lazy screen under load) its re-render can close the menu just opened.
 */
export async function openSideMenuItem(
  page: Page,
  menuLabel: string,
  width: number,
  name: string,
): Promise<void> {
  const menu = page.getByRole('navigation', { name: menuLabel });
  const link = menu.getByRole('link', { name });
  if (width < 768) {
    const toggle = menu.getByRole('button', { name: new RegExp(`${menuLabel} menu$`) });
    for (let attempt = 0; attempt < 5 && !(await link.isVisible()); attempt++) {
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      await link.waitFor({ timeout: 5_000 }).catch(() => undefined);
    }
  }
  await link.click();
}

/** Follows a link of the Health Record side menu (behind its toggle below 768 px). */
export function openHealthRecordItem(page: Page, width: number, name: string): Promise<void> {
  return openSideMenuItem(page, 'Health Record', width, name);
}

/** The axe violations of impact critical or serious on the current screen, as "rule: targets". */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Colours mid-transition (a ripple, a menu fading, a button leaving its disabled state) are not
  // what the user reads: let running animations finish (infinite ones, e.g. spinners, are skipped).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      // A paused animation never finishes: axe runs after 2 s regardless.
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
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
