// Scheduling (Medplum conformance; Schedule/{id}/$find, Appointment/$find, $book) on Schedules
// other than the demo's, against the real server: the cases of Medplum's own find tests (a four-day
// work week in New York, 20-minute visits on the hour, busy and free Slots), plus buffers with a
// 30-minute grid, a daylight-saving change, two Schedules at once, and the Schedule's own data errors.
import type { Bundle, Extension, HealthcareService, Practitioner, Schedule, Slot } from '@medplum/fhirtypes';
import { call, startClinic } from './support/clinic';
import type { Clinic } from './support/clinic';
import { databases } from '../support/test-databases';

const PARAMETERS_URL = 'https://medplum.com/fhir/StructureDefinition/SchedulingParameters';
const MON_TO_THU = ['mon', 'tue', 'wed', 'thu'];

interface Availability {
  days: string[];
  start: string;
  end: string;
}

function parameters(options: {
  service?: string;
  availability: Availability[];
  duration?: number;
  bufferBefore?: number;
  bufferAfter?: number;
  alignmentInterval?: number;
  timezone?: string;
}): Extension {
  const minutes = (url: string, value: number | undefined): Extension[] =>
    value === undefined ? [] : [{ url, valueDuration: { value, unit: 'min' } }];
  return {
    url: PARAMETERS_URL,
    extension: [
      ...(options.service ? [{ url: 'service', valueReference: { reference: options.service } }] : []),
      ...(options.timezone ? [{ url: 'timezone', valueCode: options.timezone }] : []),
      ...minutes('duration', options.duration),
      ...minutes('bufferBefore', options.bufferBefore),
      ...minutes('bufferAfter', options.bufferAfter),
      ...minutes('alignmentInterval', options.alignmentInterval),
      {
        url: 'availability',
        extension: options.availability.map((time) => ({
          url: 'availableTime',
          extension: [
            ...time.days.map((day) => ({ url: 'daysOfWeek', valueCode: day })),
            { url: 'availableStartTime', valueTime: time.start },
            { url: 'availableEndTime', valueTime: time.end },
          ],
        })),
      },
    ],
  };
}

const FOUR_DAY_WEEK: Availability[] = [
  { days: MON_TO_THU, start: '09:30:00', end: '12:30:00' },
  { days: MON_TO_THU, start: '13:15:00', end: '16:15:00' },
];

