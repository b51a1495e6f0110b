// Dr. Chen's Schedule with one-hour Slots (SPEC §9) in business hours, 09:00-17:00 UTC Monday to
// Friday, for the 45 days after the seeding day. Slots booked by a demo appointment are busy, and
// so is a sprinkling of slots booked by patients outside the demo; the rest are free.
import type { Location, Practitioner, Reference, Schedule, Slot } from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';

export const CLINIC_OPENING_HOUR_UTC = 9;
export const CLINIC_CLOSING_HOUR_UTC = 17;
export const SLOT_DAYS_AHEAD = 45;

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
  const schedule = tx.add<Schedule>(
    'schedule-dr-chen',
    {
      resourceType: 'Schedule',
      active: true,
      serviceType: [{ text: 'Prenatal care' }],
      actor: [practitioner, location],
      planningHorizon: { start: calendar.at(1), end: calendar.at(SLOT_DAYS_AHEAD + 1) },
      comment: 'One-hour visits, Monday to Friday, 09:00-17:00 UTC.',
    },
    'Dr. Lily Chen - prenatal care',
  );

  const slotsByStart = new Map<string, Reference<Slot>>();
  for (let day = 1; day <= SLOT_DAYS_AHEAD; day++) {
    if (!calendar.isWeekday(day)) {
      continue;
    }
    for (let hour = CLINIC_OPENING_HOUR_UTC; hour < CLINIC_CLOSING_HOUR_UTC; hour++) {
      const start = calendar.at(day, hour);
      const bookedInDemo = bookedStarts.has(start);
      const bookedElsewhere = (day * 7 + hour) % 11 === 0;
      const slot: Slot = {
        resourceType: 'Slot',
        schedule,
        status: bookedInDemo || bookedElsewhere ? 'busy' : 'free',
        start,
        end: calendar.at(day, hour + 1),
        serviceType: [{ text: 'Prenatal visit' }],
        ...(bookedInDemo || bookedElsewhere ? { comment: 'Booked' } : {}),
      };
      slotsByStart.set(start, tx.add(`slot-dr-chen-${day}-${hour}`, slot));
    }
  }
  for (const start of bookedStarts) {
    if (!slotsByStart.has(start)) {
      throw new Error(`Demo appointment at ${start} does not fall on a slot`);
    }
  }
  return { schedule, slotsByStart };
}
