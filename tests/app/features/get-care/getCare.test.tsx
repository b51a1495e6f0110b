// Get Care (SPEC §2 Appointment request screen, §4 appointments upcoming/past, §7 free times,
// §8 messages): the month calendar, times, 'Selected Slot' and Send Request against Apollo's
// MockedProvider answering GetCare and the fake API answering Schedule/{id}/$find, taking the booking
// (Appointment/$book) and the Communication; loading, empty, data and error states; the pure
// slot-window, day-grouping, appointment-split and request-building rules.
import type { Bundle, Communication, Parameters, Slot } from '@medplum/fhirtypes';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { GetCareDocument } from '../../../../src/graphql';
import { NotificationsProvider } from '../../../../src/app/components/Notifications';
import { GetCarePage, MESSAGES } from '../../../../src/app/features/get-care/GetCarePage';
import { appointmentRequest } from '../../../../src/app/features/get-care/appointmentRequest';
import { splitAppointments } from '../../../../src/app/features/get-care/appointmentSplit';
import {
  firstOfMonth,
  localDayKey,
  slotsByLocalDay,
  slotWindow,
} from '../../../../src/app/features/get-care/slotWindow';
import { outcome, type FakeApi } from '../../support/fakeApi';
import { renderScreen, type ScreenMock } from '../../support/renderScreen';

// Tuesday 10 November 2026, noon, in the machine's own zone: every date below is local.
const NOW = new Date(2026, 10, 10, 12, 0);
const local = (month: number, day: number, hour: number) => new Date(2026, month, day, hour).toISOString();

const SERVICE = 'HealthcareService/prenatal-care';

/** The free times $find proposes: Slots without an id, one hour each (SPEC §9). */
function freeTimes(starts: string[]): Bundle<Slot> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: starts.map((start) => ({
      resource: {
        resourceType: 'Slot',
        schedule: { reference: 'Schedule/sched-1' },
        status: 'free',
        start,
        end: new Date(Date.parse(start) + 60 * 60 * 1000).toISOString(),
      },
    })),
  };
}

/** The route of the month's $find: its 31-day window, the Schedule's service, _count 720 (SPEC §9). */
function findRoute(month: Date): string {
  const { start, end } = slotWindow(month);
  const query = new URLSearchParams({ start, end, 'service-type-reference': SERVICE, _count: '720' });
  return `GET fhir/R4/Schedule/sched-1/$find?${query}`;
}

const chen = { __typename: 'Reference', reference: 'Practitioner/chen', display: 'Dr. Lily Chen' };
const room = { __typename: 'Reference', reference: 'Location/room-1', display: 'Room 1' };

function appointment(id: string, start: string, status: string, description: string) {
  return {
    __typename: 'Appointment',
    resourceType: 'Appointment',
    id,
    status,
    start,
    end: null,
    description,
    serviceType: null,
    participant: [
      {
        __typename: 'AppointmentParticipant',
        actor: { __typename: 'Reference', reference: 'Patient/maria-1', display: 'Maria Garcia' },
      },
      { __typename: 'AppointmentParticipant', actor: chen },
    ],
  };
}

const APPOINTMENTS = [
  appointment('a-past', local(9, 20, 10), 'fulfilled', 'Prenatal visit (28 weeks)'),
  appointment('a-next', local(10, 26, 14), 'booked', 'Prenatal visit (36 weeks)'),
];

function getCareMock(
  hasSchedule = true,
  appointments: unknown[] = APPOINTMENTS,
  horizonStart: string | null = null,
): ScreenMock {
  return {
    request: { query: GetCareDocument, variables: { patient: 'Patient/maria-1' } },
    result: {
      data: {
        ScheduleList: hasSchedule
          ? [
              {
                __typename: 'Schedule',
                resourceType: 'Schedule',
                id: 'sched-1',
                planningHorizon: horizonStart ? { __typename: 'Period', start: horizonStart } : null,
                actor: [chen, room],
                serviceType: [
                  {
                    __typename: 'CodeableConcept',
                    extension: [
                      {
                        __typename: 'Extension',
                        url: 'https://medplum.com/fhir/service-type-reference',
                        valueReference: { __typename: 'Reference', reference: SERVICE },
                      },
                    ],
                  },
                ],
              },
            ]
          : [],
        AppointmentList: appointments,
      },
    },
  };
}

