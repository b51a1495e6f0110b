// Appointment requests from Get Care reaching the care team, in Chromium against the real API seeded
// with the demo clinic (SPEC §2 roles, §4 appointments, §6 access, §8 messages): Maria requests a visit
// through Get Care's screens, Dr. Chen sees it on her home and accepts it; over HTTP the Appointment is
// booked with her participation accepted and Maria's thread holds the confirmation, which Maria's open
// Messages screen shows. A second request declined with a reason: the Appointment is cancelled with that
// reason, her participation declined, the Slot free again ($find offers the time), and Maria is told why.
// axe (0 critical, 0 serious) and no sideways scroll on the home with a request waiting and with the
// decline form open, at 1280 and at 375 px (the phone's one Menu, the cards stacked).
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

/** Maria asks for the first free time through Get Care (as tests/e2e/get-care.test.ts does); the Appointment id. */
async function requestVisit(page: Page, width: number): Promise<string> {
  await openMainNavItem(page, width, 'Get Care');
  await page.getByRole('heading', { level: 1, name: 'Get Care' }).waitFor();
  const enabledDays = page.locator('button[role="gridcell"]:not([disabled])');
  await page.locator('button[role="gridcell"]').first().waitFor();
  if ((await enabledDays.count()) === 0) {
    await page.getByRole('button', { name: 'Next month' }).click();
    await enabledDays.first().waitFor();
  }
  await enabledDays.first().click();
  await page
    .getByRole('group', { name: /^Times on / })
    .getByRole('button')
    .first()
    .click();
  await page.getByRole('button', { name: 'Send Request' }).click();
  await page.getByRole('alert').filter({ hasText: 'Appointment request sent.' }).waitFor();
  await page.waitForURL(/\/messages$/);
  const { profile } = await storedLogin(page);
  const found = await api<Bundle<Communication>>(
    page,
    `Communication?subject=${profile}&category=appointment-request&_sort=-sent&_count=1`,
  );
  const about = found.body.entry?.[0]?.resource?.about?.[0]?.reference ?? '';
  expect(about).toMatch(/^Appointment\/[^/]+$/);
  return about.slice('Appointment/'.length);
}

/** Dr. Chen's message in the patient's thread about this Appointment (undefined: none). */
async function answerInThread(page: Page, patient: string, appointmentId: string) {
  const found = await api<Bundle<Communication>>(
    page,
    `Communication?subject=${patient}&part-of:missing=false&_sort=-sent&_count=50`,
  );
  return found.body.entry
    ?.map((entry) => entry.resource)
    .find(
      (c) =>
        c?.about?.some((a) => a.reference === `Appointment/${appointmentId}`) &&
        c.sender?.reference?.startsWith('Practitioner/'),
    );
}

function requestCard(page: Page, appointmentId: string) {
  return page
    .getByRole('list', { name: 'Appointment requests' })
    .locator(`li[aria-labelledby="request-${appointmentId}"]`);
}

