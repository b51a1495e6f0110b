// The estimated date of delivery (LOINC 11778-8) of a pregnancy, recorded at the dating visit: 280
// days after the last period's first day, so on the seeding day it lies 280 minus the gestational age
// ahead. Home reads it to show the weeks and the due date.
import type { Observation, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import { OBSERVATION_CATEGORY, loinc } from './codes';
import type { DemoContext } from './demo-context';
import { GESTATION_TODAY } from './patients';

export const ESTIMATED_DELIVERY_DATE = { code: '11778-8', display: 'Delivery date Estimated' } as const;
const PREGNANCY_DAYS = 280;

export interface DueDateSubject {
  key: keyof typeof GESTATION_TODAY;
  patient: Reference<Patient>;
  performer: Reference<Practitioner>;
  /** The dating visit (first visit), as a day offset from the seeding day. */
  recordedDaysFromToday: number;
}

export function addDueDate({ tx, calendar }: DemoContext, subject: DueDateSubject): void {
  const observation: Observation = {
    resourceType: 'Observation',
    status: 'final',
    category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: 'exam', display: 'Exam' }], text: 'Exam' }],
    code: loinc(ESTIMATED_DELIVERY_DATE.code, ESTIMATED_DELIVERY_DATE.display, 'Estimated date of delivery'),
    subject: subject.patient,
    effectiveDateTime: calendar.at(subject.recordedDaysFromToday, 10),
    performer: [subject.performer],
    valueDateTime: calendar.date(PREGNANCY_DAYS - GESTATION_TODAY[subject.key]),
    note: [{ text: 'Dated by first-trimester ultrasound.' }],
  };
  tx.add(`due-date-${subject.key}`, observation);
}