const NOVEMBER_SLOTS = [
  local(10, 10, 9), // earlier today: cannot be requested any more
  local(10, 12, 9),
  local(10, 12, 10),
  local(10, 20, 14),
  local(11, 1, 9), // in the 31-day window, but a December day
];
const DECEMBER = new Date(2026, 11, 1);

/** The screen with GetCare answered by `mocks` and each month's $find by `free` (November's by default). */
function renderGetCare(
  mocks: ScreenMock[],
  free: (api: FakeApi) => void = (api) => answerFind(api, NOW, NOVEMBER_SLOTS),
) {
  const rendered = renderScreen(
    <NotificationsProvider>
      <GetCarePage now={NOW} />
    </NotificationsProvider>,
    mocks,
    { path: '/get-care', pattern: '/get-care/*' },
  );
  free(rendered.api);
  answerThread(rendered.api);
  return rendered;
}

/** Maria's thread header: the request joins it and PATCHes its `sent` (components/patientThread.ts). */
const THREAD = { resourceType: 'Communication', id: 'thread-1', status: 'in-progress' } as const;
const THREAD_SEARCH =
  'GET fhir/R4/Communication?subject=Patient%2Fmaria-1&part-of%3Amissing=true&_sort=-_lastUpdated&_count=1';

function answerThread(api: FakeApi): void {
  api.always(THREAD_SEARCH, 200, {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [{ resource: THREAD }],
  });
  api.always('PATCH fhir/R4/Communication/thread-1', 200, THREAD);
}

function answerFind(api: FakeApi, month: Date, starts: string[]): void {
  api.always(findRoute(month), 200, freeTimes(starts));
}

const findCalls = (api: FakeApi, month: Date) =>
  api.sent.filter((r) => `${r.method} ${r.path}` === findRoute(month)).length;

function dayButton(name: RegExp): HTMLElement {
  return screen.getByRole('gridcell', { name });
}

