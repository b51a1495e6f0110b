// The demo clinic in e2e tests: a demo patient's id, and signing a page in as a demo account through
// the app's own sign-in screen (email, Next, password bloom-demo, Sign in) until the home page shows.
import type { Patient } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { parseSearchRequest } from '../../../src/fhir/search/parse';
import type { RunningBloom } from './server';

/** The id of the demo Patient with this email (maria@bloom.example, aisha@bloom.example). */
export async function demoPatientId(bloom: RunningBloom, email: string): Promise<string> {
  const result = await bloom.systemRepo.search<Patient>(
    parseSearchRequest({ resourceType: 'Patient', query: { email } }),
  );
  const id = result.resources[0]?.id;
  if (!id) throw new Error(`no demo patient with ${email}`);
  return id;
}

export async function signInAsDemo(page: Page, bloom: RunningBloom, email: string): Promise<void> {
  await page.goto(new URL('/signin', bloom.appUrl).toString());
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^Password/).fill('bloom-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(bloom.appUrl);
  await page.getByRole('heading', { level: 1 }).waitFor();
}
