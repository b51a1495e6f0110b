// The codes of every answerValueSet a questionnaire names, expanded by the server's ValueSet/$expand
// (one request per value set, once per screen); a value set that cannot be expanded is reported, so
// its question says so instead of offering no choice.
import type { Coding, Questionnaire, QuestionnaireItem, ValueSetExpansionContains } from '@medplum/fhirtypes';
import { useEffect, useState } from 'react';
import { useBloomClient } from '../../session/BloomClientContext';
import type { ExpandedValueSets } from './QuestionnaireForm';

function valueSetUrls(items: readonly QuestionnaireItem[] = [], into = new Set<string>()): Set<string> {
  for (const item of items) {
    if (item.answerValueSet && !item.answerOption?.length) {
      into.add(item.answerValueSet);
    }
    valueSetUrls(item.item, into);
  }
  return into;
}

function codings(contains: readonly ValueSetExpansionContains[] = []): Coding[] {
  return contains.flatMap((entry) => [
    ...(entry.code ? [{ system: entry.system, code: entry.code, display: entry.display }] : []),
    ...codings(entry.contains),
  ]);
}

export function useExpandedValueSets(questionnaire: Questionnaire | undefined): ExpandedValueSets {
  const client = useBloomClient();
  const [expanded, setExpanded] = useState<ExpandedValueSets>(new Map());
  useEffect(() => {
    let current = true;
    for (const url of valueSetUrls(questionnaire?.item)) {
      client
        .valueSetExpand({ url, count: 200 })
        .then(
          (valueSet) => codings(valueSet.expansion?.contains),
          () => ({ problem: 'not expandable' }),
        )
        .then((result) => {
          if (current) {
            setExpanded((previous) => new Map(previous).set(url, result));
          }
        });
    }
    return () => {
      current = false;
    };
  }, [client, questionnaire]);
  return expanded;
}
