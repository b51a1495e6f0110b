// The clinic's schedule of pregnancy care as data: a PlanDefinition that PlanDefinition/$apply turns
// into each patient's CarePlan, so a clinic changes the schedule by editing this template, not code.
// Timings are weeks of pregnancy (from the first day of the last period); the postpartum check sits
// 6-8 weeks after the due date (46-48 weeks). Scans and visits use Bloom's own codes; appointments
// that did them carry the same code as their reasonCode, which is how $apply finds them done. The
// mood check (EPDS) is offered at 28-32 weeks and 4-8 weeks after the birth (44-48 weeks): its
// definitionCanonical names the Questionnaire to answer, and a completed response marks it done.
import type { CodeableConcept, PlanDefinition, PlanDefinitionAction } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../../fhir/screening/epds';
import { PREGNANCY_PLAN_URL } from '../../bots/care-plan/registration';
import { CVX, LOINC, UCUM } from './codes';

export { PREGNANCY_PLAN_URL } from '../../bots/care-plan/registration';
export const PREGNANCY_CARE_CODES = 'https://bloom.example/fhir/CodeSystem/pregnancy-care';

/** A Bloom pregnancy-care code, e.g. for an appointment's reasonCode. */
export function pregnancyCareCode(code: PregnancyCareCode): CodeableConcept {
  return {
    coding: [{ system: PREGNANCY_CARE_CODES, code, display: CARE_DISPLAY[code] }],
    text: CARE_DISPLAY[code],
  };
}

export type PregnancyCareCode = 'booking-visit' | 'dating-scan' | 'anatomy-scan' | 'postpartum-check';

const CARE_DISPLAY: Record<PregnancyCareCode, string> = {
  'booking-visit': 'Booking visit',
  'dating-scan': 'Dating scan',
  'anatomy-scan': 'Anatomy scan',
  'postpartum-check': 'Postpartum check',
};

/** The Edinburgh Postnatal Depression Scale as an action: answering the clinic's Questionnaire. */
function moodCheck(low: number, high: number, description: string): PlanDefinitionAction {
  return {
    title: 'Mood check (EPDS)',
    description,
    code: [
      {
        coding: [{ system: LOINC, code: '71354-5', display: 'Edinburgh Postnatal Depression Scale [EPDS]' }],
        text: 'Mood check (EPDS)',
      },
    ],
    definitionCanonical: EPDS_QUESTIONNAIRE_URL,
    timingRange: weeks(low, high),
  };
}

function weeks(low: number, high: number): PlanDefinitionAction['timingRange'] {
  return {
    low: { value: low, unit: 'weeks', system: UCUM, code: 'wk' },
    high: { value: high, unit: 'weeks', system: UCUM, code: 'wk' },
  };
}

export function buildPregnancyPlanDefinition(): PlanDefinition {
  return {
    resourceType: 'PlanDefinition',
    url: PREGNANCY_PLAN_URL,
    name: 'PregnancyCare',
    title: 'Pregnancy care plan',
    status: 'active',
    type: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/plan-definition-type', code: 'clinical-protocol' },
      ],
    },
    description:
      "The clinic's schedule of visits, scans, tests and vaccines from booking to after the birth.",
    action: [
      {
        title: 'Booking visit',
        description: 'Your first visit: your history, blood tests and planning your care.',
        code: [pregnancyCareCode('booking-visit')],
        timingRange: weeks(6, 10),
      },
      {
        title: 'Dating scan',
        description: 'An ultrasound that checks how far along you are and sets your due date.',
        code: [pregnancyCareCode('dating-scan')],
        timingRange: weeks(10, 14),
      },
      {
        title: 'Anatomy scan',
        description: "An ultrasound that looks at your baby's growth and organs.",
        code: [pregnancyCareCode('anatomy-scan')],
        timingRange: weeks(18, 22),
      },
      {
        title: 'Glucose test',
        description: 'A blood test one hour after a sugary drink, to check for gestational diabetes.',
        code: [
          {
            coding: [
              {
                system: LOINC,
                code: '1504-0',
                display: 'Glucose [Mass/volume] in Serum or Plasma --1 hour post 50 g glucose PO',
              },
            ],
            text: 'Glucose test',
          },
        ],
        timingRange: weeks(24, 28),
      },
      {
        title: 'Tdap vaccine',
        description: 'A whooping cough vaccine that passes protection to your baby.',
        code: [{ coding: [{ system: CVX, code: '115', display: 'Tdap' }], text: 'Tdap vaccine' }],
        timingRange: weeks(27, 36),
      },
      moodCheck(28, 32, 'Ten short questions about how you have been feeling in the past week.'),
      {
        title: 'Group B strep swab',
        description: 'A quick swab that shows whether you need antibiotics during labour.',
        code: [
          {
            coding: [
              {
                system: LOINC,
                code: '72607-5',
                display:
                  'Streptococcus agalactiae [Presence] in Vaginal fluid+Rectum by Organism specific culture',
              },
            ],
            text: 'Group B strep swab',
          },
        ],
        timingRange: weeks(36, 37),
      },
      moodCheck(44, 48, 'The same ten questions after the birth, when low mood is most common.'),
      {
        title: 'Postpartum check',
        description: 'A visit 6 to 8 weeks after the birth to see how you and your baby are doing.',
        code: [pregnancyCareCode('postpartum-check')],
        timingRange: weeks(46, 48),
      },
    ],
  };
}
