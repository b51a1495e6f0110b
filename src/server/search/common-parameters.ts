// Search parameters every type has beyond its definitions' own, as the CapabilityStatement
// declares them (rest.searchParam: "for searching all resources"), with what this server does.
import type { CapabilityStatementRestResourceSearchParam } from '@medplum/fhirtypes';

export const COMMON_SEARCH_PARAMETERS: CapabilityStatementRestResourceSearchParam[] = [
  {
    name: '_filter',
    type: 'special',
    definition: 'http://hl7.org/fhir/SearchParameter/filter',
    documentation:
      'FHIR filter expressions: and, or, not (…), parentheses (and binds tighter than or); operators ' +
      'eq ne co sw ew (strings, folded) gt lt ge le sa eb ap (number, date, quantity) po (date) ' +
      'ss sb in ni (token) re (reference) pr (any); paths are search parameters or chains of them.',
  },
  {
    name: '_text',
    type: 'string',
    definition: 'http://hl7.org/fhir/SearchParameter/DomainResource-text',
    documentation:
      'Full-text search of the narrative (English stemming, case and accent folded; "phrases", or, -word).',
  },
  {
    name: '_content',
    type: 'string',
    definition: 'http://hl7.org/fhir/SearchParameter/Resource-content',
    documentation: 'Full-text search of every string of the resource, as _text.',
  },
];
