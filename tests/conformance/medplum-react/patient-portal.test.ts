// A patient portal built only from Medplum's components (@medplum/react 5.2.13, unchanged) and
// MedplumClient calls, against Bloom's real server: Maria, in one browser session, signs in with
// SignInForm, sees her lab results (SearchControl), opens one (DiagnosticReportDisplay and its
// Observation table), writes in her thread (ThreadChat), saves her profile (ResourceForm), books a
// visit (Scheduler fed by Schedule/{id}/$find, Appointment/$book) and signs out, after which her old
// access token is refused. Each step is checked over HTTP (SPEC §2 patient screens, §9 slots).
import type {
  Appointment,
  Bundle,
  Communication,
  DiagnosticReport,
  Observation,
  Patient,
  Schedule,
  Slot,
} from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { demoApiClient, demoPatientId } from '../../e2e/support/demo-sign-in';
import { databases } from '../../server/support/test-databases';
import { useMedplumReactSuite } from './support/suite';

const MARIA = 'maria@bloom.example';

async function open(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Portal' }).getByRole('button', { name: link }).click();
}

/** The cells' texts of the Observation table's rows (Test, Value, Reference Range, Interpretation). */
async function observationRows(page: Page): Promise<string[][]> {
  return page
    .locator('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Reference Range' }) })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent?.trim() ?? '')),
    );
}

