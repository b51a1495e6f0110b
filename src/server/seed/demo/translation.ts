// A primitive's translation as FHIR carries it: the `_field` sibling with one extension
// http://hl7.org/fhir/StructureDefinition/translation per language (sub-extensions `lang`, `content`).
import type { Element } from '@medplum/fhirtypes';

export const TRANSLATION_URL = 'http://hl7.org/fhir/StructureDefinition/translation';

/** The `_field` element carrying the Spanish of a text. */
export function spanish(content: string): Element {
  return {
    extension: [
      {
        url: TRANSLATION_URL,
        extension: [
          { url: 'lang', valueCode: 'es' },
          { url: 'content', valueString: content },
        ],
      },
    ],
  };
}
