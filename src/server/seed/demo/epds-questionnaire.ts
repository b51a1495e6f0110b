// The Edinburgh Postnatal Depression Scale as the clinic's FHIR Questionnaire, with the scale's
// published wording (Cox, Holden & Sagovsky 1987, reproduced with the citation its authors ask for).
// Each answer is a Coding whose ordinalValue extension is its score (0-3); items 3 and 5-10 list
// their worst answer first, as the scale prints them, so their scores run 3 to 0.
// Every text carries its Spanish as a translation extension (`_text`, `_display`, `_title`,
// `_description`): the Spanish EPDS wording in wide clinical use in the Americas, as we know it; a
// clinic should check it against the validated version it licenses before relying on it.
import type { Coding, Element, Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL, ORDINAL_VALUE_URL } from '../../../fhir/screening/epds';
import { spanish } from './translation';

export const EPDS_ANSWER_SYSTEM = 'https://bloom.example/fhir/CodeSystem/epds-answer';

const CITATION =
  'Cox, J.L., Holden, J.M., and Sagovsky, R. 1987. Detection of postnatal depression: Development of the ' +
  '10-item Edinburgh Postnatal Depression Scale. British Journal of Psychiatry 150:782-786.';

/** The printed answers in order, each with its score and its Spanish. */
type Answers = readonly (readonly [label: string, score: number, spanish: string])[];

const FORWARD = [0, 1, 2, 3];
const REVERSE = [3, 2, 1, 0];

function answers(labels: readonly string[], scores: readonly number[], es: readonly string[]): Answers {
  return labels.map((label, index) => [label, scores[index], es[index]] as const);
}

