// The codes of the value sets (`answerValueSet`) that a QuestionnaireResponse's coded answers must
// come from, expanded with the server's $expand code (operations/concept-expansion.ts) over the
// writer's stored terminology and the FHIR definitions'. A value set that cannot be found or
// expanded exactly is left out: its answers are accepted unchecked, as the HL7 validator only warns
// when a value set is unavailable.
import type { Questionnaire, QuestionnaireItem, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { RepositoryContext } from '../access/context';
import type { Queryable } from '../db';
import { expandConcepts, NotExpandable } from '../operations/concept-expansion';
import { terminologySource } from '../operations/value-set-expand';

/** The codes of one expanded value set: `system|code`, and the bare codes for a coding with no system. */
export interface AllowedCodes {
  codings: ReadonlySet<string>;
  codes: ReadonlySet<string>;
}

/** Expanded value sets by the canonical the item names; one that could not be expanded is absent. */
export type AnswerValueSets = ReadonlyMap<string, AllowedCodes>;

/** Whether `coding` is one of `allowed`'s codes (by system and code; by code when it names no system). */
export function isAllowedCoding(allowed: AllowedCodes, coding: { system?: string; code?: string }): boolean {
  if (coding.code === undefined) {
    return false;
  }
  return coding.system === undefined
    ? allowed.codes.has(coding.code)
    : allowed.codings.has(`${coding.system}|${coding.code}`);
}

/** The linkIds answered with a Coding anywhere in the response. */
function codedLinkIds(items: QuestionnaireResponse['item'], into: Set<string>): Set<string> {
  for (const item of items ?? []) {
    if (item.answer?.some((answer) => answer.valueCoding) && item.linkId) {
      into.add(item.linkId);
    }
    codedLinkIds(item.item, into);
    for (const answer of item.answer ?? []) {
      codedLinkIds(answer.item, into);
    }
  }
  return into;
}

function valueSetsToCheck(items: QuestionnaireItem[] | undefined, answered: Set<string>, into: Set<string>) {
  for (const item of items ?? []) {
    if (item.answerValueSet && answered.has(item.linkId)) {
      into.add(item.answerValueSet);
    }
    valueSetsToCheck(item.item, answered, into);
  }
  return into;
}

/** The expansions the response's coded answers are checked against (only those it answers). */
export async function answerValueSets(
  connection: Queryable,
  context: RepositoryContext,
  questionnaire: Questionnaire,
  response: QuestionnaireResponse,
): Promise<AnswerValueSets> {
  const urls = valueSetsToCheck(questionnaire.item, codedLinkIds(response.item, new Set()), new Set());
  const out = new Map<string, AllowedCodes>();
  if (urls.size === 0) {
    return out;
  }
  const source = terminologySource(connection, context);
  for (const url of urls) {
    try {
      const concepts = await expandConcepts(url, source);
      out.set(url, {
        codings: new Set(concepts.map((concept) => `${concept.system}|${concept.code}`)),
        codes: new Set(concepts.map((concept) => concept.code)),
      });
    } catch (err) {
      if (!(err instanceof NotExpandable)) {
        throw err;
      }
    }
  }
  return out;
}
