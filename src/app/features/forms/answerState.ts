// The renderer's answers as typed (text per input, option keys per choice), turned into a
// QuestionnaireResponse's items: only the items shown (enableWhen), each answer of its item's type,
// one item per instance of a repeating group, and a plain-words message for every answer that
// cannot be read or required item left empty. Answers are kept by the item's place in the form (its
// scope: the group instances it sits in, then its linkId), so each group instance has its own.
import type {
  Coding,
  QuestionnaireItem,
  QuestionnaireItemAnswerOption,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';
import { collectAnswers, isEnabled, scopedAnswers } from '../../../fhir/questionnaire/enable-when';
import type { AnswersByLinkId } from '../../../fhir/questionnaire/enable-when';
import type { Message } from '../../i18n/catalog';
import type { Locale } from '../../i18n/locale';
import { extensionSibling, translatedText } from '../../i18n/translatedText';
import { formsStrings } from './strings';

/** What the patient has typed or picked, by item key: one string per input (or per picked option). */
export type RawAnswers = Readonly<Record<string, readonly string[]>>;

/** The instances of each repeating group, by the group's key: stable ids, in order (default one). */
export type GroupInstances = Readonly<Record<string, readonly string[]>>;

/** An item's key: the scope it sits in ('' at the top) followed by its linkId. */
export function itemKey(scope: string, linkId: string): string {
  return `${scope}${linkId}`;
}

/** The scope of the items inside one instance of a group. */
export function instanceScope(group: QuestionnaireItem, key: string, instance: string): string {
  return group.repeats ? `${key}[${instance}]/` : `${key}/`;
}

/** The instance ids of a group: a group that does not repeat has one. */
export function instancesOf(
  group: QuestionnaireItem,
  key: string,
  instances: GroupInstances,
): readonly string[] {
  return group.repeats ? (instances[key] ?? ['0']) : ['0'];
}

/** One choice: a stable key for the input, its label, and the answer it stands for. */
export interface ChoiceOption {
  key: string;
  label: string;
  answer: QuestionnaireResponseItemAnswer;
}

export const NEEDS_ANSWER = formsStrings.needsAnswer;
export const NEEDS_SECTION = formsStrings.needsSection;

/** A coding as a choice, labelled in the active language when the data translates its display. */
function codingOption(coding: Coding, locale: Locale): ChoiceOption {
  return {
    key: `coding:${coding.system ?? ''}|${coding.code ?? ''}`,
    label: translatedText(extensionSibling(coding, 'display'), coding.display, locale) ?? coding.code ?? '',
    answer: { valueCoding: coding },
  };
}

/** The choices of an item: its answerOptions, or the codes of its expanded answerValueSet. */
export function choiceOptions(
  item: QuestionnaireItem,
  expanded: readonly Coding[] = [],
  locale: Locale = 'en',
): ChoiceOption[] {
  if (!item.answerOption?.length) {
    return expanded.map((coding) => codingOption(coding, locale));
  }
  return item.answerOption.flatMap((option: QuestionnaireItemAnswerOption): ChoiceOption[] => {
    if (option.valueCoding) {
      return [codingOption(option.valueCoding, locale)];
    }
    if (option.valueString !== undefined) {
      return [
        {
          key: `string:${option.valueString}`,
          label: translatedText(extensionSibling(option, 'valueString'), option.valueString, locale) ?? '',
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

type Parsed = { answer: QuestionnaireResponseItemAnswer } | { error: Message } | undefined;

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
        : { error: formsStrings.wholeNumber };
    case 'decimal': {
      const normal = text.replace(',', '.');
      return /^-?\d{1,15}(\.\d{1,10})?$/.test(normal)
        ? { answer: { valueDecimal: Number(normal) } }
        : { error: formsStrings.number };
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))
        ? { answer: { valueDate: text } }
        : { error: formsStrings.date };
    case 'choice': {
      const option = options.find((candidate) => candidate.key === raw);
      return option ? { answer: option.answer } : { error: formsStrings.pickOption };
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
  /** A message by item key for each answer that cannot be read and each required item left empty. */
  errors: Record<string, Message>;
  /** The answers enableWhen was judged with, by scope (the items of a group instance see its own). */
  shown: ReadonlyMap<string, AnswersByLinkId>;
}

type OptionsOf = (item: QuestionnaireItem) => readonly ChoiceOption[];

interface Pass {
  raw: RawAnswers;
  instances: GroupInstances;
  optionsOf: OptionsOf;
  /** The items each group instance held in the previous pass, by scope. */
  previous: ReadonlyMap<string, readonly QuestionnaireResponseItem[]>;
  held: Map<string, QuestionnaireResponseItem[]>;
  shown: Map<string, AnswersByLinkId>;
}

function buildGroup(
  definition: QuestionnaireItem,
  key: string,
  pass: Pass,
  answers: AnswersByLinkId,
  errors: Record<string, Message>,
): QuestionnaireResponseItem[] {
  const instances = instancesOf(definition, key, pass.instances).map((instance) => {
    const scope = instanceScope(definition, key, instance);
    const inner: Record<string, Message> = {};
    const children = build(
      definition.item ?? [],
      pass,
      scope,
      scopedAnswers(answers, definition, pass.previous.get(scope) ?? []),
      inner,
    );
    pass.held.set(scope, children);
    return { children, inner };
  });
  const given = instances.filter(({ children }) => children.length > 0);
  for (const { inner } of given) {
    Object.assign(errors, inner);
  }
  // A section left empty asks for its required questions only when the section is required.
  if (given.length === 0 && definition.required) {
    Object.assign(errors, instances[0]?.inner ?? {});
    if (Object.keys(instances[0]?.inner ?? {}).length === 0) {
      errors[key] = NEEDS_SECTION;
    }
  }
  return given.map(({ children }) => ({ linkId: definition.linkId, text: definition.text, item: children }));
}

function build(
  definitions: readonly QuestionnaireItem[],
  pass: Pass,
  scope: string,
  answers: AnswersByLinkId,
  errors: Record<string, Message>,
): QuestionnaireResponseItem[] {
  pass.shown.set(scope, answers);
  const items: QuestionnaireResponseItem[] = [];
  for (const definition of definitions) {
    if (definition.type === 'display' || !isEnabled(definition, answers)) {
      continue;
    }
    const key = itemKey(scope, definition.linkId);
    if (definition.type === 'group') {
      items.push(...buildGroup(definition, key, pass, answers, errors));
      continue;
    }
    const given: QuestionnaireResponseItemAnswer[] = [];
    for (const value of pass.raw[key] ?? []) {
      const parsed = parseAnswer(definition, value, pass.optionsOf(definition));
      if (parsed && 'error' in parsed) {
        errors[key] = parsed.error;
      } else if (parsed) {
        given.push(parsed.answer);
      }
    }
    if (given.length > 0) {
      items.push({ linkId: definition.linkId, text: definition.text, answer: given });
    } else if (definition.required && !errors[key]) {
      errors[key] = NEEDS_ANSWER;
    }
  }
  return items;
}

/**
 * The response's items. enableWhen is judged on the answers that will be sent, as the server judges
 * it (response-problems.ts): a question hidden by an earlier answer does not show (or require) what
 * depends on it, and inside a group instance the instance's own answers count.
 */
export function buildResponseItems(
  definitions: readonly QuestionnaireItem[],
  raw: RawAnswers,
  optionsOf: OptionsOf,
  instances: GroupInstances = {},
): BuiltResponse {
  let items: QuestionnaireResponseItem[] = [];
  let previous: ReadonlyMap<string, readonly QuestionnaireResponseItem[]> = new Map();
  for (let round = 0; ; round++) {
    const pass: Pass = { raw, instances, optionsOf, previous, held: new Map(), shown: new Map() };
    const errors: Record<string, Message> = {};
    const next = build(definitions, pass, '', collectAnswers(items), errors);
    // Each round shows what the previous round's answers enable; a form settles within a few.
    if (JSON.stringify(next) === JSON.stringify(items) || round === 5) {
      return { items: next, errors, shown: pass.shown };
    }
    items = next;
    previous = pass.held;
  }
}
