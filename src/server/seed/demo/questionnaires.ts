// The clinic's two forms (what Medplum's patient portal lists as questionnaires): a
// pregnancy intake questionnaire and a mood screening with the structure of the Edinburgh Postnatal
// Depression Scale: 10 single-choice items, each answer a Coding scored 0-3 (its code), some items
// scored in reverse. The item texts are Bloom's own paraphrases, not the scale's wording.
import type { Coding, Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';

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

/** The ten items: linkId, text, and answer labels with scores (0 is the calmest answer). */
export const MOOD_SCREENING_ITEMS: readonly { linkId: string; text: string; answers: ScoredLabels }[] = [
  {
    linkId: 'humour',
    text: 'Over the past week, I have been able to find humour in everyday things',
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
    answers: MORE_IS_WORSE,
  },
  {
    linkId: 'worry',
    text: 'Over the past week, I have felt anxious or worried without a clear reason',
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
    answers: MORE_IS_WORSE,
  },
  { linkId: 'sadness', text: 'Over the past week, I have felt sad or low', answers: MORE_IS_WORSE },
  {
    linkId: 'crying',
    text: 'Over the past week, I have been so unhappy that I have cried',
    answers: MORE_IS_WORSE,
  },
  {
    linkId: 'self-harm',
    text: 'Over the past week, the thought of harming myself has come to me',
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
  { linkId: 'lmp', type: 'date', text: 'First day of your last menstrual period', required: true },
  { linkId: 'previous-pregnancies', type: 'integer', text: 'How many times have you been pregnant before?' },
  { linkId: 'previous-births', type: 'integer', text: 'How many babies have you given birth to?' },
  { linkId: 'allergies', type: 'text', text: 'Allergies to medicines, foods or latex (or "none")' },
  { linkId: 'medications', type: 'text', text: 'Medicines, vitamins and supplements you take' },
  {
    linkId: 'smoking',
    type: 'choice',
    text: 'Do you smoke?',
    answerOption: (['never', 'stopped', 'current'] as const).map((code) => ({
      valueCoding: smokingAnswer(code),
    })),
  },
  {
    linkId: 'emergency-contact',
    type: 'group',
    text: 'Emergency contact',
    item: [
      { linkId: 'emergency-contact-name', type: 'string', text: 'Name' },
      { linkId: 'emergency-contact-phone', type: 'string', text: 'Phone number' },
    ],
  },
];

export interface ClinicQuestionnaires {
  intake: Questionnaire;
  moodScreening: Questionnaire;
}

export function addQuestionnaires({ tx, calendar }: DemoContext): ClinicQuestionnaires {
  const published = calendar.at(-365, 12);
  const intake: Questionnaire = {
    resourceType: 'Questionnaire',
    url: INTAKE_QUESTIONNAIRE_URL,
    version: '1',
    name: 'BloomPregnancyIntake',
    title: 'Pregnancy intake',
    status: 'active',
    subjectType: ['Patient'],
    date: published,
    publisher: 'Bloom Clinic',
    description: 'What the clinic asks before the first prenatal visit.',
    item: INTAKE_ITEMS,
  };
  const moodScreening: Questionnaire = {
    resourceType: 'Questionnaire',
    url: MOOD_SCREENING_URL,
    version: '1',
    name: 'BloomPregnancyMoodScreening',
    title: 'Pregnancy mood screening',
    status: 'active',
    subjectType: ['Patient'],
    date: published,
    publisher: 'Bloom Clinic',
    description:
      'Ten questions about the past week, in the structure of the Edinburgh Postnatal Depression Scale: each ' +
      'answer scores 0-3 (its code), a total of 13 or more asks for a follow-up with Dr. Chen.',
    item: MOOD_SCREENING_ITEMS.map(({ linkId, text, answers }): QuestionnaireItem => ({
      linkId,
      type: 'choice',
      text,
      required: true,
      answerOption: answers.map(([, score]) => ({ valueCoding: moodAnswer(linkId, score) })),
    })),
  };
  tx.add('questionnaire-pregnancy-intake', intake, intake.title);
  tx.add('questionnaire-pregnancy-mood-screening', moodScreening, moodScreening.title);
  return { intake, moodScreening };
}
