// E2E in Chromium against the real API seeded with the demo clinic and the built app, signed
// in as Maria: home, the health-record routes of SPEC §2 (lab results, a report with a highlighted
// critical value and its PDF inline, medications, vaccines upcoming/past and a vaccine's detail, an
// Observation, vitals with a weight and a blood pressure entered), at 1280 and at 375 px (menus
// collapsed below 768 px, no sideways scrolling). axe runs on every screen and fails on any critical
// or serious violation.
import type { Page } from 'playwright-core';
import { useDemoSuite } from './support/demo-suite';
import {
  openHealthRecordItem,
  openMainNavItem,
  seriousAxeViolations,
  sidewaysOverflow,
} from './support/patient-session';

const suite = useDemoSuite();
let page: Page;

async function signInAsMaria(width: number): Promise<void> {
  ({ page } = await suite.signIn('maria', width));
}

/** axe on the current screen: critical and serious violations fail the test. */
async function expectAccessible(): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

async function expectNoSidewaysScroll(): Promise<void> {
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
}

describe.each([1280, 375])('issue #7 patient app at %i px', (width) => {
  it('home: greeting, Send Message, pregnancy cards, what is next; lang set; accessible', async () => {
    await signInAsMaria(width);
    expect(await page.title()).toBe('Home · Bloom');
    expect(await page.getAttribute('html', 'lang')).toBeTruthy();
    await page.getByRole('link', { name: /Labor and delivery/ }).waitFor();
    expect(await page.getByRole('link', { name: 'Send Message' }).getAttribute('href')).toBe('/messages');
    await page.getByRole('region', { name: 'Next vaccine' }).waitFor();
    await expectAccessible();
    await expectNoSidewaysScroll();
  }, 60_000);

  it('header navigation reaches the health record; the lab report highlights a critical value', async () => {
    await signInAsMaria(width);
    await openMainNavItem(page, width, 'Health Record');
    await page.waitForURL(/\/health-record\/lab-results$/);
    await page.getByRole('heading', { level: 1, name: 'Lab Results' }).waitFor();
    expect(await page.title()).toBe('Lab Results · Bloom');
    await page.getByRole('list', { name: 'Lab results' }).getByRole('link').first().waitFor();
    await expectAccessible();
    await expectNoSidewaysScroll();

    // The demo's glucose challenge carries a critical code (HH): its row is highlighted and says Critical.
    await page
      .getByRole('link', { name: /glucose/i })
      .first()
      .click();
    // A table at 1280 px; stacked cards on a phone, so the flag is never off-screen.
    const table = page.getByRole(width < 600 ? 'list' : 'table', { name: 'Results', exact: true });
    await table.waitFor();
    const critical = table.locator('[data-critical="true"]');
    expect(await critical.count()).toBeGreaterThan(0);
    await expect(critical.first().textContent()).resolves.toContain('Critical');
    const background = await critical.first().evaluate((row) => getComputedStyle(row).backgroundColor);
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    await page.getByRole('region', { name: 'Specimens' }).waitFor();
    await expectAccessible();

    // A result opens as Observation/{id}.
    await table.locator('[data-critical="true"] a').first().click();
    await page.waitForURL(/\/Observation\/[^/]+$/);
    await page.getByText('(critical)').waitFor();
    await expectAccessible();

    // SPEC §2 attachment viewer: the blood count's presentedForm PDF inline (frame height 400), with Download.
    await openHealthRecordItem(page, width, 'Lab Results');
    await page
      .getByRole('link', { name: /Complete blood count/ })
      .first()
      .click();
    const pdf = page.locator('iframe[title="Complete blood count.pdf"]');
    await pdf.waitFor();
    expect(await pdf.evaluate((frame) => frame.getBoundingClientRect().height)).toBe(400);
    expect(await page.getByRole('link', { name: 'Download' }).getAttribute('download')).toBe(
      'Complete blood count.pdf',
    );
    await expectAccessible();
    await expectNoSidewaysScroll();
  }, 150_000);

  it('medications and vaccines (upcoming and past) from the side menu', async () => {
    await signInAsMaria(width);
    await page.goto(suite.url('/health-record'));
    await page.waitForURL(/\/health-record\/lab-results$/);
    await openHealthRecordItem(page, width, 'Medications');
    await page.getByRole('list', { name: 'Medications' }).getByRole('link').first().waitFor();
    expect(await page.title()).toBe('Medications · Bloom');
    await expectAccessible();
    await page.getByRole('list', { name: 'Medications' }).getByRole('link').first().click();
    await page.getByText('Dosage').waitFor();
    await expectAccessible();

    await openHealthRecordItem(page, width, 'Vaccines');
    await page.getByRole('list', { name: 'Past vaccines' }).waitFor();
    // Maria's Tdap is due at the 36-week visit: upcoming.
    const upcoming = page.getByRole('list', { name: 'Upcoming vaccines' }).getByRole('link').first();
    await upcoming.waitFor();
    await expectAccessible();
    await expectNoSidewaysScroll();
    // vaccines/{vaccineId}: the detail is titled with the vaccine's name.
    const vaccineName = ((await upcoming.textContent()) ?? '').trim();
    await upcoming.click();
    await page.waitForURL(/\/health-record\/vaccines\/[^/]+$/);
    const heading = page.getByRole('heading', { level: 1 }).filter({ hasNotText: /^Vaccines$/ });
    await heading.waitFor();
    expect(vaccineName).toContain(((await heading.textContent()) ?? '').trim());
    await expectAccessible();
  }, 90_000);

  it('vitals: each type shows its chart and measurements; a new weight appears on the chart; a measurement opens its detail', async () => {
    await signInAsMaria(width);
    await page.goto(suite.url('/health-record/vitals'));
    await page.getByRole('heading', { level: 1, name: 'Vitals' }).waitFor();
    for (const title of ['Blood Pressure', 'Heart Rate', 'Weight']) {
      await openHealthRecordItem(page, width, title);
      await page.getByRole('img', { name: new RegExp(`^${title} chart of \\d+ measurements`) }).waitFor();
      const rows = page.getByRole('table', { name: `${title} measurements` }).getByRole('row');
      expect(await rows.count()).toBeGreaterThan(2);
      expect(await page.title()).toBe(`${title} · Bloom`);
      await expectAccessible();
      await expectNoSidewaysScroll();
    }
    // Add a weight: the chart gains a point (its text alternative counts it) and the table a row.
    const chart = page.getByRole('img', { name: /^Weight chart of \d+ measurements/ });
    const countOf = async () =>
      Number(/of (\d+) measurements/.exec((await chart.getAttribute('aria-label')) ?? '')?.[1]);
    const before = await countOf();
    await page.getByRole('textbox', { name: /^Weight \(lb\)/ }).fill('abc');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter a number, e.g. 120 or 150.5').waitFor();
    await page.getByRole('textbox', { name: /^Weight \(lb\)/ }).fill('161.5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Measurement saved.').waitFor();
    await page
      .getByRole('img', {
        name: new RegExp(`^Weight chart of ${before + 1} measurements; latest Weight 161.5`),
      })
      .waitFor();
    await expectAccessible();

    // Blood pressure takes systolic and diastolic together: both reach the chart's latest reading.
    await openHealthRecordItem(page, width, 'Blood Pressure');
    await page.getByRole('textbox', { name: /^Systolic \(mmHg\)/ }).fill('118');
    await page.getByRole('textbox', { name: /^Diastolic \(mmHg\)/ }).fill('76.5');
    // A new page, not Weight's: no 'Measurement saved.' carried over before this save.
    expect(await page.getByText('Measurement saved.').count()).toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Measurement saved.').waitFor();
    await page
      .getByRole('img', { name: /^Blood Pressure chart of \d+ measurements; latest .*118.*76\.5/ })
      .waitFor();

    await openHealthRecordItem(page, width, 'Weight');
    await page.getByRole('table', { name: 'Weight measurements' }).getByRole('link').first().click();
    await page.waitForURL(/\/health-record\/vitals\/[^/]+$/);
    await page
      .getByText(/\d lb$/)
      .first()
      .waitFor();
    await expectAccessible();
  }, 150_000);
});
