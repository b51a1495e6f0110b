// Message threads between a patient and the practitioner, shaped as Medplum's messaging components
// read them (ThreadChat, ThreadInbox in @medplum/react): the thread header is a Communication with
// no `partOf` (subject the patient, `topic` text, sender who opened it, recipient both people,
// status in-progress, `sent` the last message's time as ThreadChat's PATCH leaves it), and each
// message is a Communication `partOf` the header (SPEC §3): status completed, subject the patient,
// sender and recipient with display, payload contentString, sent.
import type { Communication, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';

export interface MessageSpec {
  daysFromToday: number;
  hour: number;
  minute: number;
  from: 'patient' | 'practitioner';
  text: string;
}

export interface ThreadPeople {
  patient: Reference<Patient>;
  patientKey: string;
  practitioner: Reference<Practitioner>;
}

/** The topic of each demo patient's thread with Dr. Chen. */
export const DEMO_THREAD_TOPIC = 'Questions for Dr. Chen';

export function addMessageThread(
  { tx, calendar }: DemoContext,
  people: ThreadPeople,
  messages: readonly MessageSpec[],
  topic: string = DEMO_THREAD_TOPIC,
): Reference<Communication> {
  const senderOf = (message: MessageSpec) =>
    message.from === 'patient' ? people.patient : people.practitioner;
  const sentOf = (message: MessageSpec) => calendar.at(message.daysFromToday, message.hour, message.minute);
  const first = messages[0];
  const last = messages[messages.length - 1];
  if (!first || !last) {
    throw new Error(`The demo thread '${topic}' of ${people.patientKey} has no messages`);
  }
  const header: Communication = {
    resourceType: 'Communication',
    status: 'in-progress',
    subject: people.patient,
    topic: { text: topic },
    sender: senderOf(first),
    recipient: [people.patient, people.practitioner],
    sent: sentOf(last),
  };
  const thread = tx.add(`thread-${people.patientKey}`, header);
  messages.forEach((message, index) => {
    const fromPatient = message.from === 'patient';
    const sent = sentOf(message);
    const communication: Communication = {
      resourceType: 'Communication',
      status: 'completed',
      partOf: [thread],
      subject: people.patient,
      sender: senderOf(message),
      recipient: [fromPatient ? people.practitioner : people.patient],
      payload: [{ contentString: message.text }],
      sent,
      received: sent,
    };
    tx.add(`communication-${people.patientKey}-${String(index + 1).padStart(2, '0')}`, communication);
  });
  return thread;
}
