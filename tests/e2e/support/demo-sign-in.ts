// The demo clinic in e2e tests: a demo patient's id, signing a page in as a demo account through
// the app's own sign-in screen (email, Next, password bloom-demo, Sign in) until the home page shows,
// and a demo account's platform client in Node (the client API a care team's tool would use).
import type { Patient } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { BloomClient } from '../../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../../src/client/storage';
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

/** A BloomClient in Node signed in as a demo account (password bloom-demo) against the running server. */
export async function demoApiClient(bloom: RunningBloom, email: string): Promise<BloomClient> {
  const client = new BloomClient({
    baseUrl: bloom.apiBaseUrl,
    storage: new PrefixedStorage(new MemoryStorage()),
  });
  const response = await client.startLogin({ email, password: 'bloom-demo' });
  if (!response.code) throw new Error(`API sign-in of ${email} did not give a code`);
  await client.processCode(response.code, { redirectUri: bloom.appUrl.replace(/\/$/, '') });
  return client;
}
