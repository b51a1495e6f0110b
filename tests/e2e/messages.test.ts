// Messages in Chromium against the real API seeded with the demo clinic and the built app
// (SPEC §2 messages, §3 Communication/Attachment, §7 CommunicationList, Binary, live updates): Maria on
// /messages opens at the newest message of her thread; a message Dr. Chen posts into her thread
// (partOf its header) through the platform client (Node, the same server) appears without a
// reload; she sends a text with a PNG (upload, then the Communication partOf her thread, then the
// header PATCHed as Medplum's ThreadChat does) by keyboard, the upload (XMLHttpRequest, slowed down)
// moving a progress bar; after a reload both are there and the image is rendered from its signed URL.
// At 1280 and 375 px, with axe and no sideways scrolling.
import type { Bundle, Communication } from '@medplum/fhirtypes';
import type { Locator, Page } from 'playwright-core';
import type { BloomClient } from '../../src/client';
import { demoApiClient } from './support/demo-sign-in';
import {
  openMainNavItem,
  seriousAxeViolations,
  sidewaysOverflow,
  storedLogin,
} from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';
import { pollUntil } from './support/poll';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const suite = useDemoSuite();
let chen: BloomClient;

beforeAll(async () => {
  chen = await demoApiClient(suite.bloom, 'dr.chen@bloom.example');
}, 60_000);

/** Maria's thread header (a Communication about her without partOf), as Dr. Chen reads it. */
async function threadOf(patient: string): Promise<Communication> {
  const found = await chen.search<Communication>('Communication', {
    subject: patient,
    'part-of:missing': 'true',
    _sort: '-_lastUpdated',
  });
  const header = (found as Bundle<Communication>).entry?.[0]?.resource;
  if (!header?.id) throw new Error(`${patient} has no thread`);
  return header;
}

/** Bytes of the photo Maria sends: large enough for a throttled upload to take about two seconds. */
const UPLOAD_BYTES = 1024 * 1024;

/** The page's POST Binary requests from now on, with how the page made them (xhr or fetch). */
function recordUploads(page: Page): { type: string; url: string }[] {
  const seen: { type: string; url: string }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/Binary(\?|$)/.test(request.url())) {
      seen.push({ type: request.resourceType(), url: request.url() });
    }
  });
  return seen;
}

/** Records each value an upload progress bar of the composer shows, from now on. */
async function watchProgressBars(page: Page): Promise<void> {
  await page.evaluate(() => {
    const values: number[] = [];
    (window as unknown as { uploadProgressShown: number[] }).uploadProgressShown = values;
    const record = () => {
      for (const bar of document.querySelectorAll('[role="progressbar"][aria-label^="Uploading"]')) {
        const value = Number(bar.getAttribute('aria-valuenow'));
        if (bar.hasAttribute('aria-valuenow') && values[values.length - 1] !== value) values.push(value);
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

function progressShown(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { uploadProgressShown: number[] }).uploadProgressShown);
}

/** Resolves once the page has sent a graphql-ws subscribe on /ws/graphql. */
function subscriptionSent(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (!socket.url().endsWith('/ws/graphql')) return;
      socket.on('framesent', (frame) => {
        if (String(frame.payload).includes('"subscribe"')) resolve();
      });
    });
  });
}

async function openMessages(page: Page, width: number): Promise<void> {
  await openMainNavItem(page, width, 'Messages');
  await page.waitForURL(/\/messages$/);
  await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
}

function naturalWidth(image: Locator): Promise<number> {
  return image.evaluate(async (element) => {
    const img = element as HTMLImageElement;
    if (!img.complete) await img.decode().catch(() => undefined);
    return img.naturalWidth;
  });
}

/** Pixels between the bottom of the conversation's view and the end of its content. */
function distanceFromNewest(region: Locator): Promise<number> {
  return region.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
}

