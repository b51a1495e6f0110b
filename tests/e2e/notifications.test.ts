// System notifications while the app is open in the background, in Chromium against the real server
// with the service worker running: Maria turns on "Notify me of new messages" on the Messages screen
// (the browser's 'notifications' permission granted to the page, as a person would when asked); a
// message Dr. Chen sends over the API while she is looking at the page raises none; with the page
// hidden (emulated: headless Chromium keeps pages visible), his next message raises one, shown through the service worker's
// registration (read back with getNotifications()). Her choice is remembered across a reload.
import type { Bundle, Communication } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import type { BloomClient } from '../../src/client';
import { demoApiClient, demoPatientId } from './support/demo-sign-in';
import { useDemoSuite } from './support/demo-suite';
import { openMainNavItem, seriousAxeViolations, sidewaysOverflow } from './support/patient-session';
import { pollUntil } from './support/poll';

const suite = useDemoSuite({ serviceWorkers: true });
let chen: BloomClient;

beforeAll(async () => {
  chen = await demoApiClient(suite.bloom, 'dr.chen@bloom.example');
}, 60_000);

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  url: unknown;
}

/** The notifications the app's service worker registration shows now. */
function shownNotifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const list = registration ? await registration.getNotifications() : [];
    return list.map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      url: (n.data as { url?: unknown } | null)?.url,
    }));
  });
}

/** Emulates the page being hidden: document.visibilityState reads 'hidden' and visibilitychange fires. */
async function hidePage(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

async function sendFromChen(patient: string, text: string): Promise<void> {
  const found = await chen.search<Communication>('Communication', {
    subject: patient,
    'part-of:missing': 'true',
    _sort: '-_lastUpdated',
  });
  const header = (found as Bundle<Communication>).entry?.[0]?.resource;
  if (!header?.id) throw new Error(`${patient} has no thread`);
  await chen.createResource<Communication>({
    resourceType: 'Communication',
    status: 'completed',
    partOf: [{ reference: `Communication/${header.id}` }],
    subject: { reference: patient },
    sender: { reference: `Practitioner/${chen.getProfile()?.id}`, display: 'Dr. Lily Chen' },
    recipient: [{ reference: patient }],
    payload: [{ contentString: text }],
    sent: new Date().toISOString(),
  });
}

describe('system notifications', () => {
  it("opt-in on Messages; Dr. Chen's message notifies only while the page is hidden, through the service worker", async () => {
    const maria = `Patient/${await demoPatientId(suite.bloom, 'maria@bloom.example')}`;
    const { page, context } = await suite.signIn('maria', 1280);
    await context.grantPermissions(['notifications'], { origin: new URL(suite.url('/')).origin });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 60_000,
    });

    await openMainNavItem(page, 1280, 'Messages');
    const thread = page.getByRole('list', { name: 'Messages' });
    await thread.getByRole('listitem').first().waitFor();
    const optIn = page.getByRole('switch', { name: 'Notify me of new messages' });
    expect(await optIn.isChecked()).toBe(false);
    await optIn.check();
    expect(await optIn.isChecked()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Remembered: after a reload it is still on, and the notifier listens again.
    await page.reload();
    await thread.getByRole('listitem').first().waitFor();
    expect(await optIn.isChecked()).toBe(true);
    // The server registers the subscriptions a moment after their frames are sent.
    await page.waitForTimeout(2000);

    // While she looks at the thread: the message shows there, no notification.
    const seen = `Seen on the page (${Date.now()})`;
    await sendFromChen(maria, seen);
    await thread.getByText(seen, { exact: true }).waitFor({ timeout: 15_000 });
    expect(await shownNotifications(page)).toEqual([]);

    // The page hidden, as when another tab or app is in front. Headless Chromium keeps every page
    // 'visible' (checked: another tab brought to front and a minimized window both left it so), so the
    // page's visibility is emulated where the app reads it.
    await hidePage(page);
    expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');

    const hidden = `Are you free on Monday? (${Date.now()})`;
    await sendFromChen(maria, hidden);
    const shown = await pollUntil(
      page,
      () => shownNotifications(page),
      (list) => list.length > 0,
    );
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      title: 'New message from Dr. Lily Chen',
      body: hidden,
      url: '/messages',
    });
    expect(shown[0].tag).toMatch(/^message-/);
  }, 180_000);

  it('at 375 px the opt-in fits, is labelled and usable', async () => {
    const { page, context } = await suite.signIn('maria', 375);
    await context.grantPermissions(['notifications'], { origin: new URL(suite.url('/')).origin });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 60_000,
    });
    await openMainNavItem(page, 375, 'Messages');
    await page.getByRole('list', { name: 'Messages' }).getByRole('listitem').first().waitFor();
    const optIn = page.getByRole('switch', { name: 'Notify me of new messages', exact: true });
    expect(await optIn.isVisible()).toBe(true);
    // The label fits the screen (MUI's switch input itself is a wider invisible hit area).
    const box = await page.getByText('Notify me of new messages', { exact: true }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await optIn.check();
    expect(await optIn.isChecked()).toBe(true);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 180_000);
});
