// The Edinburgh Postnatal Depression Scale as the clinic's FHIR Questionnaire, with the scale's
// published wording (Cox, Holden & Sagovsky 1987, reproduced with the citation its authors ask for).
// Each answer is a Coding whose ordinalValue extension is its score (0-3); items 3 and 5-10 list
// their worst answer first, as the scale prints them, so their scores run 3 to 0.
import type { Coding, Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL, ORDINAL_VALUE_URL } from '../../../fhir/screening/epds';

export const EPDS_ANSWER_SYSTEM = 'https://bloom.example/fhir/CodeSystem/epds-answer';

const CITATION =
  'Cox, J.L., Holden, J.M., and Sagovsky, R. 1987. Detection of postnatal depression: Development of the ' +
  '10-item Edinburgh Postnatal Depression Scale. British Journal of Psychiatry 150:782-786.';

/** The printed answers in order, each with its score. */
type Answers = readonly (readonly [label: string, score: number])[];

const FORWARD = [0, 1, 2, 3];
const REVERSE = [3, 2, 1, 0];

function answers(labels: readonly string[], scores: readonly number[]): Answers {
  return labels.map((label, index) => [label, scores[index]] as const);
}

/** The ten items in the scale's order: its text and its answers as printed. */
export const EPDS_ITEMS: readonly { text: string; answers: Answers }[] = [
  {
    text: 'I have been able to laugh and see the funny side of things',
    answers: answers(
      ['As much as I always could', 'Not quite so much now', 'Definitely not so much now', 'Not at all'],
      FORWARD,
    ),
  },
  {
    text: 'I have looked forward with enjoyment to things',
    answers: answers(
      [
        'As much as I ever did',
        'Rather less than I used to',
        'Definitely less than I used to',
        'Hardly at all',
      ],
      FORWARD,
    ),
  },
  {
    text: 'I have blamed myself unnecessarily when things went wrong',
    answers: answers(
      ['Yes, most of the time', 'Yes, some of the time', 'Not very often', 'No, never'],
      REVERSE,
    ),
  },
  {
    text: 'I have been anxious or worried for no good reason',
    answers: answers(['No, not at all', 'Hardly ever', 'Yes, sometimes', 'Yes, very often'], FORWARD),
  },
  {
    text: 'I have felt scared or panicky for no very good reason',
    answers: answers(['Yes, quite a lot', 'Yes, sometimes', 'No, not much', 'No, not at all'], REVERSE),
  },
  {
    text: 'Things have been getting on top of me',
    answers: answers(
      [
        "Yes, most of the time I haven't been able to cope at all",
        "Yes, sometimes I haven't been coping as well as usual",
        'No, most of the time I have coped quite well',
        'No, I have been coping as well as ever',
      ],
      REVERSE,
    ),
  },
  {
    text: 'I have been so unhappy that I have had difficulty sleeping',
    answers: answers(
      ['Yes, most of the time', 'Yes, sometimes', 'Not very often', 'No, not at all'],
      REVERSE,
    ),
  },
  {
    text: 'I have felt sad or miserable',
    answers: answers(
      ['Yes, most of the time', 'Yes, quite often', 'Not very often', 'No, not at all'],
      REVERSE,
    ),
  },
  {
    text: 'I have been so unhappy that I have been crying',
    answers: answers(
      ['Yes, most of the time', 'Yes, quite often', 'Only occasionally', 'No, never'],
      REVERSE,
    ),
  },
  {
    text: 'The thought of harming myself has occurred to me',
    answers: answers(['Yes, quite often', 'Sometimes', 'Hardly ever', 'Never'], REVERSE),
  },
];

/** linkId of item n (1-10). */
export function epdsLinkId(itemNumber: number): string {
  return `epds-${itemNumber}`;
}

/** The answer Coding of item n (1-10) that scores `score`, as the Questionnaire offers it. */
export function epdsAnswer(itemNumber: number, score: number): Coding {
  const item = EPDS_ITEMS[itemNumber - 1];
  const position = item?.answers.findIndex(([, value]) => value === score) ?? -1;
  if (!item || position < 0) {
    throw new Error(`EPDS item ${itemNumber} has no answer scored ${score}`);
  }
  return {
    system: EPDS_ANSWER_SYSTEM,
    // The code names the printed position (a-d), not the score: reverse-scored items keep their order.
    code: `${itemNumber}${'abcd'[position]}`,
    display: item.answers[position][0],
    extension: [{ url: ORDINAL_VALUE_URL, valueDecimal: score }],
  };
}

export function buildEpdsQuestionnaire(published: string): Questionnaire {
  const items: QuestionnaireItem[] = EPDS_ITEMS.map(({ text, answers: printed }, index) => ({
    linkId: epdsLinkId(index + 1),
    prefix: `${index + 1}.`,
    type: 'choice',
    text,
    required: true,
    answerOption: printed.map(([, score]) => ({ valueCoding: epdsAnswer(index + 1, score) })),
  }));
  return {
    resourceType: 'Questionnaire',
    url: EPDS_QUESTIONNAIRE_URL,
    version: '1',
    name: 'EdinburghPostnatalDepressionScale',
    title: 'Edinburgh Postnatal Depression Scale (EPDS)',
    status: 'active',
    subjectType: ['Patient'],
    date: published,
    publisher: 'Bloom Clinic',
    description:
      'As you are pregnant or have recently had a baby, we would like to know how you are feeling. Please ' +
      'choose the answer that comes closest to how you have felt in the past 7 days, not just how you feel today.',
    copyright: `Source: ${CITATION} Reproduced with the authors' permission as given in that source.`,
    item: items,
  };
}
