// E2E in Chromium against the real API seeded with the demo clinic: every patient screen in Spanish on a
// 375 px phone. Maria opens each screen in English, then in Spanish (her record's language): the
// interface words (headings, buttons, field labels, table headers, tabs, accessible names) all change,
// <html lang> is "es", axe finds no critical or serious violation and nothing scrolls sideways.
// Names and data values (hers, the clinic's, lab names, numbers, dates) are the same in both languages.
import type { Patient } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { useDemoSuite } from './support/demo-suite';
import { seriousAxeViolations, sidewaysOverflow, storedLogin } from './support/patient-session';

const suite = useDemoSuite();

interface TourStop {
  readonly name: string;
  /** Opens the screen from a signed-in window (a path, or a path then a click to a detail). */
  readonly open: (page: Page) => Promise<void>;
}

const goTo = (path: string) => async (page: Page) => {
  await page.goto(suite.url(path));
};

const firstDetailOf = (listPath: string, linkPrefix: string) => async (page: Page) => {
  await page.goto(suite.url(listPath));
  const link = page.locator(`main a[href^="${linkPrefix}"]`).first();
  await link.waitFor();
  await link.click();
};

const TOUR: readonly TourStop[] = [
  { name: 'home', open: goTo('/') },
  { name: 'lab results', open: goTo('/health-record/lab-results') },
  {
    name: 'a lab result',
    open: firstDetailOf('/health-record/lab-results', '/health-record/lab-results/'),
  },
  { name: 'medications', open: goTo('/health-record/medications') },
  { name: 'vaccines', open: goTo('/health-record/vaccines') },
  { name: 'vitals', open: goTo('/health-record/vitals') },
  { name: 'messages', open: goTo('/messages') },
  { name: 'get care', open: goTo('/get-care') },
  { name: 'pregnancy timeline', open: goTo('/pregnancy') },
  { name: 'kick count', open: goTo('/pregnancy/kicks') },
  { name: 'forms', open: goTo('/forms') },
  { name: 'a questionnaire (its texts from the data)', open: firstDetailOf('/forms', '/forms/') },
  { name: 'account', open: goTo('/account/profile') },
];

/** Words that are names or data, the same in both languages: hers, the brand, the seeded lab tests. */
const SAME_IN_BOTH = new Set([
  'Bloom',
  'Maria',
  'M Maria',
  'Maria Garcia',
  'Español',
  'English',
  'Group B strep culture',
  'Group B strep culture · Bloom',
  'Group B Streptococcus',
]);

/** Saves her language in her Patient (communication), as the account menu's switch does. */
async function saveLanguage(page: Page, code: 'en' | 'es'): Promise<void> {
  const { accessToken, profile } = await storedLogin(page);
  const url = new URL(`fhir/R4/${profile}`, suite.bloom.apiBaseUrl);
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/fhir+json' };
  const patient = (await (await fetch(url, { headers })).json()) as Patient;
  const communication = [{ language: { coding: [{ system: 'urn:ietf:bcp:47', code }] }, preferred: true }];
  const saved = await fetch(url, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ ...patient, communication }),
  });
  expect(saved.status).toBe(200);
}

/** Waits until the screen shows its heading and has stopped loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await page
    .locator('[role="progressbar"]')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {
      // An indeterminate progress bar that stays (a chart's live region) is not a loading screen.
    });
}

/** The interface words of the screen: headings, buttons, labels, headers, tabs and accessible names. */
function interfaceWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const words = new Set<string>();
    const selector = 'h1, h2, h3, button, label, legend, th, [role="tab"], [role="columnheader"]';
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const text = element.innerText?.replace(/\s+/g, ' ').trim();
      if (text && element.checkVisibility()) words.add(text);
    }
    for (const element of document.querySelectorAll<HTMLElement>('[aria-label], [placeholder], [title]')) {
      if (!element.checkVisibility()) continue;
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(name)?.trim();
        if (value) words.add(value);
      }
    }
    words.add(document.title);
    return [...words];
  });
}

describe('every patient screen in Spanish at 375 px', () => {
  it.each(TOUR.map((stop) => [stop.name, stop] as const))(
    '%s: its interface words change, axe clean, no sideways scroll',
    async (_, stop) => {
      const { page } = await suite.signIn('maria', 375);
      await saveLanguage(page, 'en');
      await stop.open(page);
      await settled(page);
      const english = new Set(await interfaceWords(page));

      await saveLanguage(page, 'es');
      let spanish: string[];
      try {
        await stop.open(page);
        await settled(page);
        spanish = await interfaceWords(page);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      } finally {
        // The next test signs in to an English greeting.
        await saveLanguage(page, 'en');
      }
      const untranslated = spanish.filter(
        (word) => english.has(word) && !SAME_IN_BOTH.has(word) && !/^[\d\s.,:;/·()%–-]*$/.test(word),
      );
      expect(untranslated).toEqual([]);
      expect(spanish.length).toBeGreaterThan(3);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    },
  );
});
