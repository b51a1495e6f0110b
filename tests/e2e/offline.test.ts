// Offline and installable, in Chromium against the real server (SPEC §2 health record and vitals): the
// manifest makes the app installable (Chromium's own installability check), the service
// worker takes over after sign-in, Maria reads her lab results with the network cut (CDP network
// emulation), records her weight offline, and it reaches the server exactly once when the network
// returns; a message she writes offline shows in her thread as waiting and reaches the server exactly
// once too. After she signs out nothing of hers stays on the device: the next person's sign-in on the
// same browser is never served her answers.
import type { Communication, Observation } from '@medplum/fhirtypes';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { parseSearchRequest } from '../../src/fhir/search/parse';
import { GRAPHQL_ANSWERS_CACHE } from '../../src/app/sw/graphql-answers';
import { OFFLINE_WRITES_STORAGE_KEY } from '../../src/client/offline-writes';
import { demoPatientId, signInAsDemo } from './support/demo-sign-in';
import { useDemoSuite } from './support/demo-suite';
import {
  openHealthRecordItem,
  openMainNavItem,
  seriousAxeViolations,
  storedLogin,
} from './support/patient-session';
import { pollUntil } from './support/poll';

// The one suite whose windows run the service worker (the others block it: see SuiteOptions).
const suite = useDemoSuite({ serviceWorkers: true });
const WEIGHT = '163.7';
const MESSAGE = 'Written offline: is a mild headache at 30 weeks normal?';

/** Cuts or restores the network of the page and of the app's service worker (DevTools' Offline). */
async function setOffline(context: BrowserContext, sessions: CDPSession[], offline: boolean): Promise<void> {
  const conditions = { offline, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
  for (const session of sessions) await session.send('Network.emulateNetworkConditions', conditions);
  // The worker is a target of its own: the page's emulation does not reach its fetches.
  await context.setOffline(offline);
}

/** Waits until the service worker controls the page (it claims open pages when it activates). */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 60_000,
  });
}

/** The kept GraphQL answers' keys in the page's Cache Storage (none when the cache does not exist). */
function keptAnswerKeys(page: Page): Promise<string[]> {
  return page.evaluate(async (name) => {
    if (!(await caches.has(name))) return [];
    const cache = await caches.open(name);
    return (await cache.keys()).map((request) => request.url);
  }, GRAPHQL_ANSWERS_CACHE);
}

async function mariaWeights(patientId: string): Promise<Observation[]> {
  const result = await suite.bloom.systemRepo.search<Observation>(
    parseSearchRequest({
      resourceType: 'Observation',
      query: { subject: `Patient/${patientId}`, code: 'http://loinc.org|29463-7', _count: '1000' },
    }),
  );
  return result.resources.filter((observation) => String(observation.valueQuantity?.value) !== '');
}

/** Her messages on the server with the text `text`. */
async function mariaMessages(patientId: string, text: string): Promise<Communication[]> {
  const result = await suite.bloom.systemRepo.search<Communication>(
    parseSearchRequest({
      resourceType: 'Communication',
      query: { subject: `Patient/${patientId}`, _count: '1000' },
    }),
  );
  return result.resources.filter((message) => message.payload?.some((part) => part.contentString === text));
}