describe.each([1280, 375])('issue #8 messages at %i px', (width) => {
  it('a message Dr. Chen posts appears live; Maria sends text and a PNG; after a reload both show, the image rendered', async () => {
    const { page } = await suite.signIn('maria', width);
    const { profile: maria } = await storedLogin(page);
    const subscribed = subscriptionSent(page);
    await openMessages(page, width);
    expect(await page.title()).toBe('Messages · Bloom');

    const thread = page.getByRole('list', { name: 'Messages' });
    const region = page.getByRole('region', { name: 'Conversation with your care team' });
    await thread.getByRole('listitem').first().waitFor();
    // The seeded thread opens at its newest message.
    expect(await distanceFromNewest(region)).toBeLessThanOrEqual(80);
    expect(await thread.getByText('Dr. Lily Chen').count()).toBeGreaterThan(0);

    // Dr. Chen writes through the platform client once the page listens (the server registers the
    // subscription a moment after the frame is sent).
    await subscribed;
    await page.waitForTimeout(1500);
    const fromChen = `How did you sleep this week? (${width} px, ${Date.now()})`;
    const header = await threadOf(maria);
    const threadRef = `Communication/${header.id}`;
    await chen.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      partOf: [{ reference: threadRef }],
      subject: { reference: maria },
      sender: { reference: `Practitioner/${chen.getProfile()?.id}`, display: 'Dr. Lily Chen' },
      recipient: [{ reference: maria }],
      payload: [{ contentString: fromChen }],
      sent: new Date().toISOString(),
    });
    await thread.getByText(fromChen).waitFor({ timeout: 10_000 });
    await page
      .getByRole('status')
      .filter({ hasText: `New message from Dr. Lily Chen: ${fromChen}` })
      .waitFor();

    // Maria answers with a photo, sending with the keyboard. The upload is slowed down (Chromium's
    // network throttling), so the progress bar has time to move.
    const fromMaria = `Better, thank you. Here is the photo (${width} px).`;
    const fileName = `bump-${width}.png`;
    const uploads = recordUploads(page);
    const photo = Buffer.concat([PNG, Buffer.alloc(UPLOAD_BYTES - PNG.length)]);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: UPLOAD_BYTES / 2,
    });
    await watchProgressBars(page);
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: fileName, mimeType: 'image/png', buffer: photo });
    await page.getByText(`Attached: ${fileName}`).waitFor();
    const field = page.getByRole('textbox', { name: 'Message to your care team' });
    await field.fill(fromMaria);
    await field.press('Enter');
    const image = thread.getByRole('img', { name: fileName });
    await image.waitFor({ timeout: 15_000 });
    await thread.getByText(fromMaria).waitFor();
    // The live update can show the message before the header's PATCH ends and the draft is cleared.
    expect(
      await pollUntil(
        page,
        () => field.inputValue(),
        (value) => value === '',
      ),
    ).toBe('');
    expect(await naturalWidth(image)).toBeGreaterThan(0);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    // createAttachment in the browser: the upload went through XMLHttpRequest, and the bar showed
    // its progress between the start and the end.
    expect(uploads).toEqual([{ type: 'xhr', url: expect.stringMatching(/\/Binary\?_filename=/) }]);
    const shown = await progressShown(page);
    expect(shown.some((value) => value > 0 && value < 100)).toBe(true);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(await distanceFromNewest(region)).toBeLessThanOrEqual(80);

    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // The Communication as the server holds it: the newest message of her thread, as Medplum's
    // ThreadChat lists them; the header's `sent` is the message's (the PATCH after sending).
    const found = await chen.search<Communication>('Communication', {
      'part-of': threadRef,
      _sort: '-sent',
      _count: '1',
    });
    const sent = (found as Bundle<Communication>).entry?.[0]?.resource;
    expect((await threadOf(maria)).sent).toBe(sent?.sent);
    expect(sent).toMatchObject({
      partOf: [{ reference: threadRef }],
      status: 'completed',
      subject: { reference: maria },
      sender: { reference: maria },
      recipient: [{ reference: expect.stringMatching(/^Practitioner\//) }],
      category: [{ coding: [{ code: 'message' }] }],
      payload: [
        { contentString: fromMaria },
        {
          contentAttachment: {
            contentType: 'image/png',
            title: fileName,
            // Stored as Binary/{id}, answered to Dr. Chen as a signed URL (tests/server/binary).
            url: expect.stringMatching(/\/storage\/[A-Za-z0-9\-.]+\?Expires=\d+&Signature=/),
          },
        },
      ],
    });

    // After a reload both messages are there and the image loads from its signed URL.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await thread.getByText(fromChen).waitFor();
    await thread.getByText(fromMaria).waitFor();
    const reloaded = thread.getByRole('img', { name: fileName });
    await reloaded.waitFor();
    expect(await naturalWidth(reloaded)).toBeGreaterThan(0);
    expect(await distanceFromNewest(region)).toBeLessThanOrEqual(80);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  }, 120_000);
});

describe('issue #8 messages form rules', () => {
  it('an empty message is refused in the form; nothing is created', async () => {
    const { page } = await suite.signIn('maria', 1280);
    const { profile: maria } = await storedLogin(page);
    await openMessages(page, 1280);
    await page.getByRole('list', { name: 'Messages' }).getByRole('listitem').first().waitFor();
    const before = await chen.search<Communication>('Communication', { subject: maria, _summary: 'count' });
    await page.getByRole('textbox', { name: 'Message to your care team' }).fill('   ');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Write a message or attach a file.').waitFor();
    const after = await chen.search<Communication>('Communication', { subject: maria, _summary: 'count' });
    expect(after.total).toBe(before.total);
  }, 60_000);
});
