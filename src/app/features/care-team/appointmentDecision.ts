// A care-team member's answer to an appointment request (Get Care books the Appointment with $book,
// which leaves the clinic's participants tentative): one transaction that updates the Appointment
// (accept: her participation accepted, the visit stays booked; decline: the Appointment cancelled
// with her reason, her participation declined and its Slots free again), tells the patient in her
// thread (a message partOf the header, as the messages screen writes one) and touches the header's
// `sent`, as Medplum's ThreadChat does. The server's access policy decides whether she may: a patient
// only reads Appointments, so her own request cannot be accepted by her.
import type { Appointment, Bundle, BundleEntry, Communication, Slot } from '@medplum/fhirtypes';
import { MESSAGE_CATEGORY, threadTouch } from '../../../fhir/message-threads';

export type Decision = { readonly kind: 'accept' } | { readonly kind: 'decline'; readonly reason: string };

/** Longest decline reason: a sentence or two for the patient, not a letter. */
export const MAX_REASON_LENGTH = 500;

export const DECISION_ERRORS = {
  noReason: 'Say why you decline: the patient reads this.',
  tooLong: `A reason can be at most ${MAX_REASON_LENGTH} characters.`,
} as const;

export function reasonProblem(reason: string): string | undefined {
  if (reason.trim() === '') return DECISION_ERRORS.noReason;
  if (reason.length > MAX_REASON_LENGTH) return DECISION_ERRORS.tooLong;
  return undefined;
}

export interface DecisionInput {
  readonly appointment: Appointment;
  /** Her Practitioner reference, `Practitioner/{id}`. */
  readonly practitioner: string;
  readonly patient: string;
  /** The patient's thread header id. */
  readonly threadId: string;
  readonly decision: Decision;
  readonly now: Date;
  /** How the visit's time reads to the patient, e.g. "Monday, December 7, 2026 at 9:00 AM". */
  readonly when: string;
}

/** The Appointment after her answer: only her participation (and on decline, status and reason) change. */
export function decidedAppointment(
  appointment: Appointment,
  practitioner: string,
  decision: Decision,
): Appointment {
  const participant = (appointment.participant ?? []).map((p) =>
    p.actor?.reference === practitioner
      ? { ...p, status: decision.kind === 'accept' ? ('accepted' as const) : ('declined' as const) }
      : p,
  );
  if (decision.kind === 'accept') return { ...appointment, participant };
  return {
    ...appointment,
    status: 'cancelled',
    cancelationReason: { text: decision.reason.trim() },
    participant,
  };
}

export function decisionMessageText(decision: Decision, when: string): string {
  return decision.kind === 'accept'
    ? `Your appointment on ${when} is confirmed. See you then.`
    : `Your appointment request for ${when} was declined: ${decision.reason.trim()}`;
}

function base64Json(value: unknown): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))));
}

/** The transaction for her answer; `slots` are the Appointment's Slots as read (freed on decline). */
export function decisionBundle(input: DecisionInput, slots: readonly Slot[]): Bundle {
  const { appointment, practitioner, patient, threadId, decision, now, when } = input;
  const sent = now.toISOString();
  const message: Communication = {
    resourceType: 'Communication',
    status: 'completed',
    partOf: [{ reference: `Communication/${threadId}` }],
    category: [{ coding: [MESSAGE_CATEGORY], text: MESSAGE_CATEGORY.display }],
    subject: { reference: patient },
    sender: { reference: practitioner },
    recipient: [{ reference: patient }],
    about: [{ reference: `Appointment/${appointment.id ?? ''}` }],
    sent,
    payload: [{ contentString: decisionMessageText(decision, when) }],
  };
  const versionId = appointment.meta?.versionId;
  const entries: BundleEntry[] = [
    {
      request: {
        method: 'PUT',
        url: `Appointment/${appointment.id ?? ''}`,
        ...(versionId ? { ifMatch: `W/"${versionId}"` } : {}),
      },
      resource: decidedAppointment(appointment, practitioner, decision),
    },
    { request: { method: 'POST', url: 'Communication' }, resource: message },
    {
      request: { method: 'PATCH', url: `Communication/${threadId}` },
      resource: {
        resourceType: 'Binary',
        contentType: 'application/json-patch+json',
        data: base64Json(threadTouch(sent)),
      },
    },
  ];
  if (decision.kind === 'decline') {
    for (const slot of slots) {
      if (!slot.id) continue;
      entries.push({
        request: { method: 'PUT', url: `Slot/${slot.id}` },
        resource: { ...slot, status: 'free' },
      });
    }
  }
  return { resourceType: 'Bundle', type: 'transaction', entry: entries };
}
