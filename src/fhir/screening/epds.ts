// Scoring of the Edinburgh Postnatal Depression Scale (EPDS; Cox, Holden & Sagovsky 1987): ten
// items scored 0-3, the score of each answer taken from the Questionnaire (the ordinalValue
// extension on the answer's Coding, or the itemWeight extension on the answerOption), so the
// reverse-scored items need no special case here. Pure: shared by the scoring bot (bundled into
// it) and the app.
import type {
  Coding,
  Extension,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
} from '@medplum/fhirtypes';

/** The canonical URL of the clinic's EPDS Questionnaire. */
export const EPDS_QUESTIONNAIRE_URL =
  'https://bloom.example/fhir/Questionnaire/edinburgh-postnatal-depression-scale';
/** LOINC: Edinburgh Postnatal Depression Scale [EPDS] total score. */
export const EPDS_TOTAL_LOINC = '99046-5';
/** Bloom's code for the score of item 10 (thoughts of self-harm), a component of the total. */
export const EPDS_CODE_SYSTEM = 'https://bloom.example/fhir/CodeSystem/epds';
export const EPDS_SELF_HARM_CODE = 'item-10-self-harm';
/** The item about thoughts of self-harm: any answer above 0 is raised at once. */
export const EPDS_SELF_HARM_LINK_ID = 'epds-10';
/** A total at or above this asks the care team to follow up (the threshold). */
export const EPDS_ALERT_TOTAL = 13;
export const EPDS_ITEM_COUNT = 10;

export const ORDINAL_VALUE_URL = 'http://hl7.org/fhir/StructureDefinition/ordinalValue';
export const ITEM_WEIGHT_URL = 'http://hl7.org/fhir/StructureDefinition/itemWeight';

export interface EpdsScore {
  /** Sum of the ten item scores, 0-30. */
  total: number;
  /** Score of item 10 (self-harm), 0-3. */
  selfHarm: number;
  /** True on a total of 13 or more, or any answer above 0 to item 10. */
  alert: boolean;
}

export type EpdsScoring = { ok: true; score: EpdsScore } | { ok: false; error: string };

function decimalOf(extensions: readonly Extension[] | undefined, url: string): number | undefined {
  const value = extensions?.find((e) => e.url === url)?.valueDecimal;
  return typeof value === 'number' ? value : undefined;
}

function sameCoding(a: Coding | undefined, b: Coding | undefined): boolean {
  return Boolean(
    a && b && a.code !== undefined && a.code === b.code && (a.system ?? '') === (b.system ?? ''),
  );
}

/** The score the Questionnaire gives the chosen Coding of one item, if any. */
function optionScore(item: QuestionnaireItem, chosen: Coding | undefined): number | undefined {
  const option = item.answerOption?.find((o) => sameCoding(o.valueCoding, chosen));
  if (!option) return undefined;
  return (
    decimalOf(option.valueCoding?.extension, ORDINAL_VALUE_URL) ??
    decimalOf(option.extension, ITEM_WEIGHT_URL)
  );
}

function answersByLinkId(
  items: readonly QuestionnaireResponseItem[] | undefined,
): Map<string, QuestionnaireResponseItem> {
  const found = new Map<string, QuestionnaireResponseItem>();
  const walk = (list: readonly QuestionnaireResponseItem[] | undefined): void => {
    for (const item of list ?? []) {
      found.set(item.linkId, item);
      walk(item.item);
    }
  };
  walk(items);
  return found;
}

function scoredItems(questionnaire: Questionnaire): QuestionnaireItem[] {
  const found: QuestionnaireItem[] = [];
  const walk = (list: readonly QuestionnaireItem[] | undefined): void => {
    for (const item of list ?? []) {
      if (item.type === 'choice') found.push(item);
      walk(item.item);
    }
  };
  walk(questionnaire.item);
  return found;
}

/** Whether a total and an item 10 score call for the care team now. */
export function isEpdsAlert(total: number, selfHarm: number): boolean {
  return total >= EPDS_ALERT_TOTAL || selfHarm > 0;
}

/**
 * Scores a response against the Questionnaire it answers. Every one of the ten items must carry one
 * answer that the Questionnaire scores: a partial scale is not a score.
 */
export function scoreEpds(questionnaire: Questionnaire, response: QuestionnaireResponse): EpdsScoring {
  const items = scoredItems(questionnaire);
  if (items.length !== EPDS_ITEM_COUNT) {
    return {
      ok: false,
      error: `The questionnaire has ${items.length} choice items, not the scale's ${EPDS_ITEM_COUNT}`,
    };
  }
  const answers = answersByLinkId(response.item);
  let total = 0;
  let selfHarm = 0;
  for (const item of items) {
    const answer = answers.get(item.linkId)?.answer;
    if (!answer || answer.length !== 1) {
      return { ok: false, error: `Item ${item.linkId} needs exactly one answer` };
    }
    const score = optionScore(item, answer[0].valueCoding);
    if (score === undefined || !Number.isInteger(score) || score < 0 || score > 3) {
      return { ok: false, error: `Item ${item.linkId} has an answer the scale does not score` };
    }
    total += score;
    if (item.linkId === EPDS_SELF_HARM_LINK_ID) selfHarm = score;
  }
  return { ok: true, score: { total, selfHarm, alert: isEpdsAlert(total, selfHarm) } };
}
