// Medplum's own SDK as the referee (Medplum conformance; SPEC §2 Appointment request screen, §6 roles,
// §9 one-hour slots): MedplumClient 5.2.13, unchanged, finds free times (Schedule/{id}/$find,
// Appointment/$find), holds one ($hold) and books one ($book) on the demo clinic's Schedule, as
// Medplum's server answers them; a time is never booked twice, even by two bookings at once; a patient
// books only for herself and sees no one else's appointment; bad input is a precise OperationOutcome.
import './support/node-websocket';
import type { MedplumClient } from '@medplum/core';
import type { Appointment, Bundle, OperationOutcome, Parameters, Schedule, Slot } from '@medplum/fhirtypes';
import type { Tokens } from '../../server/auth/support/auth-fixtures';
import { call, startClinic } from '../../server/operations/support/clinic';
import type { Clinic } from '../../server/operations/support/clinic';
import { databases } from '../../server/support/test-databases';
import { tokenClient } from './support/token-client';

const SNOMED = 'http://snomed.info/sct';
const DAY_MS = 24 * 60 * 60 * 1000;

const client = (clinic: Clinic, tokens: Tokens): MedplumClient => tokenClient(clinic.server.baseUrl, tokens);

const issueText = (outcome: unknown) => (outcome as OperationOutcome).issue?.[0]?.details?.text;
const midnightUtc = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + days * DAY_MS);
};

function bookParameters(slot: Slot, patient?: string): Parameters {
  return {
    resourceType: 'Parameters',
    parameter: [
      { name: 'slot', resource: slot },
      ...(patient ? [{ name: 'patient-reference', valueReference: { reference: patient } }] : []),
    ],
  };
}