describe.each(databases())('scheduling operations on %s', (_engine, kind) => {
  let clinic: Clinic;
  let practitioner: Practitioner;
  let service: HealthcareService;

  async function create<T extends { resourceType: string }>(resource: T): Promise<T> {
    const response = await call<T>(clinic.server, 'POST', `fhir/R4/${resource.resourceType}`, clinic.admin, {
      body: resource,
    });
    if (response.status !== 201) throw new Error(`POST answered ${response.status}: ${response.text}`);
    return response.body;
  }

  const schedule = (extension: Extension[], actor = practitioner) =>
    create<Schedule>({
      resourceType: 'Schedule',
      actor: [{ reference: `Practitioner/${actor.id}` }],
      serviceType: service.type,
      ...(extension.length > 0 ? { extension } : {}),
    });

  async function find(target: Schedule, start: string, end: string, extra: Record<string, string> = {}) {
    const query = new URLSearchParams({ start, end, _count: '1000', ...extra });
    const response = await call<Bundle<Slot>>(
      clinic.server,
      'GET',
      `fhir/R4/Schedule/${target.id}/$find?${query}`,
      clinic.maria,
    );
    return {
      status: response.status,
      body: response.body,
      starts: (response.body.entry ?? []).map((e) => e.resource?.start),
    };
  }

  const at = (local: string) => new Date(local).toISOString();

  beforeAll(async () => {
    clinic = await startClinic(kind);
    practitioner = await create<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ family: 'Ortiz' }],
      extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/timezone', valueCode: 'America/New_York' }],
    });
    service = await create<HealthcareService>({
      resourceType: 'HealthcareService',
      name: 'Office visit',
      type: [{ coding: [{ system: 'http://example.com', code: 'office-visit' }] }],
    });
  });

  afterAll(async () => {
    await clinic?.server.close();
  });

  test("Medplum's cases: availability in the actor's zone, 20-minute visits on the hour, busy and free Slots", async () => {
    const target = await schedule([
      parameters({ service: `HealthcareService/${service.id}`, availability: FOUR_DAY_WEEK, duration: 20 }),
    ]);
    const reference = { 'service-type-reference': `HealthcareService/${service.id}` };
    const none = await find(
      target,
      at('2025-12-01T00:00:00-05:00'),
      at('2025-12-01T09:00:00-05:00'),
      reference,
    );
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ resourceType: 'Bundle', type: 'searchset' });

    const found = await find(
      target,
      at('2025-12-01T00:00:00-05:00'),
      at('2025-12-01T14:00:00-05:00'),
      reference,
    );
    expect(found.starts).toEqual([
      at('2025-12-01T10:00:00-05:00'),
      at('2025-12-01T11:00:00-05:00'),
      at('2025-12-01T12:00:00-05:00'),
    ]);
    expect(found.body.entry?.[0]?.resource).toEqual({
      resourceType: 'Slot',
      schedule: { reference: `Schedule/${target.id}` },
      status: 'free',
      start: at('2025-12-01T10:00:00-05:00'),
      end: at('2025-12-01T10:20:00-05:00'),
      serviceType: service.type,
    });

    // A busy Slot removes the visit it overlaps; a free Slot of any service opens time outside the hours.
    for (const [start, end, status] of [
      ['2025-12-01T11:10:00-05:00', '2025-12-01T11:40:00-05:00', 'busy'],
      ['2025-12-01T09:00:00-05:00', '2025-12-01T10:00:00-05:00', 'free'],
    ] as const) {
      await create<Slot>({
        resourceType: 'Slot',
        schedule: { reference: `Schedule/${target.id}` },
        status,
        start: at(start),
        end: at(end),
      });
    }
    const after = await find(
      target,
      at('2025-12-01T00:00:00-05:00'),
      at('2025-12-01T14:00:00-05:00'),
      reference,
    );
    expect(after.starts).toEqual([
      at('2025-12-01T09:00:00-05:00'),
      at('2025-12-01T10:00:00-05:00'),
      at('2025-12-01T12:00:00-05:00'),
    ]);
  });

  test('buffers keep time free around a visit on a 30-minute grid; $book writes them as busy-unavailable Slots', async () => {
    const target = await schedule([
      parameters({
        availability: [FOUR_DAY_WEEK[0]],
        duration: 20,
        bufferBefore: 10,
        bufferAfter: 10,
        alignmentInterval: 30,
        timezone: 'America/New_York',
      }),
    ]);
    const day = [at('2025-12-02T00:00:00-05:00'), at('2025-12-03T00:00:00-05:00')] as const;
    const before = await find(target, ...day);
    // 09:30-12:30 less the buffers is 09:40-12:20: visits start on the half hour from 10:00 to 12:00.
    expect(before.starts).toEqual(
      ['10:00', '10:30', '11:00', '11:30', '12:00'].map((t) => at(`2025-12-02T${t}:00-05:00`)),
    );

    const slot = before.body.entry?.[1]?.resource as Slot;
    const booked = await call<Bundle>(clinic.server, 'POST', 'fhir/R4/Appointment/$book', clinic.maria, {
      body: { resourceType: 'Parameters', parameter: [{ name: 'slot', resource: slot }] },
    });
    expect(booked.status).toBe(201);
    const written = (booked.body.entry ?? []).map((e) => e.resource as Slot);
    expect(written.slice(1).map((s) => [s.status, s.start, s.end])).toEqual([
      ['busy', at('2025-12-02T10:30:00-05:00'), at('2025-12-02T10:50:00-05:00')],
      ['busy-unavailable', at('2025-12-02T10:20:00-05:00'), at('2025-12-02T10:30:00-05:00')],
      ['busy-unavailable', at('2025-12-02T10:50:00-05:00'), at('2025-12-02T11:00:00-05:00')],
    ]);
    // 10:20-11:00 is taken: 10:00 would end inside it, 11:00 would start in its buffer.
    const after = await find(target, ...day);
    expect(after.starts).toEqual(['11:30', '12:00'].map((t) => at(`2025-12-02T${t}:00-05:00`)));
  });

  test('local hours hold across a daylight-saving change', async () => {
    const target = await schedule([
      parameters({ availability: [{ days: ['mon'], start: '09:00:00', end: '10:00:00' }], duration: 60 }),
    ]);
    // New York moves from EST (-05:00) to EDT (-04:00) on Sunday 8 March 2026.
    const found = await find(target, '2026-03-01T00:00:00Z', '2026-03-17T00:00:00Z');
    expect(found.starts).toEqual([
      '2026-03-02T14:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-16T13:00:00.000Z',
    ]);
  });

  test('Appointment/$find proposes only times free on every Schedule', async () => {
    const other = await create<Practitioner>({ resourceType: 'Practitioner', name: [{ family: 'Lee' }] });
    const mornings = await schedule([
      parameters({
        availability: [{ days: ['tue'], start: '09:00:00', end: '12:00:00' }],
        duration: 60,
        timezone: 'UTC',
      }),
    ]);
    const late = await schedule(
      [
        parameters({
          availability: [{ days: ['tue'], start: '10:00:00', end: '15:00:00' }],
          duration: 60,
          timezone: 'UTC',
        }),
      ],
      other,
    );
    const query = new URLSearchParams([
      ['start', '2025-12-02T00:00:00Z'],
      ['end', '2025-12-03T00:00:00Z'],
      ['schedule', `Schedule/${mornings.id}`],
      ['schedule', `Schedule/${late.id}`],
    ]);
    const response = await call<Bundle>(
      clinic.server,
      'GET',
      `fhir/R4/Appointment/$find?${query}`,
      clinic.maria,
    );
    expect(response.status).toBe(200);
    const proposals = (response.body.entry ?? []).map(
      (e) => e.resource as { start: string; contained: Slot[] },
    );
    expect(proposals.map((p) => p.start)).toEqual(['2025-12-02T10:00:00.000Z', '2025-12-02T11:00:00.000Z']);
    expect(proposals[0].contained.map((s) => s.schedule.reference)).toEqual([
      `Schedule/${mornings.id}`,
      `Schedule/${late.id}`,
    ]);
  });

  test("the Schedule's own data errors are named: no zone, no duration, no parameters", async () => {
    const noZone = await create<Practitioner>({ resourceType: 'Practitioner', name: [{ family: 'Roe' }] });
    const cases: [Schedule, string][] = [
      [
        await schedule([parameters({ availability: FOUR_DAY_WEEK, duration: 20 })], noZone),
        'No timezone specified: give the SchedulingParameters a timezone, or its actor a timezone extension',
      ],
      [
        await schedule([parameters({ availability: FOUR_DAY_WEEK, timezone: 'UTC' })]),
        "Scheduling parameter attribute 'duration' is missing",
      ],
      [
        await schedule([parameters({ availability: FOUR_DAY_WEEK, duration: 20, timezone: 'Mars/Olympus' })]),
        "Scheduling parameter attribute 'timezone' is not a known time zone: 'Mars/Olympus'",
      ],
    ];
    const bare = await schedule([]);
    cases.push([bare, `Schedule/${bare.id} has no SchedulingParameters extension, so it offers no times`]);
    for (const [target, text] of cases) {
      const response = await find(target, '2025-12-01T00:00:00Z', '2025-12-02T00:00:00Z');
      expect({
        status: response.status,
        text: (response.body as { issue?: { details?: { text?: string } }[] }).issue?.[0]?.details?.text,
      }).toEqual({ status: 400, text });
    }
  });
});
