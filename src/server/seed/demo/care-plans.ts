// Each patient's prenatal care plan (what Medplum's patient portal shows as "care plans"):
// an active CarePlan by Dr. Chen whose activities are the visits, screenings and vaccines of the
// pregnancy, each with kind, code, status and scheduled period, the visits pointing at the demo's
// Appointments as their outcomes. No date lies more than 46 days ahead (the demo's horizon).
import type {
  Appointment,
  CarePlan,
  CarePlanActivity,
  CodeableConcept,
  Patient,
  Practitioner,
  Reference,
} from '@medplum/fhirtypes';
import type { AishaTimeline, MariaTimeline } from './care-timeline';
import { CVX, PRENATAL_CARE_SERVICE, SNOMED, loinc } from './codes';
import type { DemoContext } from './demo-context';
import { GESTATION_TODAY } from './patients';

type ActivityKind = 'Appointment' | 'ServiceRequest' | 'MedicationRequest' | 'Task';
type ActivityStatus = 'not-started' | 'scheduled' | 'in-progress' | 'completed';

export interface CarePlanActivitySpec {
  kind: ActivityKind;
  code: CodeableConcept;
  status: ActivityStatus;
  description: string;
  startDaysFromToday: number;
  endDaysFromToday: number;
  /** Keys of the patient's appointments (appointments.ts) this activity led to. */
  appointmentKeys?: readonly string[];
}

export interface CarePlanSpec {
  title: string;
  description: string;
  startDaysFromToday: number;
  /** The due date, when within the demo's horizon. */
  endDaysFromToday?: number;
  activities: readonly CarePlanActivitySpec[];
}

export interface CarePlanPeople {
  patient: Reference<Patient>;
  patientKey: string;
  author: Reference<Practitioner>;
}

const CARE_PLAN_CATEGORY: CodeableConcept = {
  coding: [
    {
      system: 'http://hl7.org/fhir/us/core/CodeSystem/careplan-category',
      code: 'assess-plan',
      display: 'Assessment and Plan of Treatment',
    },
  ],
  text: 'Prenatal care plan',
};

const DEPRESSION_SCREENING: CodeableConcept = {
  coding: [{ system: SNOMED, code: '171207006', display: 'Depression screening' }],
  text: 'Mood screening questionnaire',
};

const GLUCOSE_CHALLENGE = loinc(
  '1504-0',
  'Glucose [Mass/volume] in Serum or Plasma --1 hour post 50 g glucose PO',
  'Glucose screening (1 hour, 50 g)',
);

const GROUP_B_STREP = loinc(
  '72607-5',
  'Streptococcus agalactiae [Presence] in Vaginal fluid+Rectum by Organism specific culture',
  'Group B strep swab',
);

const TDAP: CodeableConcept = {
  coding: [{ system: CVX, code: '115', display: 'Tdap' }],
  text: 'Tdap vaccine',
};

/** Days from the seeding day to 40 weeks of gestation. */
function dueDay(patient: keyof typeof GESTATION_TODAY): number {
  return 40 * 7 - GESTATION_TODAY[patient];
}

