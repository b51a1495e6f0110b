// A message thread between a patient and the practitioner, as Communications (SPEC §3): status
// completed, subject the patient, sender and recipient with display, payload contentString, sent.
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

export function addMessageThread(
  { tx, calendar }: DemoContext,
  people: ThreadPeople,
  messages: readonly MessageSpec[],
): void {
  messages.forEach((message, index) => {
    const fromPatient = message.from === 'patient';
    const sent = calendar.at(message.daysFromToday, message.hour, message.minute);
    const communication: Communication = {
      resourceType: 'Communication',
      status: 'completed',
      subject: people.patient,
      sender: fromPatient ? people.patient : people.practitioner,
      recipient: [fromPatient ? people.practitioner : people.patient],
      payload: [{ contentString: message.text }],
      sent,
      received: sent,
    };
    tx.add(`communication-${people.patientKey}-${String(index + 1).padStart(2, '0')}`, communication);
  });
}
