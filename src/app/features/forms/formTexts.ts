// A past response shows what she was asked in her language: the response keeps the texts of the form
// as it was sent (English), so its questions and coded answers are looked up in the form by linkId
// (unique in a Questionnaire) and, for a coding, by system and code; the stored text is the fallback.
import type { Coding, Questionnaire, QuestionnaireItem, QuestionnaireResponseItem } from '@medplum/fhirtypes';
import type { Locale } from '../../i18n/locale';
import { extensionSibling, translatedText } from '../../i18n/translatedText';

export interface FormTexts {
  /** The question of a response item: the form's translated text, else the stored text, else its linkId. */
  question: (item: QuestionnaireResponseItem) => string;
  /** A coded answer's words: the form's translated option display, else the stored display or code. */
  coding: (linkId: string, coding: Coding) => string;
}

function indexItems(
  items: readonly QuestionnaireItem[] | undefined,
  index: Map<string, QuestionnaireItem>,
): void {
  for (const item of items ?? []) {
    index.set(item.linkId, item);
    indexItems(item.item, index);
  }
}

export function formTexts(form: Questionnaire | undefined, locale: Locale): FormTexts {
  const index = new Map<string, QuestionnaireItem>();
  indexItems(form?.item, index);
  return {
    question: (item) => {
      const asked = index.get(item.linkId);
      const text = asked ? translatedText(extensionSibling(asked, 'text'), asked.text, locale) : undefined;
      return text ?? item.text ?? item.linkId;
    },
    coding: (linkId, coding) => {
      const offered = index
        .get(linkId)
        ?.answerOption?.find(
          (option) =>
            option.valueCoding?.code === coding.code && option.valueCoding?.system === coding.system,
        )?.valueCoding;
      const translated = offered
        ? translatedText(extensionSibling(offered, 'display'), undefined, locale)
        : undefined;
      return translated ?? coding.display ?? coding.code ?? '';
    },
  };
}