describe('SPEC §7 slot window and local days', () => {
  it('the $find window starts at local midnight of the 1st and runs 31 days, as instants without milliseconds', () => {
    const { start, end } = slotWindow(new Date(2026, 1, 17, 15));
    expect(start).toBe(new Date(2026, 1, 1).toISOString().replace('.000Z', 'Z'));
    expect(Date.parse(end) - Date.parse(start)).toBe(31 * 24 * 60 * 60 * 1000);
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(firstOfMonth(new Date(2026, 11, 31, 23, 59))).toEqual(new Date(2026, 11, 1));
  });

  it('groups slots by the local day they start on, in start order, leaving out past and unreadable ones', () => {
    const days = slotsByLocalDay(
      [
        { id: 'late', start: local(10, 12, 23) },
        { id: 'early', start: local(10, 12, 8) },
        { id: 'past', start: local(10, 10, 11) },
        { id: 'bad', start: 'not a date' },
        { id: 'next', start: local(10, 13, 0) },
      ],
      NOW,
    );
    expect([...days.keys()]).toEqual(['2026-11-12', '2026-11-13']);
    expect(days.get('2026-11-12')?.map((s) => s.id)).toEqual(['early', 'late']);
    expect(localDayKey(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('SPEC §4 appointments upcoming and past', () => {
  it('upcoming when starting now or later (soonest first); past otherwise, latest first, undated last', () => {
    const { upcoming, past } = splitAppointments(
      [
        { id: 'old', start: local(0, 5, 9) },
        { id: 'undated', start: null },
        { id: 'later', start: local(11, 3, 9) },
        { id: 'now', start: NOW.toISOString() },
        { id: 'recent', start: local(10, 9, 9) },
      ],
      NOW,
    );
    expect(upcoming.map((a) => a.id)).toEqual(['now', 'later']);
    expect(past.map((a) => a.id)).toEqual(['recent', 'old', 'undated']);
  });
});

describe('SPEC §7 appointment request Communication', () => {
  it('is a completed Communication from and about the patient, to the practitioner, pointing at the booked Appointment', () => {
    const request = appointmentRequest(
      { reference: 'Patient/maria-1', display: 'Maria Garcia' },
      [chen, room, null],
      { reference: 'Appointment/appt-1', start: local(10, 12, 9) },
      { reference: 'Communication/thread-1' },
      NOW,
    );
    expect(request).toMatchObject({
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: 'Patient/maria-1' },
      sender: { reference: 'Patient/maria-1', display: 'Maria Garcia' },
      // A Location cannot receive a Communication: only the practitioner is addressed.
      recipient: [{ reference: 'Practitioner/chen', display: 'Dr. Lily Chen' }],
      partOf: [{ reference: 'Communication/thread-1' }],
      about: [{ reference: 'Appointment/appt-1' }],
      category: [{ coding: [{ code: 'appointment-request' }] }],
      sent: NOW.toISOString(),
    });
    expect(request.payload?.[0]?.contentString).toMatch(/^Appointment request for .*2026.*9:00/);
  });

  it('has no recipient when the schedule names nobody who can receive one', () => {
    const request = appointmentRequest(
      { reference: 'Patient/maria-1' },
      [room],
      { reference: 'Appointment/appt-2', start: NOW.toISOString() },
      { reference: 'Communication/thread-1' },
      NOW,
    );
    expect(request.recipient).toBeUndefined();
  });
});

describe('SPEC §2 Get Care screen', () => {
  it('loading: a spinner until the GetCare answer arrives', async () => {
    renderGetCare([getCareMock()]);
    expect(await screen.findByRole('progressbar', { name: 'Loading appointments' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Request an appointment' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading appointments' })).not.toBeInTheDocument();
  });

  it('data: SUN to SAT, days enabled only where a free time starts ($find), upcoming and past appointments', async () => {
    const { api } = renderGetCare([getCareMock()]);
    await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ });
    expect(findCalls(api, NOW)).toBe(1);
    const grid = screen.getByRole('grid');
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']);
    expect(screen.getByText('November 2026')).toBeInTheDocument();
    expect(dayButton(/November 12, 2026, 2 free times$/)).toBeEnabled();
    expect(dayButton(/November 20, 2026, 1 free time$/)).toBeEnabled();
    // Today's only slot has passed; other days have none; December's slot is not a November day.
    expect(dayButton(/November 10, 2026, no free times$/)).toBeDisabled();
    expect(dayButton(/November 13, 2026, no free times$/)).toBeDisabled();
    expect(
      within(grid)
        .getAllByRole('gridcell')
        .filter((cell) => cell.tagName === 'BUTTON' && !cell.hasAttribute('disabled')),
    ).toHaveLength(2);

    const upcoming = screen.getByRole('list', { name: 'Upcoming appointments' });
    expect(upcoming).toHaveTextContent('Prenatal visit (36 weeks)');
    expect(upcoming).toHaveTextContent('with Dr. Lily Chen');
    expect(within(upcoming).getByText('Confirmed')).toHaveAttribute('data-color', 'blue');
    expect(screen.getByRole('list', { name: 'Past appointments' })).toHaveTextContent(
      'Prenatal visit (28 weeks)',
    );
    expect(document.title).toBe('Get Care · Bloom');
  });

  it('empty: no free slot this month disables every day and says so; no appointments either', async () => {
    renderGetCare([getCareMock(true, [])], (api) => answerFind(api, NOW, [local(10, 1, 9)]));
    expect(
      await screen.findByText('No free times in November 2026. Try the next month.'),
    ).toBeInTheDocument();
    // The month's 30 days are buttons; the cells before the 1st and after the 30th are empty fillers.
    const cells = within(screen.getByRole('grid'))
      .getAllByRole('gridcell')
      .filter((cell) => cell.tagName === 'BUTTON');
    expect(cells).toHaveLength(30);
    expect(cells.every((cell) => cell.hasAttribute('disabled'))).toBe(true);
    expect(screen.getByText('No upcoming appointments')).toBeInTheDocument();
    expect(screen.getByText('No past appointments')).toBeInTheDocument();
  });

  it('empty: a clinic without a Schedule says it offers no times', async () => {
    const { api } = renderGetCare([getCareMock(false, [])]);
    expect(
      await screen.findByText('The clinic offers no appointment times at the moment.'),
    ).toBeInTheDocument();
    expect(api.sent.filter((r) => r.path.includes('$find'))).toEqual([]);
  });

  it('error: a refused $find shows the server message with Try again, which asks again', async () => {
    const { api } = renderGetCare([getCareMock()], (fake) => {
      fake.once(findRoute(NOW), 400, outcome('Search range cannot exceed 31 days'));
      answerFind(fake, NOW, NOVEMBER_SLOTS);
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Search range cannot exceed 31 days');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ })).toBeEnabled();
    expect(findCalls(api, NOW)).toBe(2);
  });

  it('error: the server message with Try again, which reads again', async () => {
    renderGetCare([{ request: getCareMock().request, error: new Error('Forbidden') }, getCareMock()]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Forbidden');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ })).toBeEnabled();
  });

  it('Next month asks $find for the next window; Previous month goes back; no earlier month than this one', async () => {
    renderGetCare([getCareMock()], (api) => {
      answerFind(api, NOW, NOVEMBER_SLOTS);
      answerFind(api, DECEMBER, [local(11, 3, 9)]);
    });
    await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ });
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next month' }));
    expect(await screen.findByRole('gridcell', { name: /December 3, 2026, 1 free time$/ })).toBeEnabled();
    expect(screen.getByText('December 2026')).toBeInTheDocument();
    // The appointments stay listed while and after the month changes.
    expect(screen.getByRole('list', { name: 'Upcoming appointments' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ })).toBeEnabled();
  });

  it('SPEC §5/§8: Send Request without a slot alerts "Please select a slot first." and sends nothing', async () => {
    const { api, router } = renderGetCare([getCareMock()]);
    fireEvent.click(await screen.findByRole('button', { name: 'Send Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.noSlot.message);
    expect(MESSAGES.noSlot.message).toBe('Please select a slot first.');
    expect(api.sent.filter((r) => r.method === 'POST')).toEqual([]);
    expect(router.state.location.pathname).toBe('/get-care');
  });

  it('the "select a slot" error goes away once a time is chosen, and is not left beside "sent"', async () => {
    const { api } = renderGetCare([getCareMock(), getCareMock()]);
    api.once('POST fhir/R4/Appointment/$book', 201, {
      resourceType: 'Bundle',
      type: 'transaction-response',
      entry: [{ resource: { resourceType: 'Appointment', id: 'appt-1', status: 'booked' } }],
    });
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'c-1' });
    fireEvent.click(await screen.findByRole('button', { name: 'Send Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.noSlot.message);
    fireEvent.click(await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ }));
    const times = await screen.findByRole('group', { name: /^Times on / });
    fireEvent.click(within(times).getAllByRole('button')[0]);
    await waitFor(() => expect(screen.queryByText(MESSAGES.noSlot.message)).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    // Counted as found: the screen moves on to /messages right after, taking its alerts with it.
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toHaveTextContent(MESSAGES.sent.message);
  });

  it('days without free times say so, and the calendar says why today cannot be booked', async () => {
    const tomorrow = new Date(2026, 10, 11).toISOString();
    renderGetCare([getCareMock(true, APPOINTMENTS, tomorrow)]);
    await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ });
    expect(screen.getByText('Days you cannot choose have no free times.')).toBeInTheDocument();
    const note = screen.getByTestId('same-day-note');
    expect(note).toHaveTextContent(
      /^Same-day appointments can't be booked online: the clinic takes requests from /,
    );
    expect(note).toHaveTextContent(/send your care team a message/);
  });

  it('without a later booking window, today with no time left says so', async () => {
    renderGetCare([getCareMock()]);
    await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ });
    expect(screen.getByTestId('same-day-note')).toHaveTextContent('There are no free times left today.');
  });

  it('day, then time, shows the Selected Slot; Send Request books it ($book), sends the Communication about the Appointment into her thread, alerts "Appointment request sent." and goes to /messages', async () => {
    // The booking is a client write: Apollo drops the appointment list and GetCare reads it again.
    const { api, router } = renderGetCare([getCareMock(), getCareMock()]);
    api.once('POST fhir/R4/Appointment/$book', 201, {
      resourceType: 'Bundle',
      type: 'transaction-response',
      entry: [{ resource: { resourceType: 'Appointment', id: 'appt-1', status: 'booked' } }],
    });
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'c-1' });
    fireEvent.click(await screen.findByRole('gridcell', { name: /November 12, 2026, 2 free times$/ }));
    const times = await screen.findByRole('group', { name: /^Times on Thursday, November 12/ });
    const nine = new Date(local(10, 12, 9)).toLocaleTimeString(undefined, {
      hour: 'numeric',
      minute: '2-digit',
    });
    expect(within(times).getAllByRole('button')).toHaveLength(2);
    fireEvent.click(within(times).getByRole('button', { name: nine }));
    expect(within(times).getByRole('button', { name: nine })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { name: 'Selected Slot' }).nextElementSibling).toHaveTextContent(
      /Thursday, November 12, 2026/,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Appointment request sent.');
    await waitFor(() => expect(router.state.location.pathname).toBe('/messages'));
    // The proposed Slot exactly as $find answered it, for her.
    const [booking] = api.bodiesOf('POST fhir/R4/Appointment/$book') as Parameters[];
    expect(booking).toEqual({
      resourceType: 'Parameters',
      parameter: [
        { name: 'slot', resource: freeTimes([local(10, 12, 9)]).entry?.[0]?.resource },
        { name: 'patient-reference', valueReference: { reference: 'Patient/maria-1' } },
      ],
    });
    const [body] = api.bodiesOf('POST fhir/R4/Communication') as Communication[];
    expect(body).toMatchObject({
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: 'Patient/maria-1', display: 'Maria Garcia' },
      recipient: [{ reference: 'Practitioner/chen' }],
      partOf: [{ reference: 'Communication/thread-1' }],
      about: [{ reference: 'Appointment/appt-1' }],
    });
    // Her thread header's `sent` follows the request, as after any message in it.
    expect(api.bodiesOf('PATCH fhir/R4/Communication/thread-1')).toEqual([
      [{ op: 'add', path: '/sent', value: body.sent }],
    ]);
  });

  it('SPEC §8: a time taken meanwhile (409) alerts "Failed to send request.", sends no message and shows the free times again', async () => {
    const { api, router } = renderGetCare([getCareMock()], (fake) => {
      answerFind(fake, NOW, NOVEMBER_SLOTS);
    });
    api.once('POST fhir/R4/Appointment/$book', 409, outcome('Requested time slot is no longer available'));
    fireEvent.click(await screen.findByRole('gridcell', { name: /November 20, 2026, 1 free time$/ }));
    const times = await screen.findByRole('group', { name: /^Times on / });
    fireEvent.click(within(times).getByRole('button'));
    // Asked again after the refusal, the 20th's only time is gone.
    answerFind(
      api,
      NOW,
      NOVEMBER_SLOTS.filter((start) => start !== local(10, 20, 14)),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.failed.message);
    expect(MESSAGES.failed.message).toBe('Failed to send request.');
    expect(router.state.location.pathname).toBe('/get-care');
    expect(api.bodiesOf('POST fhir/R4/Communication')).toEqual([]);
    expect(await screen.findByRole('gridcell', { name: /November 20, 2026, no free times$/ })).toBeDisabled();
    expect(findCalls(api, NOW)).toBe(2);
    expect(screen.getByRole('heading', { name: 'Selected Slot' }).nextElementSibling).toHaveTextContent(
      'None yet',
    );
    expect(screen.getByRole('button', { name: 'Send Request' })).toBeEnabled();
  });

  it('SPEC §8: booked but the message refused alerts "Failed to send request."; trying again sends the message only', async () => {
    // The booking is a client write: Apollo drops the appointment list and GetCare reads it again.
    const { api, router } = renderGetCare([getCareMock(), getCareMock()]);
    api.once('POST fhir/R4/Appointment/$book', 201, {
      resourceType: 'Bundle',
      type: 'transaction-response',
      entry: [{ resource: { resourceType: 'Appointment', id: 'appt-2', status: 'booked' } }],
    });
    api.once('POST fhir/R4/Communication', 403, outcome('Forbidden'));
    api.once('POST fhir/R4/Communication', 201, { resourceType: 'Communication', id: 'c-2' });
    fireEvent.click(await screen.findByRole('gridcell', { name: /November 20, 2026, 1 free time$/ }));
    fireEvent.click(within(await screen.findByRole('group', { name: /^Times on / })).getByRole('button'));
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.failed.message);
    expect(router.state.location.pathname).toBe('/get-care');
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/messages'));
    expect(api.bodiesOf('POST fhir/R4/Appointment/$book')).toHaveLength(1);
    const messages = api.bodiesOf('POST fhir/R4/Communication') as Communication[];
    expect(messages.map((m) => m.about)).toEqual([
      [{ reference: 'Appointment/appt-2' }],
      [{ reference: 'Appointment/appt-2' }],
    ]);
  });
});
