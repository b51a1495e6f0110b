// What is wrong with a QuestionnaireResponse, measured against its Questionnaire: unknown linkIds,
// answers of the wrong kind or outside the item's options, several answers to a question that
// does not repeat, codings outside the item's answerValueSet (when it could be expanded), answers to
// a group or display item, and (once completed) unanswered required questions that are shown. Each
// problem names the item's linkId in words a patient can read.
import type {
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireItemAnswerOption,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';
import { answerFields, answerValueFields } from '../../fhir/questionnaire/answer-types';
import { isEnabled } from '../../fhir/questionnaire/enable-when';
import type { AnswersByLinkId } from '../../fhir/questionnaire/enable-when';
import { isAllowedCoding } from './answer-value-sets';
import type { AnswerValueSets } from './answer-value-sets';

export interface ResponseProblem {
  linkId: string;
  /** FHIRPath of the response element at fault. */
  expression: string;
  message: string;
}

/** Every answer of the response, by linkId (for enableWhen, which may name a question anywhere). */
function collectAnswers(
  items: readonly QuestionnaireResponseItem[],
  into: Map<string, QuestionnaireResponseItemAnswer[]>,
) {
  for (const item of items) {
    if (item.answer?.length) {
      into.set(item.linkId ?? '', [...(into.get(item.linkId ?? '') ?? []), ...item.answer]);
    }
    collectAnswers(item.item ?? [], into);
    for (const answer of item.answer ?? []) {
      collectAnswers(answer.item ?? [], into);
    }
  }
  return into;
}

function optionKey(
  value: QuestionnaireItemAnswerOption | QuestionnaireResponseItemAnswer,
): string | undefined {
  if (value.valueCoding) {
    return `coding:${value.valueCoding.system ?? ''}|${value.valueCoding.code ?? ''}`;
  }
  const [field] = answerValueFields(value as QuestionnaireResponseItemAnswer);
  const raw = field === undefined ? undefined : (value as Record<string, unknown>)[field];
  return raw === undefined ? undefined : `${field}:${JSON.stringify(raw)}`;
}

/** What each item type's answer is, in plain words. */
const KIND_WORDS: Partial<Record<QuestionnaireItem['type'], string>> = {
  boolean: 'a yes or no answer',
  decimal: 'a number',
  integer: 'a whole number',
  date: 'a date',
  dateTime: 'a date and time',
  time: 'a time',
  string: 'a text answer',
  text: 'a text answer',
  url: 'a web address',
  choice: 'one of the options',
  'open-choice': 'one of the options or a text answer',
  attachment: 'a file',
  reference: 'a reference',
  quantity: 'a quantity',
};

function label(item: QuestionnaireItem): string {
  return item.text ? `'${item.text}' (${item.linkId})` : `'${item.linkId}'`;
}

/** Where the checks of one response keep what they share. */
interface CheckState {
  answers: AnswersByLinkId;
  valueSets: AnswerValueSets;
  completed: boolean;
  problems: ResponseProblem[];
}

function checkAnswers(
  definition: QuestionnaireItem,
  given: QuestionnaireResponseItem,
  path: string,
  state: CheckState,
): void {
  const problems = state.problems;
  const answers = given.answer ?? [];
  const linkId = definition.linkId;
  if (answers.length === 0) {
    return;
  }
  const accepted = answerFields(definition.type);
  if (accepted.length === 0) {
    problems.push({
      linkId,
      expression: `${path}.answer`,
      message: `${label(definition)} is a ${definition.type} and takes no answer`,
    });
    return;
  }
  if (answers.length > 1 && !definition.repeats) {
    problems.push({
      linkId,
      expression: `${path}.answer`,
      message: `${label(definition)} takes one answer, not ${answers.length}`,
    });
  }
  const options = definition.answerOption ?? [];
  const optionKeys = new Set(options.map(optionKey));
  for (const [index, answer] of answers.entries()) {
    const fields = answerValueFields(answer);
    const at = `${path}.answer[${index}]`;
    // A choice with answerOption may offer strings, integers, dates or times as well as codings.
    const kinds = definition.type === 'choice' && options.length > 0 ? fieldsOf(options) : accepted;
    if (fields.length !== 1 || !kinds.includes(fields[0])) {
      problems.push({
        linkId,
        expression: at,
        message: `${label(definition)} needs ${KIND_WORDS[definition.type] ?? `a ${definition.type} answer`}`,
      });
      continue;
    }
    if (definition.type === 'choice' && options.length > 0 && !optionKeys.has(optionKey(answer))) {
      problems.push({
        linkId,
        expression: at,
        message: `${label(definition)}: the answer is not one of the options`,
      });
    }
    const allowed = definition.answerValueSet ? state.valueSets.get(definition.answerValueSet) : undefined;
    if (allowed && answer.valueCoding && !isAllowedCoding(allowed, answer.valueCoding)) {
      problems.push({
        linkId,
        expression: at,
        message: `${label(definition)}: the answer is not one of the options`,
      });
    }
  }
}

function fieldsOf(options: readonly QuestionnaireItemAnswerOption[]): string[] {
  return options.flatMap((option) => answerValueFields(option as QuestionnaireResponseItemAnswer));
}

function checkItems(
  definitions: readonly QuestionnaireItem[],
  given: readonly QuestionnaireResponseItem[],
  path: string,
  state: CheckState,
): void {
  const problems = state.problems;
  const byLinkId = new Map(definitions.map((definition) => [definition.linkId, definition]));
  const seen = new Map<string, number>();
  for (const [index, item] of given.entries()) {
    const at = `${path}.item[${index}]`;
    const linkId = item.linkId ?? '';
    const definition = byLinkId.get(linkId);
    if (!definition) {
      problems.push({
        linkId,
        expression: `${at}.linkId`,
        message: `Unknown linkId '${linkId}': the questionnaire has no such item here`,
      });
      continue;
    }
    seen.set(linkId, (seen.get(linkId) ?? 0) + 1);
    if (seen.get(linkId) === 2 && !definition.repeats) {
      problems.push({ linkId, expression: at, message: `${label(definition)} appears more than once` });
    }
    checkAnswers(definition, item, at, state);
    const children = definition.item ?? [];
    if (definition.type === 'group') {
      checkItems(children, item.item ?? [], at, state);
    } else {
      if (item.item?.length) {
        problems.push({
          linkId,
          expression: `${at}.item`,
          message: `${label(definition)} is a question: nested items go under its answer`,
        });
      }
      for (const [answerIndex, answer] of (item.answer ?? []).entries()) {
        checkItems(children, answer.item ?? [], `${at}.answer[${answerIndex}]`, state);
      }
    }
  }
  if (state.completed) {
    checkRequired(definitions, given, path, state.answers, problems);
  }
}

function answered(definition: QuestionnaireItem, items: readonly QuestionnaireResponseItem[]): boolean {
  const mine = items.filter((item) => item.linkId === definition.linkId);
  return definition.type === 'group'
    ? mine.some((item) => (item.item ?? []).length > 0)
    : mine.some((item) => (item.answer ?? []).length > 0);
}

/**
 * Required items shown (enableWhen) at this level must be answered; hidden ones need not be. The
 * questions of a group left out are not asked for unless the group itself is required.
 */
function checkRequired(
  definitions: readonly QuestionnaireItem[],
  given: readonly QuestionnaireResponseItem[],
  path: string,
  answers: AnswersByLinkId,
  problems: ResponseProblem[],
): void {
  for (const definition of definitions) {
    if (definition.type === 'display' || !isEnabled(definition, answers)) {
      continue;
    }
    if (definition.required && !answered(definition, given)) {
      problems.push({
        linkId: definition.linkId,
        expression: path,
        message: `${label(definition)} is required`,
      });
    }
  }
}

/**
 * The problems of `response` as an answer to `questionnaire`; empty when it is valid. `valueSets`
 * holds the expanded answerValueSets (answer-value-sets.ts); one missing there is not checked.
 */
export function questionnaireResponseProblems(
  questionnaire: Questionnaire,
  response: QuestionnaireResponse,
  valueSets: AnswerValueSets = new Map(),
): ResponseProblem[] {
  const state: CheckState = {
    answers: collectAnswers(response.item ?? [], new Map()),
    valueSets,
    completed: response.status === 'completed' || response.status === 'amended',
    problems: [],
  };
  checkItems(questionnaire.item ?? [], response.item ?? [], 'QuestionnaireResponse', state);
  return state.problems;
}
