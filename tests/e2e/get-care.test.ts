// Get Care in Chromium against the real API seeded with the demo clinic and the built app,
// signed in as Maria (SPEC §2 Appointment request screen, §4 appointments, §7 free times, §8 messages):
// the month calendar (SUN to SAT, days enabled only where a free time starts, asked of
// Schedule/{id}/$find), a time, 'Selected Slot', Send Request books it (Appointment/$book) and sends
// the request message; the message refused by the server → 'Failed to send request.', then Send
// Request → 'Appointment request sent.' and /messages, where the request shows in the thread; the
// request is a Communication the API holds, about the booked Appointment, whose busy Slot $find no
// longer offers. At 1280 and 375 px; axe on the screen.
import type { Appointment, Bundle, Communication, Slot } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import {
  openMainNavItem,
  seriousAxeViolations,
  sidewaysOverflow,
  storedLogin,
} from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();

async function api<T>(page: Page, path: string): Promise<{ status: number; body: T }> {
  const { accessToken } = await storedLogin(page);
  const response = await fetch(new URL(`fhir/R4/${path}`, suite.bloom.apiBaseUrl), {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function openGetCare(page: Page, width: number): Promise<void> {
  await openMainNavItem(page, width, 'Get Care');
  await page.waitForURL(/\/get-care$/);
  await page.getByRole('heading', { level: 1, name: 'Get Care' }).waitFor();
}

describe.each([1280, 375])('issue #7 Get Care at %i px', (width) => {
  it('SPEC §2/§8: pick the first enabled day and a time, Send Request, land on /messages; the Communication exists', async () => {
    const { page } = await suite.signIn('maria', width);
    // The free times come from the Schedule's availability: $find, not a Slot search.
    const finds: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/$find?')) finds.push(request.url());
    });
    await openGetCare(page, width);
    expect(await page.title()).toBe('Get Care · Bloom');

    const grid = page.getByRole('grid');
    await grid.waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'SUN',
      'MON',
      'TUE',
      'WED',
      'THU',
      'FRI',
      'SAT',
    ]);
    // SPEC §4: Maria's demo record has upcoming and past appointments.
    await page.getByRole('list', { name: 'Upcoming appointments' }).getByRole('listitem').first().waitFor();
    await page.getByRole('list', { name: 'Past appointments' }).getByRole('listitem').first().waitFor();

    const upcomingItems = page.getByRole('list', { name: 'Upcoming appointments' }).getByRole('listitem');
    const upcomingBefore = await upcomingItems.count();

    // SPEC §5/§8: no slot chosen yet.
    await page.getByRole('button', { name: 'Send Request' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please select a slot first.' }).waitFor();

    // The demo seeds free weekday slots from tomorrow on: this month or the next has an enabled day.
    const enabledDays = page.locator('button[role="gridcell"]:not([disabled])');
    await page.locator('button[role="gridcell"]').first().waitFor();
    if ((await enabledDays.count()) === 0) {
      await page.getByRole('button', { name: 'Next month' }).click();
      await enabledDays.first().waitFor();
    }
    expect(finds.length).toBeGreaterThan(0);
    expect(finds[0]).toMatch(/\/fhir\/R4\/Schedule\/[^/]+\/\$find\?start=.*&_count=720$/);
    const dayName = (await enabledDays.first().getAttribute('aria-label')) ?? '';
    expect(dayName).toMatch(/, \d+ free times?$/);
    // Keyboard: focus the day, move with the arrow keys (focus lands on enabled days only), pick with Enter.
    await enabledDays.first().focus();
    await page.keyboard.press('ArrowRight');
    const focusedName = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    expect(focusedName).toMatch(/, \d+ free times?$/);
    if ((await enabledDays.count()) > 1) expect(focusedName).not.toBe(dayName);
    await page.keyboard.press('Enter');
    const times = page.getByRole('group', { name: /^Times on / });
    await times.waitFor();
    const firstTime = times.getByRole('button').first();
    const timeText = (await firstTime.textContent()) ?? '';
    await firstTime.click();
    expect(await firstTime.getAttribute('aria-pressed')).toBe('true');
    const selected = page
      .getByRole('heading', { name: 'Selected Slot' })
      .locator('xpath=following-sibling::*[1]');
    await expect(selected.textContent()).resolves.toContain(timeText);

    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // SPEC §8: the server refusing the request message says so and keeps the choice for another try
    // (the time is booked by then: the next try sends the message only).
    const communications = /\/fhir\/R4\/Communication$/;
    await page.route(communications, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 500,
            contentType: 'application/fhir+json',
            body: JSON.stringify({
              resourceType: 'OperationOutcome',
              issue: [{ severity: 'error', code: 'exception', details: { text: 'Internal server error' } }],
            }),
          })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Send Request' }).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to send request.' }).waitFor();
    expect(page.url()).toMatch(/\/get-care$/);
    expect(await firstTime.getAttribute('aria-pressed')).toBe('true');
    await page.unroute(communications);

    const requestedAt = Date.now();
    await page.getByRole('button', { name: 'Send Request' }).click();
    await page.getByRole('alert').filter({ hasText: 'Appointment request sent.' }).waitFor();
    // The app lands on the messages screen, where the request sits in the thread.
    await page.waitForURL(/\/messages$/);
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    const thread = page.getByRole('list', { name: 'Messages' });
    const shownRequest = thread.getByRole('listitem').filter({ hasText: 'Appointment request for ' }).last();
    await shownRequest.waitFor();
    expect(await shownRequest.textContent()).toContain(timeText);

    // Through the API as Maria: her newest appointment request is in her thread, whose header's
    // `sent` follows it, and it is about the booked visit.
    const { profile } = await storedLogin(page);
    const found = await api<Bundle<Communication>>(
      page,
      `Communication?subject=${profile}&category=appointment-request&_sort=-sent&_count=1`,
    );
    expect(found.status).toBe(200);
    const request = found.body.entry?.[0]?.resource;
    const threadReference = request?.partOf?.[0]?.reference ?? '';
    expect(threadReference).toMatch(/^Communication\//);
    const header = await api<Communication>(page, threadReference);
    expect(header.body).toMatchObject({ subject: { reference: profile }, sent: request?.sent });
    expect(header.body.partOf).toBeUndefined();
    expect(request).toMatchObject({
      status: 'completed',
      subject: { reference: profile },
      sender: { reference: profile },
      category: [{ coding: [{ code: 'appointment-request' }] }],
      recipient: [{ reference: expect.stringMatching(/^Practitioner\//) }],
    });
    expect(Date.parse(request?.sent ?? '')).toBeGreaterThanOrEqual(requestedAt - 60_000);
    const appointmentReference = request?.about?.[0]?.reference ?? '';
    expect(appointmentReference).toMatch(/^Appointment\//);
    const appointment = await api<Appointment>(page, appointmentReference);
    expect(appointment.body).toMatchObject({ status: 'booked' });
    expect(appointment.body.participant?.map((p) => p.actor?.reference)).toContain(profile);
    const slot = await api<Slot>(page, appointment.body.slot?.[0]?.reference ?? '');
    expect(slot.body.status).toBe('busy');
    // Booked once only, though Send Request was pressed twice.
    const sameTime = await api<Bundle<Appointment>>(
      page,
      `Appointment?date=${encodeURIComponent(slot.body.start)}`,
    );
    expect(sameTime.body.entry?.filter((e) => e.resource?.status === 'booked')).toHaveLength(1);
    // And no longer free: $find, as the screen asks it, leaves the time out.
    const freeAfter = await api<Bundle<Slot>>(
      page,
      `${slot.body.schedule.reference}/$find?${new URLSearchParams({
        start: slot.body.start,
        end: new Date(Date.parse(slot.body.start) + 24 * 60 * 60 * 1000).toISOString(),
        _count: '100',
      })}`,
    );
    expect(freeAfter.status).toBe(200);
    expect((freeAfter.body.entry ?? []).map((e) => Date.parse(e.resource?.start ?? ''))).not.toContain(
      Date.parse(slot.body.start),
    );
    // The Slot's start, in the browser's zone, is the time that was clicked and the one the text names.
    const slotTime = await page.evaluate(
      (start) => new Date(start).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }),
      slot.body.start,
    );
    expect(slotTime).toBe(timeText);
    expect(request?.payload?.[0]?.contentString).toContain(slotTime);
    expect(await shownRequest.textContent()).toContain(request?.payload?.[0]?.contentString);

    // SPEC §4: back on Get Care, the booked visit is among her upcoming appointments.
    await openGetCare(page, width);
    await upcomingItems.nth(upcomingBefore).waitFor();
    expect(await upcomingItems.count()).toBe(upcomingBefore + 1);
  }, 90_000);
});

describe("SPEC §6: what the Get Care screen reads stays Maria's", () => {
  it("Maria's unfiltered Appointment and Communication searches hold only her own; Schedule and Slots are readable", async () => {
    const { page } = await suite.signIn('maria', 1280);
    const { profile } = await storedLogin(page);
    const appointments = await api<Bundle>(page, 'Appointment?_count=100');
    expect(appointments.status).toBe(200);
    const owners = (appointments.body.entry ?? []).map((entry) =>
      JSON.stringify(entry.resource).includes(`"${profile}"`),
    );
    expect(owners.length).toBeGreaterThan(0);
    expect(owners.every(Boolean)).toBe(true);
    const communications = await api<Bundle<Communication>>(page, 'Communication?_count=100');
    expect(communications.body.entry?.length).toBeGreaterThan(0);
    expect(communications.body.entry?.every((entry) => entry.resource?.subject?.reference === profile)).toBe(
      true,
    );
    const schedules = await api<Bundle>(page, 'Schedule?_count=1');
    expect(schedules.body.entry?.length).toBe(1);
    const slots = await api<Bundle>(page, 'Slot?status=free&_count=1');
    expect(slots.body.entry?.length).toBe(1);
  }, 60_000);
});
