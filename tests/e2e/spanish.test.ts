// E2E in Chromium against the real API seeded with the demo clinic: the patient app in Spanish. Maria,
// on a 375 px phone, picks Español in the account menu: home and the shell speak Spanish, <html lang>
// follows, axe finds no critical or serious violation, and the choice is saved in her
// Patient resource as communication.language (urn:ietf:bcp:47, preferred), so a new sign-in starts in
// it; switching back works.
import type { Patient } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { signInAsDemo } from './support/demo-sign-in';
import { useDemoSuite } from './support/demo-suite';
import { seriousAxeViolations, sidewaysOverflow, storedLogin } from './support/patient-session';

const suite = useDemoSuite();

async function savedLanguages(page: Page): Promise<Patient['communication']> {
  const { accessToken, profile } = await storedLogin(page);
  const response = await fetch(new URL(`fhir/R4/${profile}`, suite.bloom.apiBaseUrl), {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return ((await response.json()) as Patient).communication;
}

/** The first saved language code, once it is the expected one (the save follows the switch). */
async function savedLanguageCode(page: Page, expected: string): Promise<string | undefined> {
  let code: string | undefined;
  for (let attempt = 0; attempt < 50 && code !== expected; attempt++) {
    if (attempt > 0) await page.waitForTimeout(200);
    code = (await savedLanguages(page))?.[0]?.language?.coding?.[0]?.code;
  }
  return code;
}

async function chooseLanguage(page: Page, account: RegExp, language: string): Promise<void> {
  await page.getByRole('button', { name: account }).click();
  await page.getByRole('menuitem', { name: language, exact: true }).click();
}

describe('the patient app in Spanish', () => {
  it('Maria switches to Español at 375 px: home in Spanish, axe clean, saved in her record', async () => {
    const { page } = await suite.signIn('maria', 375);
    await page.goto(suite.url('/'));
    await page.getByRole('link', { name: 'Send Message', exact: true }).waitFor();

    await chooseLanguage(page, /Maria/, 'Español');
    await page.getByRole('link', { name: 'Enviar mensaje', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await page.getByRole('heading', { level: 2, name: 'Su embarazo, etapa por etapa' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    expect(await savedLanguageCode(page, 'es')).toBe('es');
    expect((await savedLanguages(page))?.[0]).toEqual({
      language: { coding: [{ system: 'urn:ietf:bcp:47', code: 'es', display: 'Spanish' }] },
      preferred: true,
    });
  });

  it('a new sign-in starts in her saved Spanish, the not-found page too; switching back to English is saved', async () => {
    // A fresh window (no choice stored on the device) signed in through the screens: her record decides.
    const { page } = await suite.openWindow(375);
    await signInAsDemo(page, suite.bloom, 'maria@bloom.example');
    await page.getByRole('heading', { level: 1, name: 'Hola, Maria' }).waitFor();
    await page.getByRole('link', { name: 'Enviar mensaje', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    await page.goto(suite.url('/pagina-que-no-existe'));
    await page.getByRole('heading', { level: 1, name: 'No encontramos esa página' }).waitFor();

    await page.goto(suite.url('/'));
    await chooseLanguage(page, /Maria/, 'English');
    await page.getByRole('link', { name: 'Send Message', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await savedLanguageCode(page, 'en')).toBe('en');
  });
});
