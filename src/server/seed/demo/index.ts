// The demo clinic, built for a given seeding day: the "Bloom Clinic" Project and
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
import { addCarePlan, aishaCarePlan, mariaCarePlan } from './care-plans';
import { addClinic, buildDemoProject } from './clinic';
import { addCoverage, addInsurer } from './coverage';
export { buildDemoProject, DEMO_PROJECT_IDENTIFIER } from './clinic';
export { DemoCalendar } from './calendar';
export { buildDemoSlots, SLOT_DAYS_AHEAD } from './schedule';
import type { DemoContext } from './demo-context';
import { addDueDate } from './due-date';
import { addHealthcareService } from './healthcare-service';
import { addImmunizations } from './immunizations';
import { addLabReport } from './lab-reports';
import { mariaLabReports } from './maria-lab-reports';
import { mariaAppointments, mariaImmunizations, mariaMedications, mariaMessages } from './maria-record';
import { addMedicationRequests } from './medications';
import { addMessageThread } from './messages';
import { addPatients, GESTATION_TODAY } from './patients';
import { addIntakeResponse, addMoodScreeningResponse } from './questionnaire-responses';
import { addQuestionnaires } from './questionnaires';
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

/** Weeks of home vital signs in Maria's record ("20 weeks of vitals"). */
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
  // The clinic's service first: the Schedule's availability is for it.
  addHealthcareService(ctx, { clinic: clinic.clinic, location: clinic.location });
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

  // Every pregnant patient has her due date: the one date of the demo beyond 46 days ahead.
  addDueDate(ctx, {
    key: 'maria',
    patient: patients.maria,
    performer: clinic.drChen,
    recordedDaysFromToday: mariaDates.firstVisit,
  });
  addDueDate(ctx, {
    key: 'aisha',
    patient: patients.aisha,
    performer: clinic.drChen,
    recordedDaysFromToday: aishaDates.firstVisit,
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

  // What Medplum's patient portal looks for: the clinic's service and forms, each
  // patient's care plan, insurance and answered forms.
  const author = { author: clinic.drChen };
  addCarePlan(ctx, { ...maria, ...author }, mariaCarePlan(mariaDates));
  addCarePlan(ctx, { ...aisha, ...author }, aishaCarePlan(aishaDates));

  const insurer = addInsurer(ctx);
  addCoverage(ctx, insurer, {
    ...maria,
    subscriberId: 'PHI-4821-0937',
    plan: 'Prairie Health Silver PPO',
    startDaysFromToday: -330,
  });
  addCoverage(ctx, insurer, {
    ...aisha,
    subscriberId: 'PHI-5530-1274',
    plan: 'Prairie Health Bronze HMO',
    startDaysFromToday: -200,
  });

  const forms = addQuestionnaires(ctx);
  addIntakeResponse(
    ctx,
    maria,
    forms.intake,
    { key: 'intake', authoredDaysFromToday: mariaDates.firstVisit - 3, hour: 19 },
    {
      lmpDaysFromToday: -GESTATION_TODAY.maria,
      previousPregnancies: 0,
      previousBirths: 0,
      allergies: 'None known',
      medications: 'Folic acid 400 mcg daily',
      smoking: 'never',
      emergencyContactName: 'Daniel Garcia (husband)',
      emergencyContactPhone: '+1-217-555-0188',
    },
  );
  addMoodScreeningResponse(
    ctx,
    maria,
    forms.moodScreening,
    { key: 'mood-screening', authoredDaysFromToday: mariaDates.week28Visit, hour: 8 },
    { humour: 0, 'looking-forward': 0, 'self-blame': 1, worry: 2, panic: 1, coping: 1, sleep: 1 },
  );
  addIntakeResponse(
    ctx,
    aisha,
    forms.intake,
    { key: 'intake', authoredDaysFromToday: aishaDates.firstVisit - 2, hour: 20 },
    {
      lmpDaysFromToday: -GESTATION_TODAY.aisha,
      previousPregnancies: 1,
      previousBirths: 1,
      allergies: 'Penicillin (rash)',
      medications: 'None',
      smoking: 'never',
      emergencyContactName: 'Omar Khan (husband)',
      emergencyContactPhone: '+1-217-555-0165',
    },
  );

  return { project: buildDemoProject(), bundle: ctx.tx.build() };
}
