// The patients' answers to the clinic's questionnaires (questionnaires.ts): completed
// QuestionnaireResponses with the questionnaire's canonical URL, the patient as subject and author,
// and answers of each item's type.
import type {
  Patient,
  Questionnaire,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
  Reference,
} from '@medplum/fhirtypes';
import type { DemoContext } from './demo-context';
import { moodAnswer, smokingAnswer } from './questionnaires';

export interface IntakeAnswers {
  lmpDaysFromToday: number;
  previousPregnancies: number;
  previousBirths: number;
  allergies: string;
  medications: string;
  smoking: 'never' | 'stopped' | 'current';
  emergencyContactName: string;
  emergencyContactPhone: string;
}

export interface ResponseSpec {
  key: string;
  authoredDaysFromToday: number;
  hour: number;
}

export interface Respondent {
  patient: Reference<Patient>;
  patientKey: string;
}

function addResponse(
  { tx, calendar }: DemoContext,
  respondent: Respondent,
  questionnaire: Questionnaire,
  spec: ResponseSpec,
  item: QuestionnaireResponseItem[],
): Reference<QuestionnaireResponse> {
  return tx.add<QuestionnaireResponse>(`questionnaire-response-${respondent.patientKey}-${spec.key}`, {
    resourceType: 'QuestionnaireResponse',
    questionnaire: questionnaire.url,
    status: 'completed',
    subject: respondent.patient,
    author: respondent.patient,
    source: respondent.patient,
    authored: calendar.at(spec.authoredDaysFromToday, spec.hour),
    item,
  });
}

export function addIntakeResponse(
  ctx: DemoContext,
  respondent: Respondent,
  questionnaire: Questionnaire,
  spec: ResponseSpec,
  answers: IntakeAnswers,
): Reference<QuestionnaireResponse> {
  const one = (linkId: string, answer: QuestionnaireResponseItemAnswer): QuestionnaireResponseItem => ({
    linkId,
    text: questionnaire.item?.flatMap((i) => [i, ...(i.item ?? [])]).find((i) => i.linkId === linkId)?.text,
    answer: [answer],
  });
  return addResponse(ctx, respondent, questionnaire, spec, [
    one('lmp', { valueDate: ctx.calendar.date(answers.lmpDaysFromToday) }),
    one('previous-pregnancies', { valueInteger: answers.previousPregnancies }),
    one('previous-births', { valueInteger: answers.previousBirths }),
    one('allergies', { valueString: answers.allergies }),
    one('medications', { valueString: answers.medications }),
    one('smoking', { valueCoding: smokingAnswer(answers.smoking) }),
    {
      linkId: 'emergency-contact',
      text: 'Emergency contact',
      item: [
        one('emergency-contact-name', { valueString: answers.emergencyContactName }),
        one('emergency-contact-phone', { valueString: answers.emergencyContactPhone }),
      ],
    },
  ]);
}

/** A mood screening with a score per item (linkId → 0-3). */
export function addMoodScreeningResponse(
  ctx: DemoContext,
  respondent: Respondent,
  questionnaire: Questionnaire,
  spec: ResponseSpec,
  scores: Readonly<Record<string, number>>,
): Reference<QuestionnaireResponse> {
  const item = (questionnaire.item ?? []).map((question): QuestionnaireResponseItem => ({
    linkId: question.linkId,
    text: question.text,
    answer: [{ valueCoding: moodAnswer(question.linkId, scores[question.linkId] ?? 0) }],
  }));
  return addResponse(ctx, respondent, questionnaire, spec, item);
}
