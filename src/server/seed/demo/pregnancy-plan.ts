// The clinic's schedule of pregnancy care as data: a PlanDefinition that PlanDefinition/$apply turns
// into each patient's CarePlan, so a clinic changes the schedule by editing this template, not code.
// Timings are weeks of pregnancy (from the first day of the last period); the postpartum check sits
// 6-8 weeks after the due date (46-48 weeks). Scans and visits use Bloom's own codes; appointments
// that did them carry the same code as their reasonCode, which is how $apply finds them done. The
// mood check (EPDS) is offered at 28-32 weeks and 4-8 weeks after the birth (44-48 weeks): its
// definitionCanonical names the Questionnaire to answer, and a completed response marks it done.
// Each action's title, code text and description carry their Spanish (translation extensions on
// `_title`, `_text`, `_description`); $apply copies them into the patient's CarePlan.
import type { CodeableConcept, Element, PlanDefinition, PlanDefinitionAction } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL } from '../../../fhir/screening/epds';
import { PREGNANCY_PLAN_URL } from '../../bots/care-plan/registration';
import { CVX, LOINC, UCUM } from './codes';
import { spanish } from './translation';

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

/** An action's texts in Spanish: its title (also its code's text) and its description. */
interface SpanishTexts {
  readonly title: string;
  readonly description: string;
}

type TranslatedAction = PlanDefinitionAction & { _title?: Element; _description?: Element };

/** The action with the Spanish of its title, its first code's text and its description. */
function inSpanish(action: PlanDefinitionAction, es: SpanishTexts): TranslatedAction {
  const [code, ...others] = action.code ?? [];
  return {
    ...action,
    _title: spanish(es.title),
    _description: spanish(es.description),
    code: code ? [{ ...code, _text: spanish(es.title) } as CodeableConcept, ...others] : undefined,
  };
}

/** The Edinburgh Postnatal Depression Scale as an action: answering the clinic's Questionnaire. */
function moodCheck(low: number, high: number, description: string, es: string): PlanDefinitionAction {
  return inSpanish(
    {
      title: 'Mood check (EPDS)',
      description,
      code: [
        {
          coding: [
            { system: LOINC, code: '71354-5', display: 'Edinburgh Postnatal Depression Scale [EPDS]' },
          ],
          text: 'Mood check (EPDS)',
        },
      ],
      definitionCanonical: EPDS_QUESTIONNAIRE_URL,
      timingRange: weeks(low, high),
    },
    { title: 'Control del estado de ánimo (EPDS)', description: es },
  );
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
      inSpanish(
        {
          title: 'Booking visit',
          description: 'Your first visit: your history, blood tests and planning your care.',
          code: [pregnancyCareCode('booking-visit')],
          timingRange: weeks(6, 10),
        },
        {
          title: 'Primera consulta prenatal',
          description:
            'Su primera consulta: sus antecedentes, análisis de sangre y la planificación de su atención.',
        },
      ),
      inSpanish(
        {
          title: 'Dating scan',
          description: 'An ultrasound that checks how far along you are and sets your due date.',
          code: [pregnancyCareCode('dating-scan')],
          timingRange: weeks(10, 14),
        },
        {
          title: 'Ecografía de datación',
          description:
            'Una ecografía que revisa cuántas semanas de embarazo tiene y fija su fecha probable de parto.',
        },
      ),
      inSpanish(
        {
          title: 'Anatomy scan',
          description: "An ultrasound that looks at your baby's growth and organs.",
          code: [pregnancyCareCode('anatomy-scan')],
          timingRange: weeks(18, 22),
        },
        {
          title: 'Ecografía anatómica',
          description: 'Una ecografía que revisa el crecimiento y los órganos de su bebé.',
        },
      ),
      inSpanish(
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
          title: 'Prueba de glucosa',
          description:
            'Un análisis de sangre una hora después de tomar una bebida azucarada, para detectar la diabetes gestacional.',
        },
      ),
      inSpanish(
        {
          title: 'Tdap vaccine',
          description: 'A whooping cough vaccine that passes protection to your baby.',
          code: [{ coding: [{ system: CVX, code: '115', display: 'Tdap' }], text: 'Tdap vaccine' }],
          timingRange: weeks(27, 36),
        },
        {
          title: 'Vacuna Tdap',
          description: 'Una vacuna contra la tos ferina que le pasa protección a su bebé.',
        },
      ),
      moodCheck(
        28,
        32,
        'Ten short questions about how you have been feeling in the past week.',
        'Diez preguntas breves sobre cómo se ha sentido en la última semana.',
      ),
      inSpanish(
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
        {
          title: 'Hisopado de estreptococo del grupo B',
          description: 'Un hisopado rápido que indica si necesitará antibióticos durante el parto.',
        },
      ),
      moodCheck(
        44,
        48,
        'The same ten questions after the birth, when low mood is most common.',
        'Las mismas diez preguntas después del parto, cuando el ánimo bajo es más frecuente.',
      ),
      inSpanish(
        {
          title: 'Postpartum check',
          description: 'A visit 6 to 8 weeks after the birth to see how you and your baby are doing.',
          code: [pregnancyCareCode('postpartum-check')],
          timingRange: weeks(46, 48),
        },
        {
          title: 'Control posparto',
          description: 'Una consulta de 6 a 8 semanas después del parto para ver cómo están usted y su bebé.',
        },
      ),
    ],
  };
}
