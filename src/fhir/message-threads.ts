// Bloom's messages as FHIR data, shared by the app (which writes them) and the server (which upgrades
// messages written before threads). Categories (SPEC §7 "Create Communication (message or
// appointment request)"): the care team tells a plain message from an appointment request by this
// code, and the messages screen marks a request in the thread. Threads as Medplum's messaging
// components keep them (ThreadChat, ThreadInbox; NewTopicDialog for a new header): a header
// Communication about the patient without partOf, each message partOf it, and the header's `sent`
// PATCHed after each message.
import type { Communication, Patient, Reference } from '@medplum/fhirtypes';

export const COMMUNICATION_CATEGORY_SYSTEM = 'https://bloom.example/fhir/CodeSystem/communication-category';

export const APPOINTMENT_REQUEST_CATEGORY = {
  system: COMMUNICATION_CATEGORY_SYSTEM,
  code: 'appointment-request',
  display: 'Appointment request',
} as const;

export const MESSAGE_CATEGORY = {
  system: COMMUNICATION_CATEGORY_SYSTEM,
  code: 'message',
  display: 'Message',
} as const;

/** The topic of a thread Bloom opens for a patient's first message. */
export const NEW_THREAD_TOPIC = 'Messages with my care team';

/** The thread a message goes to: the header's id and its participants. */
export interface ThreadTarget {
  readonly id?: string | null;
  readonly recipient?: ReadonlyArray<{
    readonly reference?: string | null;
    readonly display?: string | null;
  } | null> | null;
}

type Recipient = NonNullable<Communication['recipient']>[number];

/** References with a `reference`, display kept, leaving out `except` (the sender herself). */
export function recipientsOf(
  recipients: ThreadTarget['recipient'] | readonly Reference[] | undefined,
  except?: string,
): Recipient[] {
  return (recipients ?? []).flatMap((r): Recipient[] =>
    r?.reference && r.reference !== except
      ? [{ reference: r.reference, ...(r.display ? { display: r.display } : {}) }]
      : [],
  );
}

/**
 * A thread header about her, as Medplum's NewTopicDialog makes one: no partOf, status in-progress,
 * subject and sender her Patient, recipients herself and her care team, a topic.
 */
export function newThread(
  patient: Reference<Patient>,
  careTeam: readonly Reference[] | undefined,
): Communication {
  return {
    resourceType: 'Communication',
    status: 'in-progress',
    subject: patient,
    sender: patient,
    recipient: [...recipientsOf([patient]), ...recipientsOf(careTeam, patient.reference)],
    topic: { text: NEW_THREAD_TOPIC },
  };
}

/** The JSON Patch Medplum's ThreadChat sends to the thread header after each message. */
export function threadTouch(sent: string): { op: 'add'; path: string; value: string }[] {
  return [{ op: 'add', path: '/sent', value: sent }];
}
