// The appointment request of SPEC §2 / §7 ("Create Communication (message or appointment request)"):
// a Communication in the patient's message thread (§3: status completed, subject, sender, payload
// contentString, sent; partOf the thread header, as Medplum's ThreadChat writes a message), addressed
// to the schedule's practitioner, categorised as an appointment request and pointing through `about`
// at the Appointment booked for it (Appointment/$book), so the care team sees which visit it is about.
import type { Communication, Patient, Reference } from '@medplum/fhirtypes';
import { APPOINTMENT_REQUEST_CATEGORY } from '../../../fhir/message-threads';

type Recipient = NonNullable<Communication['recipient']>[number];

// Communication.recipient may point at these types only; a Schedule's Location actor is left out.
const RECIPIENT_TYPES = new Set([
  'CareTeam',
  'Device',
  'Group',
  'HealthcareService',
  'Organization',
  'Patient',
  'Practitioner',
  'PractitionerRole',
  'RelatedPerson',
]);

export interface RequestedSlot {
  /** The booked Appointment, e.g. 'Appointment/123'. */
  readonly reference: string;
  readonly start: string;
}

export interface ScheduleActor {
  readonly reference?: string | null;
  readonly display?: string | null;
}

/** The slot's start in the patient's own time, with the zone, e.g. "Monday, November 23, 2026 at 9:00 AM EST". */
export function formatSlotStart(start: string, locale?: string): string {
  return new Date(start).toLocaleString(locale, {
    dateStyle: 'full',
    timeStyle: 'short',
  });
}

function slotStartWithZone(start: string): string {
  return new Date(start).toLocaleString(undefined, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}

export function appointmentRequest(
  patient: Reference<Patient>,
  scheduleActors: readonly (ScheduleActor | null)[],
  slot: RequestedSlot,
  thread: Reference<Communication>,
  sent: Date,
): Communication {
  const recipient = scheduleActors.flatMap((actor): Recipient[] => {
    const type = actor?.reference?.split('/')[0];
    if (!actor?.reference || !type || !RECIPIENT_TYPES.has(type)) return [];
    return [{ reference: actor.reference, ...(actor.display ? { display: actor.display } : {}) }];
  });
  return {
    resourceType: 'Communication',
    status: 'completed',
    category: [{ coding: [APPOINTMENT_REQUEST_CATEGORY], text: APPOINTMENT_REQUEST_CATEGORY.display }],
    subject: patient,
    sender: patient,
    ...(recipient.length > 0 ? { recipient } : {}),
    partOf: [thread],
    about: [{ reference: slot.reference }],
    sent: sent.toISOString(),
    payload: [{ contentString: `Appointment request for ${slotStartWithZone(slot.start)}.` }],
  };
}
