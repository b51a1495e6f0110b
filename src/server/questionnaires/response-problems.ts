// What is wrong with a QuestionnaireResponse, measured against its Questionnaire: unknown linkIds,
// answers of the wrong kind or outside the item's options, several answers to a question that
// does not repeat, a second instance of an item or group that does not repeat, codings outside the
// item's answerValueSet (when it could be expanded), answers to a group or display item, answers to
// an item its enableWhen hides, and (once completed) unanswered required questions that are shown,
// in each instance of a repeating group. Each problem names the item's linkId in words a patient
// can read.
import type {
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireItemAnswerOption,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';
import { answerFields, answerValueFields } from '../../fhir/questionnaire/answer-types';
import { collectAnswers, isEnabled, scopedAnswers } from '../../fhir/questionnaire/enable-when';
import type { AnswersByLinkId } from '../../fhir/questionnaire/enable-when';
import { isAllowedCoding } from './answer-value-sets';
import type { AnswerValueSets } from './answer-value-sets';

export interface ResponseProblem {
  linkId: string;
  /** FHIRPath of the response element at fault. */
  expression: string;
  message: string;
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

/** Where a required item is missing, in words: which group, and which entry of a repeating one. */
function placeOf(group: QuestionnaireItem | undefined, entry: number): string {
  if (!group) {
    return '';
  }
  return group.repeats ? ` in entry ${entry} of ${label(group)}` : ` in ${label(group)}`;
}

interface Level {
  path: string;
  answers: AnswersByLinkId;
  /** The group instance these items belong to, and its number among its linkId's instances (1-based). */
  group?: QuestionnaireItem;
  entry: number;
}

function checkItems(
  definitions: readonly QuestionnaireItem[],
  given: readonly QuestionnaireResponseItem[],
  level: Level,
  state: CheckState,
): void {
  const { path, answers } = level;
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
    const entry = (seen.get(linkId) ?? 0) + 1;
    seen.set(linkId, entry);
    if (entry === 2 && !definition.repeats) {
      problems.push({
        linkId,
        expression: at,
        message:
          definition.type === 'group'
            ? `${label(definition)} is a group that does not repeat: it appears more than once`
            : `${label(definition)} appears more than once: give its answers in one item`,
      });
    }
    if (!isEnabled(definition, answers)) {
      if (item.answer?.length || item.item?.length) {
        problems.push({
          linkId,
          expression: at,
          message: `${label(definition)} is not asked with the answers given (enableWhen): leave it out`,
        });
      }
      continue;
    }
    checkAnswers(definition, item, at, state);
    const children = definition.item ?? [];
    if (definition.type === 'group') {
      const inner = item.item ?? [];
      checkItems(
        children,
        inner,
        { path: at, answers: scopedAnswers(answers, definition, inner), group: definition, entry },
        state,
      );
    } else {
      if (item.item?.length) {
        problems.push({
          linkId,
          expression: `${at}.item`,
          message: `${label(definition)} is a question: nested items go under its answer`,
        });
      }
      for (const [answerIndex, answer] of (item.answer ?? []).entries()) {
        const inner = answer.item ?? [];
        checkItems(
          children,
          inner,
          {
            path: `${at}.answer[${answerIndex}]`,
            answers: scopedAnswers(answers, definition, inner),
            entry: 1,
          },
          state,
        );
      }
    }
  }
  if (state.completed) {
    checkRequired(definitions, given, level, problems);
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
  level: Level,
  problems: ResponseProblem[],
): void {
  for (const definition of definitions) {
    if (definition.type === 'display' || !isEnabled(definition, level.answers)) {
      continue;
    }
    if (definition.required && !answered(definition, given)) {
      problems.push({
        linkId: definition.linkId,
        expression: level.path,
        message: `${label(definition)} is required${placeOf(level.group, level.entry)}`,
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
    valueSets,
    completed: response.status === 'completed' || response.status === 'amended',
    problems: [],
  };
  const answers = collectAnswers(response.item ?? []);
  checkItems(
    questionnaire.item ?? [],
    response.item ?? [],
    { path: 'QuestionnaireResponse', answers, entry: 1 },
    state,
  );
  return state.problems;
}
