// EPDS scoring (the Edinburgh Postnatal Depression Scale): the total and item 10 at the alert boundaries
// (12 vs 13, item 10 = 0 vs 1), the reverse-scored items (3 and 5-10 print their worst answer first),
// and responses that are not a score (a missing item, an answer the scale does not offer).
import type { QuestionnaireResponse, QuestionnaireResponseItem } from '@medplum/fhirtypes';
import { EPDS_QUESTIONNAIRE_URL, isEpdsAlert, scoreEpds } from '../../../src/fhir/screening/epds';
import {
  buildEpdsQuestionnaire,
  EPDS_ITEMS,
  epdsAnswer,
  epdsLinkId,
} from '../../../src/server/seed/demo/epds-questionnaire';

const questionnaire = buildEpdsQuestionnaire('2026-01-01T12:00:00Z');

/** A response with the given score per item (items 1-10 in order). */
function response(scores: readonly number[]): QuestionnaireResponse {
  const item: QuestionnaireResponseItem[] = scores.map((score, index) => ({
    linkId: epdsLinkId(index + 1),
    answer: [{ valueCoding: epdsAnswer(index + 1, score) }],
  }));
  return {
    resourceType: 'QuestionnaireResponse',
    status: 'completed',
    questionnaire: EPDS_QUESTIONNAIRE_URL,
    item,
  };
}

/** The response's answers with the scoring extension removed, as a renderer might send them. */
function withoutExtensions(source: QuestionnaireResponse): QuestionnaireResponse {
  return {
    ...source,
    item: source.item?.map((i) => ({
      ...i,
      answer: i.answer?.map((a) => ({
        valueCoding: { system: a.valueCoding?.system, code: a.valueCoding?.code },
      })),
    })),
  };
}

function scored(scores: readonly number[]) {
  const result = scoreEpds(questionnaire, response(scores));
  if (!result.ok) throw new Error(result.error);
  return result.score;
}

describe('EPDS scoring', () => {
  it('a total of 12 with item 10 at 0 raises no alert; 13 does', () => {
    expect(scored([2, 2, 2, 2, 2, 2, 0, 0, 0, 0])).toEqual({ total: 12, selfHarm: 0, alert: false });
    expect(scored([2, 2, 2, 2, 2, 2, 1, 0, 0, 0])).toEqual({ total: 13, selfHarm: 0, alert: true });
  });

  it('any answer above 0 to item 10 raises an alert at any total; 0 does not', () => {
    expect(scored([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toEqual({ total: 0, selfHarm: 0, alert: false });
    expect(scored([0, 0, 0, 0, 0, 0, 0, 0, 0, 1])).toEqual({ total: 1, selfHarm: 1, alert: true });
    expect(isEpdsAlert(12, 0)).toBe(false);
    expect(isEpdsAlert(13, 0)).toBe(true);
    expect(isEpdsAlert(0, 1)).toBe(true);
  });

  it('items 3 and 5-10 are reverse scored: their first printed answer scores 3, the others 0', () => {
    const firstPrinted = EPDS_ITEMS.map(
      (_, index) => questionnaire.item?.[index].answerOption?.[0].valueCoding,
    );
    const firstAnswers: QuestionnaireResponse = {
      ...response(Array(10).fill(0)),
      item: firstPrinted.map((coding, index) => ({
        linkId: epdsLinkId(index + 1),
        answer: [{ valueCoding: coding }],
      })),
    };
    const result = scoreEpds(questionnaire, firstAnswers);
    // Items 1, 2 and 4 print their calmest answer first (0); the seven others their worst (3).
    expect(result).toEqual({ ok: true, score: { total: 21, selfHarm: 3, alert: true } });
    const reverse = [3, 5, 6, 7, 8, 9, 10];
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
      const first = questionnaire.item?.[n - 1].answerOption?.[0].valueCoding;
      expect(first?.extension?.[0].valueDecimal).toBe(reverse.includes(n) ? 3 : 0);
    }
    expect(questionnaire.item?.[2].answerOption?.[0].valueCoding?.display).toBe('Yes, most of the time');
  });

  it('scores by the Questionnaire, so answers without the ordinalValue extension score the same', () => {
    const scores = [3, 2, 1, 0, 3, 2, 1, 0, 1, 1];
    expect(scoreEpds(questionnaire, withoutExtensions(response(scores)))).toEqual({
      ok: true,
      score: { total: 14, selfHarm: 1, alert: true },
    });
  });

  it('the itemWeight extension on an answerOption scores too', () => {
    const weighted = {
      ...questionnaire,
      item: questionnaire.item?.map((item) => ({
        ...item,
        answerOption: item.answerOption?.map((option) => ({
          valueCoding: { system: option.valueCoding?.system, code: option.valueCoding?.code },
          extension: [
            {
              url: 'http://hl7.org/fhir/StructureDefinition/itemWeight',
              valueDecimal: option.valueCoding?.extension?.[0].valueDecimal,
            },
          ],
        })),
      })),
    };
    expect(scoreEpds(weighted, response([1, 1, 1, 1, 1, 1, 1, 1, 1, 0]))).toEqual({
      ok: true,
      score: { total: 9, selfHarm: 0, alert: false },
    });
  });

  it('a missing item, two answers or an answer the scale does not offer is not a score', () => {
    const missing = response(Array(10).fill(0));
    missing.item = missing.item?.slice(0, 9);
    expect(scoreEpds(questionnaire, missing)).toEqual({
      ok: false,
      error: 'Item epds-10 needs exactly one answer',
    });

    const twice = response(Array(10).fill(0));
    twice.item?.[0].answer?.push({ valueCoding: epdsAnswer(1, 1) });
    expect(scoreEpds(questionnaire, twice)).toEqual({
      ok: false,
      error: 'Item epds-1 needs exactly one answer',
    });

    const foreign = response(Array(10).fill(0));
    if (foreign.item)
      foreign.item[4].answer = [{ valueCoding: { system: 'http://example.org', code: '5a' } }];
    expect(scoreEpds(questionnaire, foreign)).toEqual({
      ok: false,
      error: 'Item epds-5 has an answer the scale does not score',
    });

    expect(
      scoreEpds({ ...questionnaire, item: questionnaire.item?.slice(0, 9) }, response(Array(10).fill(0))),
    ).toEqual({
      ok: false,
      error: "The questionnaire has 9 choice items, not the scale's 10",
    });
  });
});
