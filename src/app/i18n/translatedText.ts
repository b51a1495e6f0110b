// Texts the data translates: FHIR carries a primitive's translations on its `_field` sibling, as
// extensions http://hl7.org/fhir/StructureDefinition/translation with sub-extensions `lang` (a BCP-47
// code) and `content` (the text). The app shows the one of the active language, else the base text.
import type { Element } from '@medplum/fhirtypes';
import { supportedLocale, type Locale } from './locale';

export const TRANSLATION_URL = 'http://hl7.org/fhir/StructureDefinition/translation';

/** The translation of `value` into `locale` that `element` (its `_field` sibling) carries, else `value`. */
export function translatedText(
  element: Element | null | undefined,
  value: string | null | undefined,
  locale: Locale,
): string | undefined {
  let match: string | undefined;
  for (const extension of element?.extension ?? []) {
    if (extension.url !== TRANSLATION_URL) continue;
    const parts = extension.extension ?? [];
    const lang = parts.find((part) => part.url === 'lang')?.valueCode;
    const content = parts.find((part) => part.url === 'content')?.valueString;
    if (!content || supportedLocale(lang) !== locale) continue;
    // An exact tag ('es') wins over a regional one ('es-MX').
    if (lang?.toLowerCase() === locale) return content;
    match ??= content;
  }
  return match ?? value ?? undefined;
}

/** A primitive's `_field` sibling, read from any FHIR JSON object (the types have no `_` fields). */
export function extensionSibling(owner: object | null | undefined, field: string): Element | undefined {
  const sibling = (owner as Record<string, unknown> | null | undefined)?.[`_${field}`];
  return sibling && typeof sibling === 'object' ? (sibling as Element) : undefined;
}