export function mariaCarePlan(timeline: MariaTimeline): CarePlanSpec {
  return {
    title: 'Prenatal care plan',
    description:
      'Routine prenatal care with Dr. Chen to 40 weeks: regular visits, screening tests and vaccines, with ' +
      'gestational diabetes managed by diet and home glucose checks.',
    startDaysFromToday: timeline.firstVisit,
    endDaysFromToday: dueDay('maria'),
    activities: [
      {
        kind: 'Appointment',
        code: structuredClone(PRENATAL_CARE_SERVICE),
        status: 'in-progress',
        description: 'Prenatal visits: monthly to 28 weeks, every two weeks to 36 weeks, then weekly.',
        startDaysFromToday: timeline.firstVisit,
        endDaysFromToday: dueDay('maria'),
        appointmentKeys: [
          'first-visit',
          'anatomy-scan',
          'week-28',
          'week-32',
          'week-34',
          'week-35',
          'week-36',
          'week-37',
        ],
      },
      {
        kind: 'ServiceRequest',
        code: GLUCOSE_CHALLENGE,
        status: 'completed',
        description: 'Glucose screening between 24 and 28 weeks.',
        startDaysFromToday: timeline.week28Visit - 28,
        endDaysFromToday: timeline.week28Visit,
        appointmentKeys: ['week-28'],
      },
      {
        kind: 'Task',
        code: DEPRESSION_SCREENING,
        status: 'completed',
        description: 'Mood screening questionnaire in the third trimester.',
        startDaysFromToday: timeline.week28Visit,
        endDaysFromToday: timeline.week32Visit,
      },
      {
        kind: 'ServiceRequest',
        code: GROUP_B_STREP,
        status: 'completed',
        description: 'Group B strep swab between 35 and 37 weeks.',
        startDaysFromToday: timeline.week35Visit,
        endDaysFromToday: timeline.week37Visit,
        appointmentKeys: ['week-35'],
      },
      {
        kind: 'MedicationRequest',
        code: TDAP,
        status: 'scheduled',
        description: 'Tdap vaccine at the 36-week visit, to protect the newborn against whooping cough.',
        startDaysFromToday: timeline.week36Visit,
        endDaysFromToday: timeline.week36Visit,
        appointmentKeys: ['week-36'],
      },
    ],
  };
}

export function aishaCarePlan(timeline: AishaTimeline): CarePlanSpec {
  return {
    title: 'Prenatal care plan',
    description: 'Routine prenatal care with Dr. Chen: regular visits and screening tests.',
    // Her due date lies beyond the demo's horizon: the plan has a start only.
    startDaysFromToday: timeline.firstVisit,
    activities: [
      {
        kind: 'Appointment',
        code: structuredClone(PRENATAL_CARE_SERVICE),
        status: 'in-progress',
        description: 'Prenatal visits: monthly to 28 weeks.',
        startDaysFromToday: timeline.firstVisit,
        endDaysFromToday: timeline.week24Visit,
        appointmentKeys: ['first-visit', 'anatomy-scan', 'week-24'],
      },
      {
        kind: 'ServiceRequest',
        code: GLUCOSE_CHALLENGE,
        status: 'not-started',
        description: 'Glucose screening between 24 and 28 weeks.',
        startDaysFromToday: timeline.week24Visit,
        endDaysFromToday: timeline.week24Visit + 28,
      },
    ],
  };
}

export function addCarePlan(
  { tx, calendar }: DemoContext,
  people: CarePlanPeople,
  spec: CarePlanSpec,
): Reference<CarePlan> {
  const activity = spec.activities.map((item): CarePlanActivity => ({
    ...(item.appointmentKeys
      ? {
          outcomeReference: item.appointmentKeys.map((key) =>
            tx.ref<Appointment>(`appointment-${people.patientKey}-${key}`),
          ),
        }
      : {}),
    detail: {
      kind: item.kind,
      code: item.code,
      status: item.status,
      description: item.description,
      scheduledPeriod: {
        start: calendar.at(item.startDaysFromToday),
        end: calendar.at(item.endDaysFromToday, 23, 59),
      },
      performer: [people.author],
    },
  }));
  return tx.add<CarePlan>(
    `care-plan-${people.patientKey}`,
    {
      resourceType: 'CarePlan',
      status: 'active',
      intent: 'plan',
      category: [CARE_PLAN_CATEGORY],
      title: spec.title,
      description: spec.description,
      subject: people.patient,
      period: {
        start: calendar.at(spec.startDaysFromToday),
        ...(spec.endDaysFromToday === undefined ? {} : { end: calendar.at(spec.endDaysFromToday, 23, 59) }),
      },
      created: calendar.at(spec.startDaysFromToday, 12),
      author: people.author,
      activity,
    },
    spec.title,
  );
}
