// What every demo module receives: the bundle being built and the seeding day's calendar.
import type { Location, Organization, Patient, Practitioner, Reference } from '@medplum/fhirtypes';
import type { DemoCalendar } from './calendar';
import type { TransactionBuilder } from './transaction-builder';

export interface DemoContext {
  tx: TransactionBuilder;
  calendar: DemoCalendar;
}

/** References to the clinic's people and places, shared by the clinical modules. */
export interface ClinicRefs {
  clinic: Reference<Organization>;
  laboratory: Reference<Organization>;
  location: Reference<Location>;
  drChen: Reference<Practitioner>;
  admin: Reference<Practitioner>;
}

export interface PatientRefs {
  maria: Reference<Patient>;
  aisha: Reference<Patient>;
}
