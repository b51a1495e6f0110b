// Appointments with Dr. Chen, past (fulfilled) and upcoming (booked into a busy Slot). SPEC §4:
// upcoming when the start is now or later.
import type { Appointment, Location, Patient, Practitioner, Reference, Slot } from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';
import { pregnancyCareCode } from './pregnancy-plan';
import type { PregnancyCareCode } from './pregnancy-plan';

export interface AppointmentSpec {
  key: string;
  description: string;
  daysFromToday: number;
  hour: number;
  /** Steps of the pregnancy care plan this visit did (its reasonCode), so $apply finds them done. */
  reasons?: readonly PregnancyCareCode[];
}

export interface AppointmentPeople {
  patient: Reference<Patient>;
  patientKey: string;
  practitioner: Reference<Practitioner>;
  location: Reference<Location>;
}

/** The start instant of each upcoming (future) appointment, so the schedule can mark them busy. */
export function upcomingStarts(ctx: DemoContext, specs: readonly AppointmentSpec[]): string[] {
  return specs
    .filter((spec) => spec.daysFromToday > 0)
    .map((spec) => ctx.calendar.at(spec.daysFromToday, spec.hour));
}

export function addAppointments(
  { tx, calendar }: DemoContext,
  people: AppointmentPeople,
  specs: readonly AppointmentSpec[],
  slotsByStart: ReadonlyMap<string, Reference<Slot>>,
): void {
  for (const spec of specs) {
    const start = calendar.at(spec.daysFromToday, spec.hour);
    const upcoming = spec.daysFromToday > 0;
    const slot = slotsByStart.get(start);
    if (upcoming && !slot) {
      throw new Error(`Upcoming demo appointment ${spec.key} has no slot at ${start}`);
    }
    const appointment: Appointment = {
      resourceType: 'Appointment',
      status: upcoming ? 'booked' : 'fulfilled',
      serviceType: [{ text: 'Prenatal visit' }],
      description: spec.description,
      ...(spec.reasons?.length ? { reasonCode: spec.reasons.map((code) => pregnancyCareCode(code)) } : {}),
      start,
      end: calendar.at(spec.daysFromToday, spec.hour + 1),
      minutesDuration: 60,
      ...(upcoming && slot ? { slot: [slot] } : {}),
      created: calendar.at(Math.min(spec.daysFromToday - 14, -1), 12),
      participant: [
        { actor: people.patient, required: 'required', status: 'accepted' },
        { actor: people.practitioner, required: 'required', status: 'accepted' },
        { actor: people.location, required: 'information-only', status: 'accepted' },
      ],
    };
    tx.add(`appointment-${people.patientKey}-${spec.key}`, appointment, spec.description);
  }
}
