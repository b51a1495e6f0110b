// Shared steps of the patient e2e walks (issue #7): sign in as a demo patient through the real sign-in
// screens, run axe on the current screen (critical and serious violations fail), check that nothing
// scrolls sideways, and read the signed-in app's access token to call the API as that patient.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { collectPageProblems } from './page-problems';

export interface PatientPage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions seen so far (collectPageProblems). */
  readonly problems: string[];
}

export async function signInAsPatient(
  browser: Browser,
  appUrl: string,
  { email, greeting, width }: { email: string; greeting: string; width: number },
): Promise<PatientPage> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems = collectPageProblems(page);
  await page.goto(new URL('/signin', appUrl).toString());
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^Password/).fill('bloom-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: greeting }).waitFor();
  return { context, page, problems };
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