describe('offline and installable', () => {
  it('installable; lab results read offline; a weight and a message entered offline reach the server once; nothing of Maria after sign-out', async () => {
    const mariaId = await demoPatientId(suite.bloom, 'maria@bloom.example');
    const { page, context, problems } = await suite.signIn('maria', 1280);
    const cdp = await context.newCDPSession(page);

    // Installable: Chromium finds the manifest (standalone, icons, start_url) and a worker with a fetch handler.
    await waitForServiceWorker(page);
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // A Playwright context is an incognito profile, where Chromium installs nothing: the only error allowed.
    expect(
      installability.installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito'),
    ).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(suite.url('/manifest.webmanifest'));
    expect(manifest.errors).toEqual([]);

    // Online, once: her lab results, as the worker keeps them for her.
    await page.goto(suite.url('/health-record/lab-results'));
    const labList = page.getByRole('list', { name: 'Lab results' });
    await labList.getByRole('link').first().waitFor();
    const labNames = await labList.getByRole('link').allTextContents();
    // ...and her weight chart (what she last saw is what she has offline).
    await openHealthRecordItem(page, 1280, 'Vitals');
    await openHealthRecordItem(page, 1280, 'Weight');
    await page.getByRole('textbox', { name: /^Weight \(lb\)/ }).waitFor();
    // ...and her messages.
    await openMainNavItem(page, 1280, 'Messages');
    await page.getByRole('list', { name: 'Messages' }).getByRole('listitem').first().waitFor();
    await page.goto(suite.url('/health-record/lab-results'));
    await labList.getByRole('link').first().waitFor();
    const { profile } = await storedLogin(page);
    const mariaKeys = await keptAnswerKeys(page);
    expect(mariaKeys.length).toBeGreaterThan(0);
    expect(mariaKeys.every((key) => key.includes(encodeURIComponent(profile)))).toBe(true);

    // The network goes away; the page is opened again from the device.
    const weightsBefore = (await mariaWeights(mariaId)).length;
    await setOffline(context, [cdp], true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Lab Results' }).waitFor();
    const banner = page.getByRole('status').filter({ hasText: "You're offline" });
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toMatch(/last updated/);
    await labList.getByRole('link').first().waitFor();
    expect(await labList.getByRole('link').allTextContents()).toEqual(labNames);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Her weight, offline: kept on the device and shown as waiting.
    await openHealthRecordItem(page, 1280, 'Vitals');
    await openHealthRecordItem(page, 1280, 'Weight');
    await page.getByRole('textbox', { name: /^Weight \(lb\)/ }).fill(WEIGHT);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText("Measurement kept on this device: it is sent when you're back online.").waitFor();
    const waiting = page.getByRole('region', { name: 'Measurements waiting to be sent' });
    await waiting.getByText(`Weight ${WEIGHT} lb`).waitFor();
    expect(await waiting.locator('li[data-state="waiting"]').count()).toBe(1);
    expect((await mariaWeights(mariaId)).length).toBe(weightsBefore);

    // A message, offline: in her thread as waiting to send, not on the server.
    await openMainNavItem(page, 1280, 'Messages');
    const composer = page.getByRole('textbox', { name: 'Message to your care team' });
    await composer.fill(MESSAGE);
    await composer.press('Enter');
    const waitingMessages = page.getByRole('list', { name: 'Messages waiting to send' });
    await waitingMessages.getByText(MESSAGE, { exact: true }).waitFor();
    await waitingMessages.getByText('Waiting to send', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await mariaMessages(mariaId, MESSAGE)).toEqual([]);

    // Back online: both sent by themselves, once; the message joins her thread.
    await setOffline(context, [cdp], false);
    await waitingMessages.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('list', { name: 'Messages' }).getByText(MESSAGE, { exact: true }).waitFor();
    expect(await mariaMessages(mariaId, MESSAGE)).toHaveLength(1);
    await page.goto(suite.url('/health-record/lab-results'));
    await openHealthRecordItem(page, 1280, 'Vitals');
    await openHealthRecordItem(page, 1280, 'Weight');
    await page.getByRole('textbox', { name: /^Weight \(lb\)/ }).waitFor();
    expect(await waiting.count()).toBe(0);
    await banner.waitFor({ state: 'detached' });
    const after = await mariaWeights(mariaId);
    expect(after.length).toBe(weightsBefore + 1);
    // Weight is stored in lb (SPEC §3), the unit she entered.
    const added = after.filter((observation) => observation.valueQuantity?.value === Number(WEIGHT));
    expect(added).toHaveLength(1);
    // Reloading (a flush at start) and another online event send nothing more.
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.waitForTimeout(1000);
    expect((await mariaWeights(mariaId)).length).toBe(weightsBefore + 1);
    expect(await mariaMessages(mariaId, MESSAGE)).toHaveLength(1);

    // Sign-out: her kept answers and writes leave the device.
    await page.goto(suite.url('/signout'));
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    const answersKept = () => page.evaluate((name) => caches.has(name), GRAPHQL_ANSWERS_CACHE);
    expect(await pollUntil(page, answersKept, (kept) => !kept)).toBe(false);
    expect(await keptAnswerKeys(page)).toEqual([]);
    expect(await page.evaluate((key) => localStorage.getItem(key), OFFLINE_WRITES_STORAGE_KEY)).toBeNull();

    // Dr. Chen signs in on the same browser; offline, her screens are never answered with Maria's data.
    await signInAsDemo(page, suite.bloom, 'dr.chen@bloom.example');
    await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
    const chen = await storedLogin(page);
    await setOffline(context, [cdp], true);
    await page.goto(suite.url('/health-record/lab-results'));
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForTimeout(1000);
    for (const name of labNames) expect(await page.getByText(name, { exact: true }).count()).toBe(0);
    const keys = await keptAnswerKeys(page);
    expect(keys.some((key) => key.includes(encodeURIComponent(profile)))).toBe(false);
    expect(keys.every((key) => key.includes(encodeURIComponent(chen.profile)))).toBe(true);
    await setOffline(context, [cdp], false);
    // Offline loads are the test's own doing (the worker's "Failed to fetch" included).
    problems.splice(
      0,
      problems.length,
      ...problems.filter((problem) => !/Failed to fetch|ERR_INTERNET_DISCONNECTED|WebSocket/.test(problem)),
    );
  }, 240_000);
});
