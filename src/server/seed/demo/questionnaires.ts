// The clinic's two forms (what Medplum's patient portal lists as questionnaires): a
// pregnancy intake questionnaire and a mood screening with the structure of the Edinburgh Postnatal
// Depression Scale: 10 single-choice items, each answer a Coding scored 0-3 (its code), some items
// scored in reverse. The item texts are Bloom's own paraphrases, not the scale's wording.
import type { Coding, Element, Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';
import { spanish } from './translation';

export const INTAKE_QUESTIONNAIRE_URL = 'https://bloom.example/fhir/Questionnaire/pregnancy-intake';
export const MOOD_SCREENING_URL = 'https://bloom.example/fhir/Questionnaire/pregnancy-mood-screening';
/** The code system of the mood screening's answers: the code is the answer's score, 0-3. */
export const MOOD_SCORE_SYSTEM = 'https://bloom.example/fhir/CodeSystem/mood-screening-score';
const SMOKING_SYSTEM = 'https://bloom.example/fhir/CodeSystem/smoking-status';

/** Labels in the order shown, each with its score. */
type ScoredLabels = readonly (readonly [label: string, score: number])[];

const MORE_IS_WORSE: ScoredLabels = [
  ['Yes, most of the time', 3],
  ['Yes, some of the time', 2],
  ['Not very often', 1],
  ['No, not at all', 0],
];

/** The Spanish of every answer label of both forms. */
const ANSWER_SPANISH: Readonly<Record<string, string>> = {
  'Yes, most of the time': 'Sí, la mayor parte del tiempo',
  'Yes, some of the time': 'Sí, a veces',
  'Not very often': 'No muy a menudo',
  'No, not at all': 'No, nada',
  'As often as usual': 'Tanto como siempre',
  'As much as usual': 'Tanto como siempre',
  'A bit less than usual': 'Algo menos que antes',
  'Much less than usual': 'Mucho menos que antes',
  'Not at all': 'Nada',
  'Hardly at all': 'Casi nada',
  'Hardly ever': 'Casi nunca',
  'Yes, sometimes': 'Sí, a veces',
  'Yes, very often': 'Sí, muy a menudo',
  'Yes, quite a lot': 'Sí, bastante',
  'No, not much': 'No, no mucho',
  'Yes, most of the time I have not been coping': 'Sí, la mayor parte del tiempo no he podido con ellas',
  'Yes, sometimes I have not coped as well as usual': 'Sí, a veces no he podido con ellas como siempre',
  'No, most of the time I have coped well': 'No, la mayor parte del tiempo he podido con ellas',
  'No, I have coped as well as ever': 'No, he podido con ellas como siempre',
  'Yes, quite often': 'Sí, bastante a menudo',
  Sometimes: 'A veces',
  Never: 'Nunca',
  'Never smoked': 'Nunca he fumado',
  'Stopped before or during this pregnancy': 'Lo dejé antes o durante este embarazo',
  'Smokes now': 'Fumo ahora',
};

/** An answer option's Coding carrying its Spanish (`_display`) as the form offers it. */
function offered(coding: Coding): Coding {
  const es = coding.display ? ANSWER_SPANISH[coding.display] : undefined;
  if (!es) throw new Error(`No Spanish for the answer ${coding.display ?? coding.code ?? ''}`);
  const translated: Coding & { _display: Element } = { ...coding, _display: spanish(es) };
  return translated;
}

/** An item with the Spanish of its text (`_text`). */
function withSpanish(item: QuestionnaireItem, es: string): QuestionnaireItem {
  const translated: QuestionnaireItem & { _text: Element } = { ...item, _text: spanish(es) };
  return translated;
}

/** The ten items: linkId, text and its Spanish, and answer labels with scores (0 is the calmest answer). */
export const MOOD_SCREENING_ITEMS: readonly {
  linkId: string;
  text: string;
  es: string;
  answers: ScoredLabels;
}[] = [
  {
    linkId: 'humour',
    text: 'Over the past week, I have been able to find humour in everyday things',
    es: 'En la última semana, he podido encontrar el humor en las cosas de todos los días',
    answers: [
      ['As often as usual', 0],
      ['A bit less than usual', 1],
      ['Much less than usual', 2],
      ['Not at all', 3],
    ],
  },
  {
    linkId: 'looking-forward',
    text: 'Over the past week, I have looked forward to things with pleasure',
    es: 'En la última semana, he esperado las cosas con ilusión',
    answers: [
      ['As much as usual', 0],
      ['A bit less than usual', 1],
      ['Much less than usual', 2],
      ['Hardly at all', 3],
    ],
  },
  {
    linkId: 'self-blame',
    text: 'Over the past week, I have blamed myself more than was fair when things went wrong',
    es: 'En la última semana, me he culpado más de lo justo cuando las cosas salieron mal',
    answers: MORE_IS_WORSE,
  },
  {
    linkId: 'worry',
    text: 'Over the past week, I have felt anxious or worried without a clear reason',
    es: 'En la última semana, me he sentido ansiosa o preocupada sin un motivo claro',
    answers: [
      ['No, not at all', 0],
      ['Hardly ever', 1],
      ['Yes, sometimes', 2],
      ['Yes, very often', 3],
    ],
  },
  {
    linkId: 'panic',
    text: 'Over the past week, I have felt frightened or panicky without a clear reason',
    es: 'En la última semana, he sentido miedo o pánico sin un motivo claro',
    answers: [
      ['Yes, quite a lot', 3],
      ['Yes, sometimes', 2],
      ['No, not much', 1],
      ['No, not at all', 0],
    ],
  },
  {
    linkId: 'coping',
    text: 'Over the past week, things have felt like too much for me to handle',
    es: 'En la última semana, he sentido que las cosas me superan',
    answers: [
      ['Yes, most of the time I have not been coping', 3],
      ['Yes, sometimes I have not coped as well as usual', 2],
      ['No, most of the time I have coped well', 1],
      ['No, I have coped as well as ever', 0],
    ],
  },
  {
    linkId: 'sleep',
    text: 'Over the past week, I have been so unhappy that I have had trouble sleeping',
    es: 'En la última semana, me he sentido tan infeliz que me ha costado dormir',
    answers: MORE_IS_WORSE,
  },
  {
    linkId: 'sadness',
    text: 'Over the past week, I have felt sad or low',
    es: 'En la última semana, me he sentido triste o decaída',
    answers: MORE_IS_WORSE,
  },
  {
    linkId: 'crying',
    text: 'Over the past week, I have been so unhappy that I have cried',
    es: 'En la última semana, me he sentido tan infeliz que he llorado',
    answers: MORE_IS_WORSE,
  },
  {
    linkId: 'self-harm',
    text: 'Over the past week, the thought of harming myself has come to me',
    es: 'En la última semana, se me ha ocurrido la idea de hacerme daño',
    answers: [
      ['Yes, quite often', 3],
      ['Sometimes', 2],
      ['Hardly ever', 1],
      ['Never', 0],
    ],
  },
];

/** The answer Coding of a mood screening item with the given score. */
export function moodAnswer(linkId: string, score: number): Coding {
  const item = MOOD_SCREENING_ITEMS.find((candidate) => candidate.linkId === linkId);
  const answer = item?.answers.find(([, value]) => value === score);
  if (!item || !answer) {
    throw new Error(`Mood screening item ${linkId} has no answer scored ${score}`);
  }
  return { system: MOOD_SCORE_SYSTEM, code: String(score), display: answer[0] };
}

/** The smoking answers of the intake questionnaire. */
export function smokingAnswer(code: 'never' | 'stopped' | 'current'): Coding {
  const display = {
    never: 'Never smoked',
    stopped: 'Stopped before or during this pregnancy',
    current: 'Smokes now',
  };
  return { system: SMOKING_SYSTEM, code, display: display[code] };
}

const INTAKE_ITEMS: QuestionnaireItem[] = [
  withSpanish(
    { linkId: 'lmp', type: 'date', text: 'First day of your last menstrual period', required: true },
    'Primer día de su última menstruación',
  ),
  withSpanish(
    {
      linkId: 'previous-pregnancies',
      type: 'integer',
      text: 'How many times have you been pregnant before?',
    },
    '¿Cuántas veces ha estado embarazada antes?',
  ),
  withSpanish(
    { linkId: 'previous-births', type: 'integer', text: 'How many babies have you given birth to?' },
    '¿A cuántos bebés ha dado a luz?',
  ),
  withSpanish(
    { linkId: 'allergies', type: 'text', text: 'Allergies to medicines, foods or latex (or "none")' },
    'Alergias a medicamentos, alimentos o látex (o "ninguna")',
  ),
  withSpanish(
    { linkId: 'medications', type: 'text', text: 'Medicines, vitamins and supplements you take' },
    'Medicamentos, vitaminas y suplementos que toma',
  ),
  withSpanish(
    {
      linkId: 'smoking',
      type: 'choice',
      text: 'Do you smoke?',
      answerOption: (['never', 'stopped', 'current'] as const).map((code) => ({
        valueCoding: offered(smokingAnswer(code)),
      })),
    },
    '¿Fuma?',
  ),
  withSpanish(
    {
      linkId: 'emergency-contact',
      type: 'group',
      text: 'Emergency contact',
      item: [
        withSpanish({ linkId: 'emergency-contact-name', type: 'string', text: 'Name' }, 'Nombre'),
        withSpanish({ linkId: 'emergency-contact-phone', type: 'string', text: 'Phone number' }, 'Teléfono'),
      ],
    },
    'Contacto de emergencia',
  ),
];

export interface ClinicQuestionnaires {
  intake: Questionnaire;
  moodScreening: Questionnaire;
}

export function addQuestionnaires({ tx, calendar }: DemoContext): ClinicQuestionnaires {
  const published = calendar.at(-365, 12);
  const intake: Questionnaire & { _title: Element; _description: Element } = {
    resourceType: 'Questionnaire',
    url: INTAKE_QUESTIONNAIRE_URL,
    version: '1',
    name: 'BloomPregnancyIntake',
    title: 'Pregnancy intake',
    _title: spanish('Ingreso al control prenatal'),
    status: 'active',
    subjectType: ['Patient'],
    date: published,
    publisher: 'Bloom Clinic',
    description: 'What the clinic asks before the first prenatal visit.',
    _description: spanish('Lo que la clínica pregunta antes de la primera consulta prenatal.'),
    item: INTAKE_ITEMS,
  };
  const moodScreening: Questionnaire & { _title: Element; _description: Element } = {
    resourceType: 'Questionnaire',
    url: MOOD_SCREENING_URL,
    version: '1',
    name: 'BloomPregnancyMoodScreening',
    title: 'Pregnancy mood screening',
    _title: spanish('Evaluación del estado de ánimo en el embarazo'),
    status: 'active',
    subjectType: ['Patient'],
    date: published,
    publisher: 'Bloom Clinic',
    description:
      'Ten questions about the past week, in the structure of the Edinburgh Postnatal Depression Scale: each ' +
      'answer scores 0-3 (its code), a total of 13 or more asks for a follow-up with Dr. Chen.',
    _description: spanish(
      'Diez preguntas sobre la última semana, con la estructura de la Escala de Depresión Posnatal de ' +
        'Edimburgo: cada respuesta vale de 0 a 3 (su código); un total de 13 o más pide un seguimiento con la Dra. Chen.',
    ),
    item: MOOD_SCREENING_ITEMS.map(({ linkId, text, es, answers }): QuestionnaireItem =>
      withSpanish(
        {
          linkId,
          type: 'choice',
          text,
          required: true,
          answerOption: answers.map(([, score]) => ({ valueCoding: offered(moodAnswer(linkId, score)) })),
        },
        es,
      ),
    ),
  };
  tx.add('questionnaire-pregnancy-intake', intake, intake.title);
  tx.add('questionnaire-pregnancy-mood-screening', moodScreening, moodScreening.title);
  return { intake, moodScreening };
}
