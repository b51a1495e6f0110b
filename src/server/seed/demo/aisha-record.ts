// Aisha Khan's smaller record (22 weeks pregnant on the seeding day): two sets of clinic vitals,
// one blood count, a prescription, appointments and one short exchange of messages. It exists so
// access-control tests have a second patient whose data Maria must not see.
import type { AppointmentSpec } from './appointments';
import type { AishaTimeline } from './care-timeline';
import { diagnosticSection, loinc } from './codes';
import type { LabReportSpec } from './lab-reports';
import type { MedicationSpec } from './medications';
import type { MessageSpec } from './messages';
import type { VitalReading } from './vital-signs';

export function aishaVitals(timeline: AishaTimeline): VitalReading[] {
  return [
    {
      daysFromToday: timeline.firstVisit,
      hour: 9,
      systolic: 112,
      diastolic: 70,
      heartRate: 76,
      weightLbs: 131.4,
    },
    {
      daysFromToday: timeline.anatomyScan,
      hour: 13,
      systolic: 110,
      diastolic: 72,
      heartRate: 82,
      weightLbs: 138.2,
    },
  ];
}

export function aishaLabReports(timeline: AishaTimeline): LabReportSpec[] {
  return [
    {
      key: 'cbc',
      code: loinc('58410-2', 'CBC panel - Blood by Automated count', 'Complete blood count'),
      section: diagnosticSection('HM', 'Hematology'),
      collectedDaysFromToday: timeline.firstVisit,
      issuedAfterDays: 0,
      specimens: [
        {
          key: 'edta',
          type: 'Whole blood (EDTA)',
          collectedHour: 9,
          collectedMinute: 30,
          receivedAfterMinutes: 40,
          note: 'Drawn at the first prenatal visit.',
        },
      ],
      results: [
        {
          key: 'wbc',
          code: loinc('6690-2', 'Leukocytes [#/volume] in Blood by Automated count', 'White blood cells'),
          value: { value: 8.1, unit: '10*3/uL', ucum: '10*3/uL' },
          range: { low: 4.5, high: 13.0, text: '4.5-13.0 10*3/uL (pregnancy)' },
          interpretation: 'N',
        },
        {
          key: 'hemoglobin',
          code: loinc('718-7', 'Hemoglobin [Mass/volume] in Blood', 'Hemoglobin'),
          value: { value: 12.4, unit: 'g/dL', ucum: 'g/dL' },
          range: { low: 11.0, high: 14.0, text: '11.0-14.0 g/dL (first trimester)' },
          interpretation: 'N',
        },
        {
          key: 'platelets',
          code: loinc('777-3', 'Platelets [#/volume] in Blood by Automated count', 'Platelets'),
          value: { value: 254, unit: '10*3/uL', ucum: '10*3/uL' },
          range: { low: 150, high: 400, text: '150-400 10*3/uL' },
          interpretation: 'N',
        },
      ],
      conclusion: 'Normal blood count.',
    },
  ];
}

export function aishaMedications(timeline: AishaTimeline): MedicationSpec[] {
  return [
    {
      key: 'prenatal-vitamins',
      medication: 'Prenatal multivitamin, 1 tablet',
      status: 'active',
      authoredDaysFromToday: timeline.firstVisit,
      dosage: 'Take 1 tablet by mouth once daily.',
      reason: 'Pregnancy supplementation',
    },
  ];
}

export function aishaAppointments(timeline: AishaTimeline): AppointmentSpec[] {
  return [
    {
      key: 'first-visit',
      description: 'First prenatal visit',
      daysFromToday: timeline.firstVisit,
      hour: 9,
      reasons: ['booking-visit', 'dating-scan'],
    },
    {
      key: 'anatomy-scan',
      description: 'Anatomy ultrasound (20 weeks)',
      daysFromToday: timeline.anatomyScan,
      hour: 13,
      reasons: ['anatomy-scan'],
    },
    {
      key: 'week-24',
      description: 'Prenatal visit (24 weeks)',
      daysFromToday: timeline.week24Visit,
      hour: 15,
    },
  ];
}

export function aishaMessages(timeline: AishaTimeline): MessageSpec[] {
  return [
    {
      daysFromToday: timeline.anatomyScan + 1,
      hour: 19,
      minute: 0,
      from: 'patient',
      text: "Hi Dr. Chen, I've been getting heartburn most evenings. Is it safe to take antacids?",
    },
    {
      daysFromToday: timeline.anatomyScan + 2,
      hour: 8,
      minute: 45,
      from: 'practitioner',
      text:
        'Hi Aisha, yes - calcium carbonate antacids are safe in pregnancy. Smaller meals, and not lying down for two hours after ' +
        'eating, help too. See you at your 24-week visit.',
    },
  ];
}
