// E2E in Chromium against the real API seeded with the demo clinic: the patient screens speak plain
// language. Every patient screen is scanned for raw FHIR codes and UCUM units; the lab report at 375 px
// shows its critical flag with no sideways scrolling; Aisha's home dates her pregnancy; a mistyped
// address says "We couldn't find that page" without downloading the search table. axe runs on the
// changed screens at 1280 and 375 px and fails on any critical or serious violation.
import type { Page } from 'playwright-core';
import { useDemoSuite } from './support/demo-suite';
import { seriousAxeViolations, sidewaysOverflow } from './support/patient-session';

const suite = useDemoSuite();

/**
 * Raw FHIR codes and UCUM units as a patient must never see them: a status code alone on its line (a
 * badge), a hyphenated code anywhere, or a unit in UCUM spelling. English words like "booked" in a
 * sentence are fine.
 */
const RAW_CODES =
  /^(final|active|completed|booked|fulfilled|cancelled|preliminary|amended|noshow|proposed|pending)$|\b(not-done|entered-in-error|in-progress)\b|mm\[Hg\]|\[lb_av\]|10\*\d|\/uL\b/m;

/** The patient screens' text once their content has arrived. */
async function screenText(
  page: Page,
  path: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<string> {
  await page.goto(suite.url(path));
  await ready(page);
  // Lazy parts (badges, lists) settle after the first content; on a loaded machine the quiet
  // moment can come later than Playwright's default 30 s.
  await page.waitForLoadState('networkidle', { timeout: 60_000 });
  const text = await page.locator('main').innerText();
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n');
}

const SCREENS: ReadonlyArray<readonly [string, (page: Page) => Promise<unknown>]> = [
  ['/', (page) => page.getByRole('region', { name: 'Your pregnancy', exact: true }).waitFor()],
  [
    '/health-record/lab-results',
    (page) => page.getByRole('list', { name: 'Lab results' }).getByRole('link').first().waitFor(),
  ],
  [
    '/health-record/medications',
    (page) => page.getByRole('list', { name: 'Medications' }).getByRole('link').first().waitFor(),
  ],
  ['/health-record/vaccines', (page) => page.getByRole('list', { name: 'Upcoming vaccines' }).waitFor()],
  ['/health-record/vitals', (page) => page.getByTestId('sparkline').first().waitFor()],
  [
    '/health-record/vitals/blood-pressure',
    (page) => page.getByRole('table', { name: 'Blood Pressure measurements' }).waitFor(),
  ],
  [
    '/health-record/vitals/weight',
    (page) => page.getByRole('table', { name: 'Weight measurements' }).waitFor(),
  ],
  ['/get-care', (page) => page.getByRole('list', { name: 'Past appointments' }).waitFor()],
];

describe('issue #25 plain language for the patient', () => {
  it('no raw status code or UCUM unit on any patient screen, the report and vaccine details included', async () => {
    const { page } = await suite.signIn('maria', 1280);
    for (const [path, ready] of SCREENS) {
      const text = await screenText(page, path, ready);
      expect({ path, raw: RAW_CODES.exec(text)?.[0] }).toEqual({ path, raw: undefined });
      // Every badge says its status in words, never the code it keeps in data-status.
      const codeBadges = await page
        .locator('main [data-status]')
        .evaluateAll(
          (badges) => badges.filter((b) => b.textContent === b.getAttribute('data-status')).length,
        );
      expect({ path, codeBadges }).toEqual({ path, codeBadges: 0 });
    }
    // Each lab report and each vaccine's detail.
    await page.goto(suite.url('/health-record/lab-results'));
    const reports = page.getByRole('list', { name: 'Lab results' }).getByRole('link');
    await reports.first().waitFor();
    const reportHrefs = await reports.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    await page.goto(suite.url('/health-record/vaccines'));
    const vaccines = page.getByRole('main').getByRole('link', { name: /Tdap|Influenza|flu/i });
    await vaccines.first().waitFor();
    const vaccineHrefs = await vaccines.evaluateAll((links) =>
      links.map((a) => a.getAttribute('href') ?? ''),
    );
    for (const href of [...reportHrefs, ...vaccineHrefs]) {
      const text = await screenText(page, href, (p) => p.getByRole('heading', { level: 1 }).waitFor());
      expect({ href, raw: RAW_CODES.exec(text)?.[0] }).toEqual({ href, raw: undefined });
    }
    // The upcoming Tdap reads "Due" in blue, not a red "not-done".
    await page.goto(suite.url('/health-record/vaccines'));
    const due = page.getByRole('list', { name: 'Upcoming vaccines' }).locator('[data-status]').first();
    expect(await due.textContent()).toBe('Due');
    expect(await due.getAttribute('data-color')).toBe('blue');
  }, 300_000);

  it.each([1280, 375])(
    'the lab report at %i px shows the critical flag without sideways scrolling',
    async (width) => {
      const { page } = await suite.signIn('maria', width);
      await page.goto(suite.url('/health-record/lab-results'));
      await page
        .getByRole('link', { name: /glucose/i })
        .first()
        .click();
      await page.getByRole('heading', { level: 1, name: /glucose/i }).waitFor();
      const critical = page.locator('[data-critical="true"]').first();
      await critical.waitFor();
      const flag = critical.getByText('Critical', { exact: true });
      await flag.waitFor();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      const box = await flag.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      if (width === 375) expect(await page.getByRole('table', { name: 'Results' }).count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
    60_000,
  );

  it.each([1280, 375])(
    'changed screens at %i px are accessible: home, vitals, Get Care',
    async (width) => {
      const { page } = await suite.signIn('aisha', width);
      // Aisha's home dates her pregnancy from her due date.
      await page
        .getByRole('region', { name: 'Your pregnancy', exact: true })
        .getByText(/22 weeks \d days · trimester 2/)
        .waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      for (const [path, ready] of SCREENS.slice(4)) {
        await page.goto(suite.url(path));
        await ready(page);
        expect({ path, violations: await seriousAxeViolations(page) }).toEqual({ path, violations: [] });
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      }
    },
    300_000,
  );

  it('a mistyped address says "We couldn\'t find that page" and does not download the search table', async () => {
    const { page } = await suite.signIn('maria', 1280);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(suite.url('/helth-record'));
    await page.getByRole('heading', { level: 1, name: "We couldn't find that page" }).waitFor();
    expect(await page.title()).toBe('Page not found · Bloom');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((path) => /SearchTable/.test(path))).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 60_000);
});