/** The ten items in the scale's order: its text and its answers as printed, each with its Spanish. */
export const EPDS_ITEMS: readonly { text: string; es: string; answers: Answers }[] = [
  {
    text: 'I have been able to laugh and see the funny side of things',
    es: 'He sido capaz de reírme y ver el lado bueno de las cosas',
    answers: answers(
      ['As much as I always could', 'Not quite so much now', 'Definitely not so much now', 'Not at all'],
      FORWARD,
      ['Tanto como siempre', 'No tanto ahora', 'Mucho menos ahora', 'No, nada'],
    ),
  },
  {
    text: 'I have looked forward with enjoyment to things',
    es: 'He mirado el futuro con ilusión',
    answers: answers(
      [
        'As much as I ever did',
        'Rather less than I used to',
        'Definitely less than I used to',
        'Hardly at all',
      ],
      FORWARD,
      [
        'Tanto como siempre',
        'Algo menos de lo que solía',
        'Definitivamente menos de lo que solía',
        'No, nada',
      ],
    ),
  },
  {
    text: 'I have blamed myself unnecessarily when things went wrong',
    es: 'Me he culpado sin necesidad cuando las cosas no salían bien',
    answers: answers(
      ['Yes, most of the time', 'Yes, some of the time', 'Not very often', 'No, never'],
      REVERSE,
      ['Sí, la mayoría de las veces', 'Sí, algunas veces', 'No muy a menudo', 'No, nunca'],
    ),
  },
  {
    text: 'I have been anxious or worried for no good reason',
    es: 'He estado ansiosa o preocupada sin motivo',
    answers: answers(['No, not at all', 'Hardly ever', 'Yes, sometimes', 'Yes, very often'], FORWARD, [
      'No, para nada',
      'Casi nunca',
      'Sí, a veces',
      'Sí, con mucha frecuencia',
    ]),
  },
  {
    text: 'I have felt scared or panicky for no very good reason',
    es: 'He sentido miedo o pánico sin motivo alguno',
    answers: answers(['Yes, quite a lot', 'Yes, sometimes', 'No, not much', 'No, not at all'], REVERSE, [
      'Sí, bastante',
      'Sí, a veces',
      'No, no mucho',
      'No, nada',
    ]),
  },
  {
    text: 'Things have been getting on top of me',
    es: 'Las cosas me han agobiado',
    answers: answers(
      [
        "Yes, most of the time I haven't been able to cope at all",
        "Yes, sometimes I haven't been coping as well as usual",
        'No, most of the time I have coped quite well',
        'No, I have been coping as well as ever',
      ],
      REVERSE,
      [
        'Sí, la mayor parte de las veces no he podido sobrellevarlas',
        'Sí, a veces no las he sobrellevado tan bien como siempre',
        'No, la mayor parte de las veces las he sobrellevado bastante bien',
        'No, las he sobrellevado tan bien como siempre',
      ],
    ),
  },
  {
    text: 'I have been so unhappy that I have had difficulty sleeping',
    es: 'Me he sentido tan infeliz que he tenido dificultad para dormir',
    answers: answers(
      ['Yes, most of the time', 'Yes, sometimes', 'Not very often', 'No, not at all'],
      REVERSE,
      ['Sí, la mayoría de las veces', 'Sí, a veces', 'No muy a menudo', 'No, nada'],
    ),
  },
  {
    text: 'I have felt sad or miserable',
    es: 'Me he sentido triste o desdichada',
    answers: answers(
      ['Yes, most of the time', 'Yes, quite often', 'Not very often', 'No, not at all'],
      REVERSE,
      ['Sí, la mayoría de las veces', 'Sí, bastante a menudo', 'No muy a menudo', 'No, nada'],
    ),
  },
  {
    text: 'I have been so unhappy that I have been crying',
    es: 'Me he sentido tan infeliz que he estado llorando',
    answers: answers(
      ['Yes, most of the time', 'Yes, quite often', 'Only occasionally', 'No, never'],
      REVERSE,
      ['Sí, la mayoría de las veces', 'Sí, bastante a menudo', 'Solo en ocasiones', 'No, nunca'],
    ),
  },
  {
    text: 'The thought of harming myself has occurred to me',
    es: 'He pensado en hacerme daño a mí misma',
    answers: answers(['Yes, quite often', 'Sometimes', 'Hardly ever', 'Never'], REVERSE, [
      'Sí, bastante a menudo',
      'A veces',
      'Casi nunca',
      'Nunca',
    ]),
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
  const coding: Coding & { _display: Element } = {
    system: EPDS_ANSWER_SYSTEM,
    // The code names the printed position (a-d), not the score: reverse-scored items keep their order.
    code: `${itemNumber}${'abcd'[position]}`,
    display: item.answers[position][0],
    _display: spanish(item.answers[position][2]),
    extension: [{ url: ORDINAL_VALUE_URL, valueDecimal: score }],
  };
  return coding;
}

export function buildEpdsQuestionnaire(published: string): Questionnaire {
  const items: QuestionnaireItem[] = EPDS_ITEMS.map(({ text, es, answers: printed }, index) => ({
    linkId: epdsLinkId(index + 1),
    prefix: `${index + 1}.`,
    type: 'choice',
    text,
    _text: spanish(es),
    required: true,
    answerOption: printed.map(([, score]) => ({ valueCoding: epdsAnswer(index + 1, score) })),
  }));
  const questionnaire: Questionnaire & { _title: Element; _description: Element } = {
    resourceType: 'Questionnaire',
    url: EPDS_QUESTIONNAIRE_URL,
    version: '1',
    name: 'EdinburghPostnatalDepressionScale',
    title: 'Edinburgh Postnatal Depression Scale (EPDS)',
    _title: spanish('Escala de Depresión Posnatal de Edimburgo (EPDS)'),
    status: 'active',
    subjectType: ['Patient'],
    date: published,
    publisher: 'Bloom Clinic',
    description:
      'As you are pregnant or have recently had a baby, we would like to know how you are feeling. Please ' +
      'choose the answer that comes closest to how you have felt in the past 7 days, not just how you feel today.',
    _description: spanish(
      'Como usted está embarazada o ha tenido un bebé hace poco, nos gustaría saber cómo se siente. Por favor, ' +
        'elija la respuesta que más se acerque a cómo se ha sentido en los últimos 7 días, no solo a cómo se siente hoy.',
    ),
    copyright: `Source: ${CITATION} Reproduced with the authors' permission as given in that source.`,
    item: items,
  };
  return questionnaire;
}