describe.each(databases())("A patient portal of Medplum's components against Bloom on %s", (engine, kind) => {
  const suite = useMedplumReactSuite({ database: kind });

  test('Maria signs in, reads a lab result, writes to her thread, saves her profile, books a visit and signs out', async () => {
    const started = Date.now();
    const bloom = suite.demo.bloom;
    const api = await demoApiClient(bloom, MARIA);
    const mariaId = await demoPatientId(bloom, MARIA);
    const mariaRef = `Patient/${mariaId}`;

    // 1. Sign in through SignInForm.
    const { page, responses } = await suite.signIn(MARIA, '/portal');

    // 2. Health record: her lab reports, newest first, as Bloom has them.
    const reports = await api.searchResources<DiagnosticReport>(
      'DiagnosticReport',
      `subject=${mariaRef}&_sort=-issued`,
      { cache: 'no-cache' },
    );
    expect(reports.length).toBeGreaterThan(1);
    const list = page.getByRole('region', { name: 'Lab results' });
    for (const report of reports) {
      await list
        .getByText(report.code.text ?? report.code.coding?.[0]?.display ?? '?')
        .first()
        .waitFor();
    }
    expect(await list.locator('tbody tr').count()).toBe(reports.length);

    // 3. A lab result's detail: DiagnosticReportDisplay's table has each result's row.
    const report = reports.find((r) => (r.result?.length ?? 0) > 2) ?? reports[0];
    const title = report.code.text ?? report.code.coding?.[0]?.display ?? '?';
    await list.locator('tbody tr').filter({ hasText: title }).first().click();
    await page.getByRole('heading', { name: 'Diagnostic Report' }).waitFor();
    const results = await Promise.all(
      (report.result ?? []).map((ref) =>
        api.readReference<Observation>(ref as { reference: string }, { cache: 'no-cache' }),
      ),
    );
    expect(results.length).toBeGreaterThan(2);
    // Each row reads its own Observation, so they fill in independently: wait for every one.
    for (const observation of results) {
      await page
        .getByRole('cell', {
          name: observation.code.text ?? observation.code.coding?.[0]?.display ?? '?',
          exact: true,
        })
        .first()
        .waitFor();
    }
    const rows = (await observationRows(page)).filter((cells) => cells.length >= 4);
    for (const observation of results) {
      const name = observation.code.text ?? observation.code.coding?.[0]?.display ?? '?';
      const row = rows.find((cells) => cells[0] === name);
      expect(row).toBeDefined();
      const [, value, range, flag] = row as string[];
      if (observation.valueQuantity) {
        expect(value).toContain(String(observation.valueQuantity.value));
        expect(value).toContain(observation.valueQuantity.unit ?? '?');
      } else {
        expect(value).toContain(observation.valueString ?? observation.valueCodeableConcept?.text ?? '?');
      }
      const demoRange = observation.referenceRange?.[0];
      if (demoRange?.text) expect(range).toBe(demoRange.text);
      else if (demoRange?.low?.value !== undefined) expect(range).toContain(String(demoRange.low.value));
      const interpretation = observation.interpretation?.[0];
      expect(interpretation?.coding?.length).toBeGreaterThan(0);
      expect(flag).toContain(interpretation?.text ?? interpretation?.coding?.[0]?.display ?? '');
    }

    // 4. Messages: ThreadChat on her thread; a message she sends is stored partOf it.
    const [header] = await api.searchResources<Communication>(
      'Communication',
      'part-of:missing=true&_sort=-_lastUpdated',
      {
        cache: 'no-cache',
      },
    );
    await open(page, 'Messages');
    await page.getByRole('heading', { name: header.topic?.text ?? 'no topic' }).waitFor();
    const message = `Portal question ${Date.now()}: can I bring my partner?`;
    await page.getByPlaceholder('Type a message...').fill(message);
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText(message, { exact: true }).waitFor();
    const sent = await api.searchResources<Communication>(
      'Communication',
      `part-of=Communication/${header.id}&_sort=-sent&_count=1`,
      { cache: 'no-cache' },
    );
    expect(
      sent.map((m) => [m.payload?.[0]?.contentString, m.sender?.reference, m.partOf?.[0]?.reference]),
    ).toEqual([[message, mariaRef, `Communication/${header.id}`]]);

    // 5. Profile: ResourceForm on her own Patient, as Maria; the new address line is stored.
    const before = await api.readResource<Patient>('Patient', mariaId, { cache: 'no-cache' });
    await open(page, 'Profile');
    await page.getByRole('button', { name: 'Update' }).waitFor();
    const line = page.getByPlaceholder('Line 1').first();
    await expect(line.inputValue()).resolves.toBe(before.address?.[0]?.line?.[0]);
    await line.fill('22 Elm Court');
    await page.getByRole('button', { name: 'Update' }).click();
    await page
      .getByRole('status', { name: 'Profile' })
      .getByText(/^Saved version/)
      .waitFor();
    const after = await api.readResource<Patient>('Patient', mariaId, { cache: 'no-cache' });
    expect(after.address?.[0]?.line?.[0]).toBe('22 Elm Court');
    expect(after.meta?.versionId).not.toBe(before.meta?.versionId);
    const { meta: _a, address: afterAddress, ...restAfter } = after;
    const { meta: _b, address: beforeAddress, ...restBefore } = before;
    expect(restAfter).toEqual(restBefore);
    expect(afterAddress?.[0]?.line?.slice(1)).toEqual(beforeAddress?.[0]?.line?.slice(1));

    // 6. Booking: the Scheduler shows $find's free days and times; choosing one books it with $book.
    const schedule = await api.searchOne<Schedule>('Schedule', '', { cache: 'no-cache' });
    if (!schedule?.id) throw new Error('The demo clinic has no Schedule');
    await open(page, 'Book a visit');
    const scheduler = page.getByTestId('scheduler');
    await scheduler.getByRole('heading', { name: 'Select date' }).waitFor();
    const freeDay = scheduler.locator('tbody button:enabled').first();
    if (!(await freeDay.isVisible())) await scheduler.getByRole('button', { name: 'Next month' }).click();
    await freeDay.click();
    await scheduler.getByRole('heading', { name: 'Select time' }).waitFor();
    await scheduler.locator('button').first().click();
    const booked = page.getByRole('status', { name: 'Booking' });
    await booked.getByText(/^Booked Appointment\//).waitFor();
    const [, appointmentId, start] = /^Booked Appointment\/(\S+) at (\S+)$/.exec(
      (await booked.textContent()) ?? '',
    ) ?? ['', '', ''];
    const appointment = await api.readResource<Appointment>('Appointment', appointmentId, {
      cache: 'no-cache',
    });
    expect(appointment).toMatchObject({ status: 'booked', start });
    expect(appointment.participant.map((p) => p.actor?.reference)).toContain(mariaRef);
    const day = new Date(start);
    day.setUTCHours(0, 0, 0, 0);
    const findUrl = `${api.fhirUrl('Schedule', schedule.id, '$find').toString()}?${new URLSearchParams({
      start: day.toISOString(),
      end: new Date(day.getTime() + 24 * 60 * 60 * 1000).toISOString(),
    })}`;
    const free = await api.get<Bundle<Slot>>(findUrl, { cache: 'no-cache' });
    const freeStarts = (free.entry ?? []).map((entry) => Date.parse(entry.resource?.start ?? ''));
    expect(freeStarts).not.toContain(Date.parse(start));

    // 7. Sign out: the page is back at SignInForm, and the old access token is refused
    // (MedplumClient.signOut posts to its logoutUrl, oauth2/logout, then clears its storage).
    const token = await page.evaluate(() => {
      const login = JSON.parse(localStorage.getItem('activeLogin') ?? '{}') as { accessToken?: string };
      return login.accessToken ?? '';
    });
    expect(token).not.toBe('');
    const me = (bearer: string) =>
      fetch(`${bloom.apiBaseUrl}auth/me`, { headers: { authorization: `Bearer ${bearer}` } });
    expect((await me(token)).status).toBe(200);
    await open(page, 'Sign out');
    await page.getByRole('textbox', { name: /^Email/ }).waitFor();
    expect(responses.some((r) => r.method === 'POST' && r.url === `${bloom.apiBaseUrl}oauth2/logout`)).toBe(
      true,
    );
    expect((await me(token)).status).toBe(401);
    console.log(`patient-portal on ${engine}: ${Date.now() - started} ms`);
  });
});
