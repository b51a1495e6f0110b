// The renderer's answers as typed (text per input, option keys per choice), turned into a
// QuestionnaireResponse's items: only the items shown (enableWhen), each answer of its item's type,
// and a plain-words message for every answer that cannot be read or required item left empty.
import type {
  Coding,
  QuestionnaireItem,
  QuestionnaireItemAnswerOption,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';
import { isEnabled } from '../../../fhir/questionnaire/enable-when';

/** What the patient has typed or picked, by linkId: one string per input (or per picked option). */
export type RawAnswers = Readonly<Record<string, readonly string[]>>;

/** One choice: a stable key for the input, its label, and the answer it stands for. */
export interface ChoiceOption {
  key: string;
  label: string;
  answer: QuestionnaireResponseItemAnswer;
}

export const NEEDS_ANSWER = 'Please answer this question.';
export const NEEDS_SECTION = 'Please answer at least one question in this section.';

function codingOption(coding: Coding): ChoiceOption {
  return {
    key: `coding:${coding.system ?? ''}|${coding.code ?? ''}`,
    label: coding.display ?? coding.code ?? '',
    answer: { valueCoding: coding },
  };
}

/** The choices of an item: its answerOptions, or the codes of its expanded answerValueSet. */
export function choiceOptions(item: QuestionnaireItem, expanded: readonly Coding[] = []): ChoiceOption[] {
  if (!item.answerOption?.length) {
    return expanded.map(codingOption);
  }
  return item.answerOption.flatMap((option: QuestionnaireItemAnswerOption): ChoiceOption[] => {
    if (option.valueCoding) {
      return [codingOption(option.valueCoding)];
    }
    if (option.valueString !== undefined) {
      return [
        {
          key: `string:${option.valueString}`,
          label: option.valueString,
          answer: { valueString: option.valueString },
        },
      ];
    }
    if (option.valueInteger !== undefined) {
      const label = String(option.valueInteger);
      return [{ key: `integer:${label}`, label, answer: { valueInteger: option.valueInteger } }];
    }
    if (option.valueDate !== undefined) {
      return [
        { key: `date:${option.valueDate}`, label: option.valueDate, answer: { valueDate: option.valueDate } },
      ];
    }
    if (option.valueTime !== undefined) {
      return [
        { key: `time:${option.valueTime}`, label: option.valueTime, answer: { valueTime: option.valueTime } },
      ];
    }
    if (option.valueReference) {
      const { reference, display } = option.valueReference;
      return [
        {
          key: `reference:${reference ?? ''}`,
          label: display ?? reference ?? '',
          answer: { valueReference: option.valueReference },
        },
      ];
    }
    return [];
  });
}

type Parsed = { answer: QuestionnaireResponseItemAnswer } | { error: string } | undefined;

/** One typed value as an answer of the item's type; undefined when empty. */
export function parseAnswer(item: QuestionnaireItem, raw: string, options: readonly ChoiceOption[]): Parsed {
  const text = raw.trim();
  if (text === '') {
    return undefined;
  }
  switch (item.type) {
    case 'boolean':
      return { answer: { valueBoolean: text === 'true' } };
    case 'integer':
      return /^-?\d{1,15}$/.test(text)
        ? { answer: { valueInteger: Number(text) } }
        : { error: 'Enter a whole number, like 3.' };
    case 'decimal': {
      const normal = text.replace(',', '.');
      return /^-?\d{1,15}(\.\d{1,10})?$/.test(normal)
        ? { answer: { valueDecimal: Number(normal) } }
        : { error: 'Enter a number, like 2.5.' };
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))
        ? { answer: { valueDate: text } }
        : { error: 'Enter a date, like 2027-03-01.' };
    case 'choice': {
      const option = options.find((candidate) => candidate.key === raw);
      return option ? { answer: option.answer } : { error: 'Pick one of the options.' };
    }
    case 'string':
    case 'text':
      return { answer: { valueString: text } };
    default:
      return undefined;
  }
}

export interface BuiltResponse {
  items: QuestionnaireResponseItem[];
  /** A message by linkId for each answer that cannot be read and each required item left empty. */
  errors: Record<string, string>;
}

type OptionsOf = (item: QuestionnaireItem) => readonly ChoiceOption[];

function build(
  definitions: readonly QuestionnaireItem[],
  raw: RawAnswers,
  optionsOf: OptionsOf,
  shown: ReadonlyMap<string, readonly QuestionnaireResponseItemAnswer[]>,
  errors: Record<string, string>,
): QuestionnaireResponseItem[] {
  const items: QuestionnaireResponseItem[] = [];
  for (const definition of definitions) {
    if (definition.type === 'display' || !isEnabled(definition, shown)) {
      continue;
    }
    const linkId = definition.linkId;
    if (definition.type === 'group') {
      // A section left empty asks for its required questions only when the section is required.
      const inner: Record<string, string> = {};
      const children = build(definition.item ?? [], raw, optionsOf, shown, inner);
      if (children.length > 0 || definition.required) {
        Object.assign(errors, inner);
      }
      if (children.length > 0) {
        items.push({ linkId, text: definition.text, item: children });
      } else if (definition.required && Object.keys(inner).length === 0) {
        errors[linkId] = NEEDS_SECTION;
      }
      continue;
    }
    const answers: QuestionnaireResponseItemAnswer[] = [];
    for (const value of raw[linkId] ?? []) {
      const parsed = parseAnswer(definition, value, optionsOf(definition));
      if (parsed && 'error' in parsed) {
        errors[linkId] = parsed.error;
      } else if (parsed) {
        answers.push(parsed.answer);
      }
    }
    if (answers.length > 0) {
      items.push({ linkId, text: definition.text, answer: answers });
    } else if (definition.required && !errors[linkId]) {
      errors[linkId] = NEEDS_ANSWER;
    }
  }
  return items;
}

function answersOf(
  items: readonly QuestionnaireResponseItem[],
  into = new Map<string, QuestionnaireResponseItemAnswer[]>(),
) {
  for (const item of items) {
    if (item.answer?.length) {
      into.set(item.linkId ?? '', item.answer);
    }
    answersOf(item.item ?? [], into);
  }
  return into;
}

/**
 * The response's items. enableWhen is judged on the answers that will be sent, as the server judges
 * it: a question hidden by an earlier answer does not show (or require) what depends on it.
 */
export function buildResponseItems(
  definitions: readonly QuestionnaireItem[],
  raw: RawAnswers,
  optionsOf: OptionsOf,
): BuiltResponse {
  let shown = answersOf(build(definitions, raw, optionsOf, new Map(), {}), new Map());
  for (let pass = 0; pass < 4; pass++) {
    const errors: Record<string, string> = {};
    const items = build(definitions, raw, optionsOf, shown, errors);
    const next = answersOf(items);
    if (same(next, shown) || pass === 3) {
      return { items, errors };
    }
    shown = next;
  }
  return { items: [], errors: {} };
}

function same(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  return JSON.stringify([...a]) === JSON.stringify([...b]);
}

/** The answers given so far, for showing or hiding items while the patient types. */
export function visibleAnswers(
  definitions: readonly QuestionnaireItem[],
  raw: RawAnswers,
  optionsOf: OptionsOf,
) {
  return answersOf(buildResponseItems(definitions, raw, optionsOf).items);
}
