// Issue #11 E2E in Chromium: two windows (two browser contexts, two sign-ins) of the demo practitioner
// Dr. Chen with "Share context" on, against the real API and its FHIRcast hub (SPEC §7 Remote context
// sync): opening a patient in one brings the other to the same patient within a few seconds, both
// ways; the switch's choice is kept per user (key-value store), so the second window starts with it on.
import type { Patient } from '@medplum/fhirtypes';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parseSearchRequest } from '../../src/fhir/search/parse';
import { launchChromium } from './support/browser';
import { collectPageProblems } from './support/page-problems';
import { startBloom, type RunningBloom } from './support/server';

let bloom: RunningBloom;
let browser: Browser;
const contexts: BrowserContext[] = [];
const problems: string[][] = [];
let mariaId: string;
let aishaId: string;

async function patientIdByEmail(email: string): Promise<string> {
  const result = await bloom.systemRepo.search<Patient>(
    parseSearchRequest({ resourceType: 'Patient', query: { email } }),
  );
  const id = result.resources[0]?.id;
  if (!id) throw new Error(`no demo patient with ${email}`);
  return id;
}

beforeAll(async () => {
  browser = await launchChromium();
  bloom = await startBloom({ seed: true });
  mariaId = await patientIdByEmail('maria@bloom.example');
  aishaId = await patientIdByEmail('aisha@bloom.example');
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await bloom?.stop();
});

function url(pathname: string): string {
  return new URL(pathname, bloom.appUrl).toString();
}

async function signInAsDrChen(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  problems.push(collectPageProblems(page));
  await page.goto(url('/signin'));
  await page.getByRole('textbox', { name: /^Email/ }).fill('dr.chen@bloom.example');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^Password/).fill('bloom-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(url('/'));
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

async function connected(page: Page): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /^Connected$/ })
    .waitFor({ timeout: 10_000 });
}

describe('issue #11 FHIRcast context sharing between two windows (Chromium)', () => {
  it('SPEC §7: opening a patient in one window brings the other to the same patient within seconds', async () => {
    const first = await signInAsDrChen();
    await first.goto(url(`/Patient/${aishaId}`));
    const toggle = first.getByRole('switch', { name: 'Share context' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await connected(first);

    // The second window: the stored choice turns sharing on there as well.
    const second = await signInAsDrChen();
    await second.goto(url(`/Patient/${aishaId}`));
    expect(await second.getByRole('switch', { name: 'Share context' }).isChecked()).toBe(true);
    await connected(second);

    await first.goto(url(`/Patient/${mariaId}`));
    await first.getByRole('heading', { level: 1, name: 'Maria Garcia' }).waitFor();
    await second.waitForURL(url(`/Patient/${mariaId}`), { timeout: 5_000 });
    await second.getByRole('heading', { level: 1, name: 'Maria Garcia' }).waitFor();

    // And back the other way, by following a link inside the app (no reload).
    await connected(second);
    await second.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/Patient/${aishaId}`);
    await second.getByRole('heading', { level: 1, name: 'Aisha Khan' }).waitFor();
    await first.waitForURL(url(`/Patient/${aishaId}`), { timeout: 5_000 });
    await first.getByRole('heading', { level: 1, name: 'Aisha Khan' }).waitFor();

    // Both stay there: no echo sends either window back.
    await first.waitForTimeout(1500);
    expect(first.url()).toBe(url(`/Patient/${aishaId}`));
    expect(second.url()).toBe(url(`/Patient/${aishaId}`));
    expect(problems.flat()).toEqual([]);
  }, 120_000);
});
