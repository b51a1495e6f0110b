// MedicationRequests: what the general practitioner prescribed. SPEC §3 lists the patient as
// `patient`; in FHIR R4 MedicationRequest that element is `subject`.
import type { MedicationRequest, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';

export interface MedicationSpec {
  key: string;
  /** medicationCodeableConcept.text, e.g. 'Ferrous sulfate 325 mg tablet'. */
  medication: string;
  status: 'active' | 'completed';
  authoredDaysFromToday: number;
  dosage: string;
  reason: string;
  note?: string;
}

export interface PrescriptionPeople {
  patient: Reference<Patient>;
  patientKey: string;
  requester: Reference<Practitioner>;
}

export function addMedicationRequests(
  { tx, calendar }: DemoContext,
  people: PrescriptionPeople,
  specs: readonly MedicationSpec[],
): void {
  for (const spec of specs) {
    const request: MedicationRequest = {
      resourceType: 'MedicationRequest',
      status: spec.status,
      intent: 'order',
      medicationCodeableConcept: { text: spec.medication },
      subject: people.patient,
      authoredOn: calendar.at(spec.authoredDaysFromToday, 16),
      requester: people.requester,
      reasonCode: [{ text: spec.reason }],
      dosageInstruction: [{ text: spec.dosage }],
      ...(spec.note ? { note: [{ text: spec.note }] } : {}),
    };
    tx.add(`medication-request-${people.patientKey}-${spec.key}`, request, spec.medication);
  }
}
