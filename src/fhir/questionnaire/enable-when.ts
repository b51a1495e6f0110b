// Whether a Questionnaire item is shown (FHIR R4 Questionnaire.item.enableWhen): one rule for the
// app's renderer and the server's validation, so a question the app hides is never required by
// the server.
import type {
  Coding,
  QuestionnaireItem,
  QuestionnaireItemEnableWhen,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';

/** The answers given so far, by the linkId of the question they answer. */
export type AnswersByLinkId = ReadonlyMap<string, readonly QuestionnaireResponseItemAnswer[]>;

type Comparable = string | number | boolean;

function codingKey(coding: Coding | undefined): string | undefined {
  return coding?.code === undefined ? undefined : `${coding.system ?? ''}|${coding.code}`;
}

/** The value of an answer or an enableWhen's `answer[x]`, as one comparable value. */
function comparable(value: {
  valueBoolean?: boolean;
  valueDecimal?: number;
  valueInteger?: number;
  valueDate?: string;
  valueDateTime?: string;
  valueTime?: string;
  valueString?: string;
  valueCoding?: Coding;
  valueReference?: { reference?: string };
}): Comparable | undefined {
  return (
    value.valueBoolean ??
    value.valueDecimal ??
    value.valueInteger ??
    value.valueDate ??
    value.valueDateTime ??
    value.valueTime ??
    value.valueString ??
    codingKey(value.valueCoding) ??
    value.valueReference?.reference
  );
}

function expected(condition: QuestionnaireItemEnableWhen): Comparable | undefined {
  return comparable({
    valueBoolean: condition.answerBoolean,
    valueDecimal: condition.answerDecimal,
    valueInteger: condition.answerInteger,
    valueDate: condition.answerDate,
    valueDateTime: condition.answerDateTime,
    valueTime: condition.answerTime,
    valueString: condition.answerString,
    valueCoding: condition.answerCoding,
    valueReference: condition.answerReference,
  });
}

/** A coding answer matches a coding condition without a system when the codes are equal. */
function same(answer: QuestionnaireResponseItemAnswer, condition: QuestionnaireItemEnableWhen): boolean {
  if (condition.answerCoding && !condition.answerCoding.system && answer.valueCoding) {
    return answer.valueCoding.code === condition.answerCoding.code;
  }
  return comparable(answer) === expected(condition);
}

function holds(condition: QuestionnaireItemEnableWhen, answers: AnswersByLinkId): boolean {
  const given = answers.get(condition.question ?? '') ?? [];
  if (condition.operator === 'exists') {
    return given.length > 0 === (condition.answerBoolean ?? true);
  }
  if (condition.operator === '=') {
    return given.some((answer) => same(answer, condition));
  }
  if (condition.operator === '!=') {
    // FHIR: true when no answer equals the value (also when there is no answer).
    return !given.some((answer) => same(answer, condition));
  }
  const target = expected(condition);
  return given.some((answer) => {
    const value = comparable(answer);
    if (value === undefined || target === undefined || typeof value !== typeof target) {
      return false;
    }
    switch (condition.operator) {
      case '>':
        return value > target;
      case '<':
        return value < target;
      case '>=':
        return value >= target;
      case '<=':
        return value <= target;
      default:
        return false;
    }
  });
}

/** True when the item has no enableWhen, or its conditions hold (all, or any with enableBehavior 'any'). */
export function isEnabled(item: QuestionnaireItem, answers: AnswersByLinkId): boolean {
  const conditions = item.enableWhen ?? [];
  if (conditions.length === 0) {
    return true;
  }
  return item.enableBehavior === 'any'
    ? conditions.some((condition) => holds(condition, answers))
    : conditions.every((condition) => holds(condition, answers));
}

/** Every answer of these items, by linkId, answers of one linkId in several places together. */
export function collectAnswers(
  items: readonly QuestionnaireResponseItem[],
  into = new Map<string, QuestionnaireResponseItemAnswer[]>(),
): Map<string, QuestionnaireResponseItemAnswer[]> {
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

function linkIdsIn(items: readonly QuestionnaireItem[], into = new Set<string>()): Set<string> {
  for (const item of items) {
    into.add(item.linkId);
    linkIdsIn(item.item ?? [], into);
  }
  return into;
}

/**
 * The answers enableWhen reads inside one instance of `group`: the whole response's, except that a
 * question of the group itself is read from this instance only (a question in a repeating group
 * depends on its sibling in the same instance, not on another instance's answer).
 */
export function scopedAnswers(
  outer: AnswersByLinkId,
  group: QuestionnaireItem,
  instance: readonly QuestionnaireResponseItem[],
): AnswersByLinkId {
  const inside = linkIdsIn(group.item ?? []);
  const scoped = new Map([...outer].filter(([linkId]) => !inside.has(linkId)));
  for (const [linkId, answers] of collectAnswers(instance)) {
    scoped.set(linkId, answers);
  }
  return scoped;
}
