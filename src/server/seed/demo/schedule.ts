// Dr. Chen's Schedule with one-hour Slots (SPEC §9) in business hours, 09:00-17:00 UTC Monday to
// Friday, for the 45 days after the seeding day (kept 45 days ahead by the server's start-up top-up,
// src/server/seed/demo-slots.ts). Slots booked by a demo appointment are busy, and
// so is a sprinkling of slots booked by patients outside the demo; the rest are free.
// The same hours are the Schedule's availability in Medplum's SchedulingParameters extension, for
// the clinic's prenatal care HealthcareService, so Schedule/{id}/$find offers exactly the free slots.
import type { Extension, Location, Practitioner, Reference, Schedule, Slot } from '@medplum/fhirtypes';
import type { DemoCalendar } from './calendar';
import { PRENATAL_CARE_SERVICE } from './codes';
import type { DemoContext } from './demo-context';

export const CLINIC_OPENING_HOUR_UTC = 9;
export const CLINIC_CLOSING_HOUR_UTC = 17;
export const SLOT_DAYS_AHEAD = 45;
/** The demo bundle key of the clinic's prenatal care HealthcareService (healthcare-service.ts). */
export const PRENATAL_SERVICE_KEY = 'healthcare-service-prenatal-care';
const SCHEDULING_PARAMETERS = 'https://medplum.com/fhir/StructureDefinition/SchedulingParameters';
const SERVICE_TYPE_REFERENCE = 'https://medplum.com/fhir/service-type-reference';

/** Monday to Friday, opening to closing hour UTC, one-hour visits on the hour, for the service. */
function schedulingParameters(service: Reference): Extension {
  const time = (hour: number) => `${String(hour).padStart(2, '0')}:00:00`;
  return {
    url: SCHEDULING_PARAMETERS,
    extension: [
      { url: 'service', valueReference: service },
      { url: 'timezone', valueCode: 'UTC' },
      { url: 'duration', valueDuration: { value: 1, unit: 'h' } },
      { url: 'alignmentInterval', valueDuration: { value: 60, unit: 'min' } },
      {
        url: 'availability',
        extension: [
          {
            url: 'availableTime',
            extension: [
              ...['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ url: 'daysOfWeek', valueCode: day })),
              { url: 'availableStartTime', valueTime: time(CLINIC_OPENING_HOUR_UTC) },
              { url: 'availableEndTime', valueTime: time(CLINIC_CLOSING_HOUR_UTC) },
            ],
          },
        ],
      },
    ],
  };
}

export interface ScheduleRefs {
  schedule: Reference<Schedule>;
  /** The Slot starting at each instant (FHIR instant string), for appointments to book. */
  slotsByStart: Map<string, Reference<Slot>>;
}

/**
 * Adds the Schedule and its Slots. `bookedStarts` are the starts of the demo's upcoming
 * appointments; each must fall on a slot, or this throws (the demo would contradict itself).
 */
export function addScheduleAndSlots(
  { tx, calendar }: DemoContext,
  practitioner: Reference<Practitioner>,
  location: Reference<Location>,
  bookedStarts: ReadonlySet<string>,
): ScheduleRefs {
  const service = tx.ref(PRENATAL_SERVICE_KEY, 'Prenatal care');
  const schedule = tx.add<Schedule>(
    'schedule-dr-chen',
    {
      resourceType: 'Schedule',
      active: true,
      extension: [schedulingParameters(service)],
      // The same coding as the clinic's HealthcareService.type (healthcare-service.ts), which it
      // names as Medplum's scheduling does.
      serviceType: [
        {
          ...structuredClone(PRENATAL_CARE_SERVICE),
          extension: [{ url: SERVICE_TYPE_REFERENCE, valueReference: service }],
        },
      ],
      actor: [practitioner, location],
      planningHorizon: { start: calendar.at(1), end: calendar.at(SLOT_DAYS_AHEAD + 1) },
      comment: 'One-hour visits, Monday to Friday, 09:00-17:00 UTC.',
    },
    'Dr. Lily Chen - prenatal care',
  );

  const slotsByStart = new Map<string, Reference<Slot>>();
  for (const { key, slot } of buildDemoSlots(calendar, schedule, 1, bookedStarts)) {
    slotsByStart.set(slot.start, tx.add(key, slot));
  }
  for (const start of bookedStarts) {
    if (!slotsByStart.has(start)) {
      throw new Error(`Demo appointment at ${start} does not fall on a slot`);
    }
  }
  return { schedule, slotsByStart };
}

export interface DemoSlot {
  /** The slot's key in the demo bundle, e.g. 'slot-dr-chen-3-9' (day offset, hour). */
  key: string;
  slot: Slot;
}

/**
 * The demo Schedule's one-hour Slots on the weekdays from day offset `fromDay` to SLOT_DAYS_AHEAD
 * after the calendar's day zero: the seed builds days 1 onwards, the start-up top-up only the days
 * after the last stored slot. Busy when a demo appointment books it (`bookedStarts`) or when the
 * sprinkling of outside bookings falls on it; free otherwise.
 */
export function buildDemoSlots(
  calendar: DemoCalendar,
  schedule: Reference<Schedule>,
  fromDay: number,
  bookedStarts: ReadonlySet<string> = new Set(),
): DemoSlot[] {
  const slots: DemoSlot[] = [];
  for (let day = Math.max(1, fromDay); day <= SLOT_DAYS_AHEAD; day++) {
    if (!calendar.isWeekday(day)) {
      continue;
    }
    for (let hour = CLINIC_OPENING_HOUR_UTC; hour < CLINIC_CLOSING_HOUR_UTC; hour++) {
      const start = calendar.at(day, hour);
      const busy = bookedStarts.has(start) || (day * 7 + hour) % 11 === 0;
      const slot: Slot = {
        resourceType: 'Slot',
        schedule,
        status: busy ? 'busy' : 'free',
        start,
        end: calendar.at(day, hour + 1),
        serviceType: [{ text: 'Prenatal visit' }],
        ...(busy ? { comment: 'Booked' } : {}),
      };
      slots.push({ key: `slot-dr-chen-${day}-${hour}`, slot });
    }
  }
  return slots;
}