describe.each([1280, 375])(
  'appointment requests from Get Care to the care team (Chromium, %i px)',
  (width) => {
    it('Dr. Chen accepts one request and declines another with a reason; Maria is told in her thread', async () => {
      const maria = await suite.signIn('maria', width);
      const { profile: patient } = await storedLogin(maria.page);
      const firstId = await requestVisit(maria.page, width);

      const chen = await suite.signIn('dr-chen', width);
      const { profile: practitioner } = await storedLogin(chen.page);
      const first = requestCard(chen.page, firstId);
      await first.waitFor();
      expect(await first.getByRole('heading', { level: 3 }).textContent()).toBe('Maria Garcia');
      expect(await seriousAxeViolations(chen.page)).toEqual([]);
      expect(await sidewaysOverflow(chen.page)).toBeLessThanOrEqual(0);

      // Before her answer her participation is tentative (Get Care's $book leaves it so).
      const before = await api<Appointment>(chen.page, `Appointment/${firstId}`);
      expect(before.body.participant?.find((p) => p.actor?.reference === practitioner)?.status).toBe(
        'tentative',
      );

      await first.getByRole('button', { name: 'Accept' }).click();
      await chen.page.getByRole('status').filter({ hasText: 'Appointment accepted.' }).waitFor();
      await first.waitFor({ state: 'detached' });

      const accepted = await api<Appointment>(chen.page, `Appointment/${firstId}`);
      expect(accepted.status).toBe(200);
      expect(accepted.body.status).toBe('booked');
      expect(accepted.body.participant?.find((p) => p.actor?.reference === practitioner)?.status).toBe(
        'accepted',
      );
      const confirmation = await answerInThread(chen.page, patient, firstId);
      expect(confirmation).toMatchObject({
        status: 'completed',
        sender: { reference: practitioner },
        recipient: [{ reference: patient }],
        partOf: [{ reference: expect.stringMatching(/^Communication\//) }],
      });
      expect(confirmation?.payload?.[0]?.contentString).toMatch(
        /^Your appointment on .+ is confirmed\. See you then\.$/,
      );
      // Maria's open Messages screen shows it (live, or at the latest once she opens the screen again).
      await maria.page.getByText(confirmation?.payload?.[0]?.contentString ?? '', { exact: true }).waitFor({
        timeout: 30_000,
      });

      // A second request, declined with a reason.
      const secondId = await requestVisit(maria.page, width);
      expect(secondId).not.toBe(firstId);
      await chen.page.goto(suite.url('/'));
      const second = requestCard(chen.page, secondId);
      await second.waitFor();
      await second.getByRole('button', { name: 'Decline' }).click();
      // No reason: refused on the card, nothing sent.
      await second.getByRole('button', { name: 'Decline request' }).click();
      await second.getByText('Say why you decline: the patient reads this.').waitFor();
      expect((await api<Appointment>(chen.page, `Appointment/${secondId}`)).body.status).toBe('booked');
      const reason = 'Dr. Chen is at a conference that day; please pick another time.';
      await second.getByRole('textbox', { name: /Reason for declining/ }).fill(reason);
      expect(await seriousAxeViolations(chen.page)).toEqual([]);
      expect(await sidewaysOverflow(chen.page)).toBeLessThanOrEqual(0);
      await second.getByRole('button', { name: 'Decline request' }).click();
      await chen.page.getByRole('status').filter({ hasText: 'Appointment declined.' }).waitFor();
      await second.waitFor({ state: 'detached' });

      const declined = await api<Appointment>(chen.page, `Appointment/${secondId}`);
      expect(declined.body).toMatchObject({ status: 'cancelled', cancelationReason: { text: reason } });
      expect(declined.body.participant?.find((p) => p.actor?.reference === practitioner)?.status).toBe(
        'declined',
      );
      const slotReference = declined.body.slot?.[0]?.reference ?? '';
      expect(slotReference).toMatch(/^Slot\//);
      const slot = await api<Slot>(chen.page, slotReference);
      expect(slot.body.status).toBe('free');
      // Free again as Maria's Get Care asks: $find offers the time once more.
      const freeAgain = await api<Bundle<Slot>>(
        maria.page,
        `${slot.body.schedule.reference}/$find?${new URLSearchParams({
          start: slot.body.start,
          end: new Date(Date.parse(slot.body.start) + 60 * 60 * 1000).toISOString(),
          _count: '100',
        })}`,
      );
      expect(freeAgain.status).toBe(200);
      expect((freeAgain.body.entry ?? []).map((e) => Date.parse(e.resource?.start ?? ''))).toContain(
        Date.parse(slot.body.start),
      );
      const refusal = await answerInThread(chen.page, patient, secondId);
      expect(refusal?.payload?.[0]?.contentString).toMatch(/^Your appointment request for .+ was declined: /);
      expect(refusal?.payload?.[0]?.contentString?.endsWith(reason)).toBe(true);
      // Maria reads it in her thread.
      await openMainNavItem(maria.page, width, 'Messages');
      await maria.page.getByText(refusal?.payload?.[0]?.contentString ?? '', { exact: true }).waitFor();
      // And the accepted first request stays booked after the second was declined.
      expect((await api<Appointment>(maria.page, `Appointment/${firstId}`)).body.status).toBe('booked');
    }, 240_000);
  },
);
