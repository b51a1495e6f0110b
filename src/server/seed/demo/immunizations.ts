// Immunizations given and due. SPEC §4 splits the vaccines list by date: upcoming when the
// occurrence is later than now, past otherwise. A vaccine that is due has not been given, so it is
// recorded with R4 status 'not-done' and a statusReason saying it is scheduled, never 'completed'
// (which would claim a dose that nobody gave).
import type { Immunization, Location, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import { CVX } from './codes';
import type { DemoContext } from './demo-context';

export interface ImmunizationSpec {
  key: string;
  vaccine: string;
  cvx: { code: string; display: string };
  daysFromToday: number;
  hour: number;
  /** Given (in the past) or due (in the future). */
  given: boolean;
  lotNumber?: string;
  note: string;
}

export interface VaccinationPeople {
  patient: Reference<Patient>;
  patientKey: string;
  performer: Reference<Practitioner>;
  location: Reference<Location>;
}

export function addImmunizations(
  { tx, calendar }: DemoContext,
  people: VaccinationPeople,
  specs: readonly ImmunizationSpec[],
): void {
  for (const spec of specs) {
    const immunization: Immunization = {
      resourceType: 'Immunization',
      status: spec.given ? 'completed' : 'not-done',
      vaccineCode: {
        coding: [{ system: CVX, code: spec.cvx.code, display: spec.cvx.display }],
        text: spec.vaccine,
      },
      patient: people.patient,
      occurrenceDateTime: calendar.at(spec.daysFromToday, spec.hour),
      primarySource: true,
      location: people.location,
      note: [{ text: spec.note }],
      ...(spec.given
        ? {
            performer: [{ actor: people.performer }],
            lotNumber: spec.lotNumber,
            site: { text: 'Left upper arm' },
            route: { text: 'Intramuscular' },
          }
        : { statusReason: { text: 'Not yet given: scheduled for an upcoming visit' } }),
    };
    tx.add(`immunization-${people.patientKey}-${spec.key}`, immunization, spec.vaccine);
  }
}
