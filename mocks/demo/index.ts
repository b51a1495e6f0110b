// The demo clinic of issue #2 item 5, built for a given seeding day: the "Bloom Clinic" Project and
// one FHIR transaction Bundle holding everything else, with `urn:uuid:` references between its
// entries. Every date is relative to `today` (see calendar.ts), so the demo never goes stale.
import type { Bundle, Project } from '@medplum/fhirtypes';
import { addAppointments, upcomingStarts } from './appointments';
import {
  aishaAppointments,
  aishaLabReports,
  aishaMedications,
  aishaMessages,
  aishaVitals,
} from './aisha-record';
import { DemoCalendar } from './calendar';
import { aishaTimeline, mariaTimeline } from './care-timeline';
import { addClinic, buildDemoProject } from './clinic';
export { DEMO_PROJECT_IDENTIFIER } from './clinic';
export { DemoCalendar } from './calendar';
export { buildDemoSlots, SLOT_DAYS_AHEAD } from './schedule';
import type { DemoContext } from './demo-context';
import { addDueDate } from './due-date';
import { addImmunizations } from './immunizations';
import { addLabReport } from './lab-reports';
import { mariaLabReports } from './maria-lab-reports';
import { mariaAppointments, mariaImmunizations, mariaMedications, mariaMessages } from './maria-record';
import { addMedicationRequests } from './medications';
import { addMessageThread } from './messages';
import { addPatients } from './patients';
import { addScheduleAndSlots } from './schedule';
import { TransactionBuilder } from './transaction-builder';
import { addVitalSigns, buildWeeklyReadings } from './vital-signs';

export {
  DEFAULT_DEMO_PASSWORD,
  DEMO_ACCOUNTS,
  DEMO_PROJECT_NAME,
  getDemoAccount,
  getDemoPassword,
} from './accounts';
export type { DemoAccount, DemoRole } from './accounts';

/** Weeks of home vital signs in Maria's record (issue #2: "20 weeks of vitals"). */
export const MARIA_VITAL_WEEKS = 20;

export interface DemoClinic {
  /** The platform Project the demo belongs to; written first, it marks the clinic as seeded. */
  project: Project;
  /** Everything else, as one transaction: written all or nothing. */
  bundle: Bundle;
}

export function buildDemoClinic(today: Date): DemoClinic {
  const calendar = new DemoCalendar(today);
  const ctx: DemoContext = { tx: new TransactionBuilder(), calendar };

  const clinic = addClinic(ctx);
  const patients = addPatients(ctx, clinic);
  const maria = { patient: patients.maria, patientKey: 'maria' };
  const aisha = { patient: patients.aisha, patientKey: 'aisha' };
  const mariaDates = mariaTimeline(calendar);
  const aishaDates = aishaTimeline(calendar);

  // Appointments first decide which slots are busy, then book into them.
  const mariaVisits = mariaAppointments(mariaDates);
  const aishaVisits = aishaAppointments(aishaDates);
  const booked = new Set([...upcomingStarts(ctx, mariaVisits), ...upcomingStarts(ctx, aishaVisits)]);
  const { slotsByStart } = addScheduleAndSlots(ctx, clinic.drChen, clinic.location, booked);
  const withClinic = { practitioner: clinic.drChen, location: clinic.location };
  addAppointments(ctx, { ...maria, ...withClinic }, mariaVisits, slotsByStart);
  addAppointments(ctx, { ...aisha, ...withClinic }, aishaVisits, slotsByStart);

  const lab = { laboratory: clinic.laboratory, interpreter: clinic.drChen, collector: clinic.drChen };
  for (const report of mariaLabReports(mariaDates)) {
    addLabReport(ctx, { ...maria, ...lab }, report);
  }
  for (const report of aishaLabReports(aishaDates)) {
    addLabReport(ctx, { ...aisha, ...lab }, report);
  }

  addVitalSigns(
    ctx,
    { key: 'maria', patient: patients.maria, performer: patients.maria },
    buildWeeklyReadings(MARIA_VITAL_WEEKS, 141.2),
  );
  addVitalSigns(
    ctx,
    { key: 'aisha', patient: patients.aisha, performer: clinic.drChen },
    aishaVitals(aishaDates),
  );

  // Maria's due date only: the demo keeps every date within 46 days ahead, and Aisha's lies further.
  addDueDate(ctx, {
    key: 'maria',
    patient: patients.maria,
    performer: clinic.drChen,
    recordedDaysFromToday: mariaDates.firstVisit,
  });

  addMedicationRequests(ctx, { ...maria, requester: clinic.drChen }, mariaMedications(mariaDates));
  addMedicationRequests(ctx, { ...aisha, requester: clinic.drChen }, aishaMedications(aishaDates));

  addImmunizations(
    ctx,
    { ...maria, performer: clinic.drChen, location: clinic.location },
    mariaImmunizations(mariaDates),
  );

  addMessageThread(ctx, { ...maria, practitioner: clinic.drChen }, mariaMessages(mariaDates, calendar));
  addMessageThread(ctx, { ...aisha, practitioner: clinic.drChen }, aishaMessages(aishaDates));

  return { project: buildDemoProject(), bundle: ctx.tx.build() };
}