describe.each(databases())("Medplum's MedplumClient: scheduling on %s", (_engine, kind) => {
  let clinic: Clinic;
  let maria: MedplumClient;
  let aisha: MedplumClient;
  let chen: MedplumClient;
  let mariaRef: string;
  let aishaRef: string;
  let schedule: Schedule;
  let serviceRef: string;
  // The free times of the next week, handed out one per test so tests never take each other's.
  let freeSlots: Slot[];
  const range = { start: midnightUtc(1).toISOString(), end: midnightUtc(8).toISOString() };

  const findUrl = (query: Record<string, string>) =>
    `${maria.fhirUrl('Schedule', schedule.id as string, '$find').toString()}?${new URLSearchParams(query)}`;
  const takeFreeSlot = (): Slot => {
    const slot = freeSlots.shift();
    if (!slot) throw new Error('The demo week has run out of free times');
    return slot;
  };

  beforeAll(async () => {
    clinic = await startClinic(kind);
    maria = client(clinic, clinic.maria);
    aisha = client(clinic, clinic.aisha);
    chen = client(clinic, clinic.chen);
    mariaRef = clinic.maria.profile?.reference as string;
    aishaRef = clinic.aisha.profile?.reference as string;
    schedule = await maria.searchOne('Schedule').then((found) => {
      if (!found) throw new Error('The demo clinic has no Schedule');
      return found;
    });
    serviceRef = schedule.serviceType?.[0]?.extension?.[0]?.valueReference?.reference as string;
    const bundle = await maria.get<Bundle<Slot>>(findUrl({ ...range, _count: '1000' }));
    freeSlots = (bundle.entry ?? []).map((entry) => entry.resource as Slot);
  });

  afterAll(async () => {
    await clinic?.server.close();
  });

  test('Schedule/{id}/$find answers the free times of the demo slots, shaped as Medplum proposes Slots', async () => {
    expect(serviceRef).toMatch(/^HealthcareService\//);
    const stored = await maria.searchResources(
      'Slot',
      new URLSearchParams([
        ['schedule', `Schedule/${schedule.id}`],
        ['start', `ge${range.start}`],
        ['start', `lt${range.end}`],
        ['status', 'free'],
        ['_count', '1000'],
      ]),
    );
    const bundle = await maria.get<Bundle<Slot>>(
      findUrl({ ...range, 'service-type-reference': serviceRef, _count: '1000' }),
    );
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    const found = (bundle.entry ?? []).map((entry) => entry.resource as Slot);
    // The same hours as the free demo Slots (SPEC §9: one hour each, weekdays 09:00-17:00 UTC).
    expect(found.map((slot) => Date.parse(slot.start)).sort()).toEqual(
      stored.map((slot) => Date.parse(slot.start)).sort(),
    );
    expect(found.length).toBeGreaterThan(10);
    for (const slot of found) {
      expect(slot).not.toHaveProperty('id');
      expect(slot).toMatchObject({
        resourceType: 'Slot',
        status: 'free',
        schedule: { reference: `Schedule/${schedule.id}` },
        serviceType: [{ coding: [{ system: SNOMED, code: '424525001' }] }],
      });
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(60 * 60 * 1000);
      expect(new Date(slot.start).getUTCHours()).toBeGreaterThanOrEqual(9);
      expect(new Date(slot.end).getUTCHours() || 24).toBeLessThanOrEqual(17);
    }
    // _count pages the proposals (Medplum's default is 20), and service-type picks the service by code.
    const page = await maria.get<Bundle<Slot>>(findUrl({ ...range, 'service-type': `${SNOMED}|424525001` }));
    expect(page.entry).toHaveLength(Math.min(20, found.length));
  });

  test('Appointment/$find proposes Appointments with the Schedule actors and a contained busy Slot', async () => {
    const url = maria.fhirUrl('Appointment', '$find');
    url.searchParams.set('start', range.start);
    url.searchParams.set('end', range.end);
    url.searchParams.set('schedule', `Schedule/${schedule.id}`);
    url.searchParams.set('service-type-reference', serviceRef);
    url.searchParams.set('_count', '3');
    const bundle = await maria.get<Bundle<Appointment>>(url);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(bundle.entry).toHaveLength(3);
    const proposal = bundle.entry?.[0]?.resource as Appointment;
    expect(proposal).toMatchObject({
      resourceType: 'Appointment',
      status: 'proposed',
      start: freeSlots[0].start,
      end: freeSlots[0].end,
      participant: (schedule.actor ?? []).map((actor) => ({
        actor,
        required: 'required',
        status: 'needs-action',
      })),
      contained: [
        { resourceType: 'Slot', status: 'busy', schedule: { reference: `Schedule/${schedule.id}` } },
      ],
    });
  });

  test('POST $find with a Parameters body answers as GET; $book takes an Appointment/$find proposal as `appointment`', async () => {
    const url = maria.fhirUrl('Schedule', schedule.id as string, '$find');
    const posted = await maria.post<Bundle<Slot>>(url, {
      resourceType: 'Parameters',
      parameter: [
        { name: 'start', valueDateTime: range.start },
        { name: 'end', valueDateTime: range.end },
        { name: 'service-type-reference', valueString: serviceRef },
        { name: '_count', valueInteger: 5 },
      ],
    });
    const got = await maria.get<Bundle<Slot>>(
      findUrl({ ...range, 'service-type-reference': serviceRef, _count: '5' }),
    );
    expect(posted).toEqual(got);

    const slot = takeFreeSlot();
    const findAppointment = maria.fhirUrl('Appointment', '$find');
    findAppointment.searchParams.set('start', slot.start);
    findAppointment.searchParams.set('end', slot.end);
    findAppointment.searchParams.set('schedule', `Schedule/${schedule.id}`);
    const [proposal] = ((await maria.get<Bundle<Appointment>>(findAppointment)).entry ?? []).map(
      (entry) => entry.resource as Appointment,
    );
    expect(proposal).toMatchObject({ start: slot.start, end: slot.end });
    const booked = await maria.post<Bundle<Appointment | Slot>>(maria.fhirUrl('Appointment', '$book'), {
      resourceType: 'Parameters',
      parameter: [
        {
          name: 'appointment',
          // Her own words are kept; a reference to another patient is not hers to write.
          resource: {
            ...proposal,
            description: 'Anatomy scan',
            supportingInformation: [{ reference: aishaRef }],
          },
        },
      ],
    });
    const [appointment, busy] = (booked.entry ?? []).map((entry) => entry.resource);
    expect(appointment).toMatchObject({
      resourceType: 'Appointment',
      status: 'booked',
      description: 'Anatomy scan',
      start: slot.start,
      slot: [{ reference: `Slot/${busy?.id}` }],
    });
    expect(appointment).not.toHaveProperty('contained');
    expect(appointment).not.toHaveProperty('supportingInformation');
    expect((appointment as Appointment).participant?.map((p) => p.actor?.reference)).toContain(mariaRef);
    expect(busy).toMatchObject({ resourceType: 'Slot', status: 'busy', start: slot.start });
  });

  test('$hold keeps a proposed time pending and busy-tentative, and $find stops offering it', async () => {
    const slot = takeFreeSlot();
    const proposal: Appointment = {
      resourceType: 'Appointment',
      status: 'proposed',
      start: slot.start,
      end: slot.end,
      participant: [{ actor: { reference: mariaRef }, status: 'needs-action' }],
      contained: [{ ...slot, status: 'busy' }],
    };
    const held = await maria.post<Bundle<Appointment | Slot>>(maria.fhirUrl('Appointment', '$hold'), {
      resourceType: 'Parameters',
      parameter: [{ name: 'appointment', resource: proposal }],
    });
    expect(held).toMatchObject({ resourceType: 'Bundle', type: 'transaction-response' });
    const [appointment, heldSlot] = (held.entry ?? []).map((entry) => entry.resource);
    expect(appointment).toMatchObject({
      resourceType: 'Appointment',
      status: 'pending',
      start: slot.start,
      slot: [{ reference: `Slot/${heldSlot?.id}` }],
    });
    expect(heldSlot).toMatchObject({ resourceType: 'Slot', status: 'busy-tentative', start: slot.start });
    const after = await maria.get<Bundle<Slot>>(findUrl({ ...range, _count: '1000' }));
    expect((after.entry ?? []).map((entry) => entry.resource?.start)).not.toContain(slot.start);
  });

  test('$book creates the booked Appointment and busy Slot; a second $book of the time is refused', async () => {
    const slot = takeFreeSlot();
    const booked = await maria.post<Bundle<Appointment | Slot>>(
      maria.fhirUrl('Appointment', '$book'),
      bookParameters(slot, mariaRef),
    );
    const [appointment, busySlot] = (booked.entry ?? []).map((entry) => entry.resource);
    expect(appointment).toMatchObject({
      resourceType: 'Appointment',
      status: 'booked',
      start: slot.start,
      end: slot.end,
      slot: [{ reference: `Slot/${busySlot?.id}` }],
    });
    expect((appointment as Appointment).participant).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: { reference: mariaRef }, status: 'accepted' }),
        ...(schedule.actor ?? []).map((actor) => expect.objectContaining({ actor })),
      ]),
    );
    expect(busySlot).toMatchObject({
      resourceType: 'Slot',
      status: 'busy',
      start: slot.start,
      end: slot.end,
    });
    // Stored, and hers to read (SPEC §4: her upcoming appointments).
    await expect(maria.readResource('Appointment', appointment?.id as string)).resolves.toMatchObject({
      status: 'booked',
    });
    const after = await maria.get<Bundle<Slot>>(findUrl({ ...range, _count: '1000' }));
    expect((after.entry ?? []).map((entry) => entry.resource?.start)).not.toContain(slot.start);

    const again = await call(clinic.server, 'POST', 'fhir/R4/Appointment/$book', clinic.aisha, {
      body: bookParameters(slot),
    });
    expect(again.status).toBe(409);
    expect(issueText(again.body)).toBe('Requested time slot is no longer available');
    await expect(maria.post(maria.fhirUrl('Appointment', '$book'), bookParameters(slot))).rejects.toThrow(
      'Requested time slot is no longer available',
    );
  });

  test('several $book of the same time at once: exactly one wins, the others get a 409', async () => {
    // Three rounds of four bookings racing for one time each: a missing lock shows within a few rounds.
    for (let round = 0; round < 3; round++) {
      const slot = takeFreeSlot();
      const callers: [Tokens, string | undefined][] = [
        [clinic.maria, undefined],
        [clinic.aisha, undefined],
        [clinic.chen, aishaRef],
        [clinic.chen, mariaRef],
      ];
      const attempts = await Promise.all(
        callers.map(([tokens, patient]) =>
          call(clinic.server, 'POST', 'fhir/R4/Appointment/$book', tokens, {
            body: bookParameters(slot, patient),
          }),
        ),
      );
      expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, 409, 409, 409]);
      for (const refused of attempts.filter((attempt) => attempt.status === 409)) {
        expect(issueText(refused.body)).toBe('Requested time slot is no longer available');
      }
      const busy = await chen.searchResources('Slot', {
        schedule: `Schedule/${schedule.id}`,
        start: slot.start,
        status: 'busy',
      });
      expect(busy).toHaveLength(1);
    }
  });

  test('a patient books only for herself and never sees another patient’s appointment', async () => {
    const slot = takeFreeSlot();
    const forAisha = await call(clinic.server, 'POST', 'fhir/R4/Appointment/$book', clinic.maria, {
      body: bookParameters(slot, aishaRef),
    });
    expect(forAisha.status).toBe(403);
    expect(issueText(forAisha.body)).toBe('A patient may book appointments only for herself');
    const holdForAisha = await call(clinic.server, 'POST', 'fhir/R4/Appointment/$hold', clinic.maria, {
      body: {
        resourceType: 'Parameters',
        parameter: [
          {
            name: 'appointment',
            resource: {
              resourceType: 'Appointment',
              status: 'proposed',
              participant: [{ actor: { reference: aishaRef }, status: 'needs-action' }],
              contained: [{ ...slot, status: 'busy' }],
            },
          },
        ],
      },
    });
    expect(holdForAisha.status).toBe(403);

    // Without a patient-reference a patient books for herself.
    const mine = await maria.post<Bundle<Appointment>>(
      maria.fhirUrl('Appointment', '$book'),
      bookParameters(slot),
    );
    const appointment = mine.entry?.[0]?.resource as Appointment;
    expect(appointment.participant).toEqual(
      expect.arrayContaining([expect.objectContaining({ actor: { reference: mariaRef } })]),
    );
    await expect(aisha.readResource('Appointment', appointment.id as string)).rejects.toThrow('Not found');
    const aishas = await aisha.searchResources('Appointment', { _count: '100' });
    expect(aishas.map((a) => a.id)).not.toContain(appointment.id);
    expect(aishas.every((a) => a.participant?.some((p) => p.actor?.reference === aishaRef))).toBe(true);

    // The care team books for a patient.
    const next = takeFreeSlot();
    const byChen = await chen.post<Bundle<Appointment>>(
      chen.fhirUrl('Appointment', '$book'),
      bookParameters(next, aishaRef),
    );
    const forHer = byChen.entry?.[0]?.resource as Appointment;
    await expect(aisha.readResource('Appointment', forHer.id as string)).resolves.toMatchObject({
      status: 'booked',
    });
    await expect(maria.readResource('Appointment', forHer.id as string)).rejects.toThrow('Not found');
  });

  test('bad input is a 400 or 404 OperationOutcome that says what is wrong', async () => {
    const find = (query: Record<string, string>, id = schedule.id as string) =>
      call(clinic.server, 'GET', `fhir/R4/Schedule/${id}/$find?${new URLSearchParams(query)}`, clinic.maria);
    const cases: [Promise<{ status: number; body: unknown }>, number, string][] = [
      [find({ end: range.end }), 400, "Missing required parameter 'start'"],
      [find({ start: range.start }), 400, "Missing required parameter 'end'"],
      [
        find({ start: 'tomorrow', end: range.end }),
        400,
        "Parameter 'start' must be a dateTime with a time zone (e.g. 2026-12-01T09:00:00Z), got 'tomorrow'",
      ],
      [
        find({ start: range.end, end: range.start }),
        400,
        "Invalid search time range: 'end' must be after 'start'",
      ],
      [
        find({ start: range.start, end: new Date(Date.parse(range.start) + 40 * DAY_MS).toISOString() }),
        400,
        'Search range cannot exceed 31 days',
      ],
      [
        find({ ...range, practitioner: 'Practitioner/1' }),
        400,
        "Unsupported parameter 'practitioner' for $find: use start, end, service-type-reference, service-type, _count",
      ],
      [
        find({ ...range, 'service-type': `${SNOMED}|000000` }),
        400,
        `Schedule/${schedule.id} offers no service of type '${SNOMED}|000000'`,
      ],
      [find(range, 'no-such-schedule'), 404, 'Not found'],
      [
        call(clinic.server, 'GET', `fhir/R4/Appointment/$find?${new URLSearchParams(range)}`, clinic.maria),
        400,
        "Missing required parameter 'schedule'",
      ],
    ];
    const saturday = [1, 2, 3, 4, 5, 6, 7].map(midnightUtc).find((day) => day.getUTCDay() === 6) as Date;
    const slotAt = (start: Date, minutes: number, scheduleId = schedule.id as string): Slot => ({
      resourceType: 'Slot',
      schedule: { reference: `Schedule/${scheduleId}` },
      status: 'free',
      start: start.toISOString(),
      end: new Date(start.getTime() + minutes * 60_000).toISOString(),
    });
    const book = (body: unknown) =>
      call(
        clinic.server,
        'POST',
        'fhir/R4/Appointment/$book',
        clinic.maria,
        body === undefined ? {} : { body },
      );
    const saturdayTen = new Date(saturday.getTime() + 10 * 60 * 60 * 1000);
    cases.push(
      [book(undefined), 400, "Missing required parameter 'slot'"],
      [book(bookParameters(slotAt(saturdayTen, 60))), 400, 'No availability found at this time'],
      [book(bookParameters(slotAt(saturdayTen, 30))), 400, 'No matching scheduling parameters found'],
      [
        // The demo Schedule's planning horizon reaches 45 days ahead.
        book(bookParameters(slotAt(new Date(midnightUtc(60).getTime() + 10 * 60 * 60 * 1000), 60))),
        400,
        'Appointment falls outside schedule planning horizon',
      ],
      [
        book(bookParameters(slotAt(saturdayTen, 60, 'no-such-schedule'))),
        400,
        'Schedule not found: Schedule/no-such-schedule',
      ],
      [
        book(bookParameters({ ...slotAt(saturdayTen, 60), end: saturday.toISOString() })),
        400,
        'Slot.end must be after Slot.start',
      ],
      [book({ resourceType: 'Patient' }), 400, 'The body of $book must be a FHIR Parameters resource'],
      [
        call(clinic.server, 'POST', 'fhir/R4/Appointment/$hold', clinic.maria, {
          body: { resourceType: 'Parameters', parameter: [] },
        }),
        400,
        "Missing required parameter 'appointment'",
      ],
    );
    for (const [pending, status, text] of cases) {
      const response = await pending;
      expect({ status: response.status, text: issueText(response.body) }).toEqual({ status, text });
    }
  });
});
