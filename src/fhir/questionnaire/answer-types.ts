// Which `value[x]` answers each Questionnaire item type (FHIR R4 QuestionnaireResponse.item.answer):
// the server refuses an answer of another kind, the app writes only these.
import type { QuestionnaireItem, QuestionnaireResponseItemAnswer } from '@medplum/fhirtypes';

export type AnswerField = Exclude<
  keyof QuestionnaireResponseItemAnswer,
  'id' | 'extension' | 'modifierExtension' | 'item'
>;

const ANSWER_FIELDS: Readonly<Record<QuestionnaireItem['type'], readonly AnswerField[]>> = {
  group: [],
  display: [],
  question: [],
  boolean: ['valueBoolean'],
  decimal: ['valueDecimal'],
  integer: ['valueInteger'],
  date: ['valueDate'],
  dateTime: ['valueDateTime'],
  time: ['valueTime'],
  string: ['valueString'],
  text: ['valueString'],
  url: ['valueUri'],
  choice: ['valueCoding'],
  'open-choice': ['valueCoding', 'valueString'],
  attachment: ['valueAttachment'],
  reference: ['valueReference'],
  quantity: ['valueQuantity'],
};

/** The answer fields an item of this type accepts (none for group and display). */
export function answerFields(type: QuestionnaireItem['type']): readonly AnswerField[] {
  return ANSWER_FIELDS[type] ?? [];
}

/** The `value[x]` fields an answer carries. */
export function answerValueFields(answer: QuestionnaireResponseItemAnswer): AnswerField[] {
  return (Object.keys(answer) as (keyof QuestionnaireResponseItemAnswer)[]).filter(
    (key): key is AnswerField => key.startsWith('value'),
  );
}
