// GET /fhir/R4/metadata: only what this server really does, search parameters included.
import type { CapabilityStatement, CapabilityStatementRestResource, Extension } from '@medplum/fhirtypes';
import type { RequestLimits } from '../input-limits';
import { getResourceTypes, getSearchParameters } from '../../fhir';
import { SYSTEM_OPERATIONS, TYPE_OPERATIONS } from './capability-operations';
import { MAX_SYSTEM_SEARCH_TYPES } from './system-search';
import { COMMON_SEARCH_PARAMETERS } from '../search/common-parameters';
import { DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT, MAX_SEARCH_OFFSET } from '../search/request-validation';

const SEARCH_DOCUMENTATION =
  `GET [type]?… or POST [type]/_search (form body). _count defaults to ${DEFAULT_SEARCH_COUNT} and is capped ` +
  `at ${MAX_SEARCH_COUNT}; _offset at most ${MAX_SEARCH_OFFSET}. Unknown parameters and malformed values ` +
  `are a 400 naming the parameter unless the request says Prefer: handling=lenient.`;

type SearchParamDeclaration = NonNullable<CapabilityStatementRestResource['searchParam']>[number];

function searchParamsOf(type: string): SearchParamDeclaration[] {
  return getSearchParameters(type).map((param) => ({
    name: param.code,
    type: param.type as SearchParamDeclaration['type'],
  }));
}

export const REQUEST_LIMITS_EXTENSION = 'https://bloom.example/fhir/StructureDefinition/request-limits';

/**
 * FHIR has no element for these bounds, so they travel as one extension on rest (each limit a
 * sub-extension named as in RequestLimits) and as a sentence in rest.documentation.
 */
function limitsExtension(limits: RequestLimits): Extension {
  return {
    url: REQUEST_LIMITS_EXTENSION,
    extension: Object.entries(limits).map(([name, value]) => ({ url: name, valueInteger: value as number })),
  };
}

function limitsDocumentation(limits: RequestLimits): string {
  return (
    `Limits: JSON bodies nest at most ${limits.maxDepth} levels, hold at most ${limits.maxArrayLength} elements ` +
    `per array and ${limits.maxStringLength} characters per string, and no control characters other than tab, ` +
    `CR and LF; a batch or transaction holds at most ${limits.maxBatchEntries} entries; a request carries at ` +
    `most ${limits.maxSearchParameters} search parameters and ${limits.maxSearchValues} values; a written ` +
    `resource produces at most ${limits.maxIndexValues} search index values. Beyond them: 400.`
  );
}

export function buildCapabilityStatement(fhirBase: string, limits: RequestLimits): CapabilityStatement {
  const resource: CapabilityStatementRestResource[] = getResourceTypes().map((type) => ({
    type: type as CapabilityStatementRestResource['type'],
    interaction: [
      { code: 'read' },
      { code: 'vread' },
      { code: 'update', documentation: 'Update of a missing or deleted id creates it (201).' },
      { code: 'patch', documentation: 'JSON Patch (application/json-patch+json) only.' },
      { code: 'delete', documentation: 'History is kept; reading a deleted resource answers 410.' },
      { code: 'history-instance' },
      { code: 'history-type' },
      { code: 'create' },
      { code: 'search-type', documentation: SEARCH_DOCUMENTATION },
    ],
    searchParam: searchParamsOf(type),
    versioning: 'versioned-update',
    readHistory: true,
    updateCreate: true,
    conditionalCreate: true,
    conditionalRead: 'not-supported',
    conditionalUpdate: false,
    conditionalDelete: 'not-supported',
    operation: [
      { name: 'validate', definition: 'http://hl7.org/fhir/OperationDefinition/Resource-validate' },
      ...(TYPE_OPERATIONS[type] ?? []),
    ],
  }));
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: new Date().toISOString(),
    kind: 'instance',
    software: { name: 'Bloom FHIR server', version: '0.1.0' },
    implementation: { description: 'Bloom FHIR R4 server', url: fhirBase },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'application/json'],
    patchFormat: ['application/json-patch+json'],
    rest: [
      {
        mode: 'server',
        extension: [limitsExtension(limits)],
        documentation: `Conditional create (If-None-Exist) understands only _id and identifier until search is implemented. ${limitsDocumentation(limits)}`,
        resource,
        searchParam: COMMON_SEARCH_PARAMETERS,
        interaction: [
          { code: 'transaction' },
          { code: 'batch' },
          {
            code: 'search-system',
            documentation: `GET [base]?_type=A,B&… with the common parameters, sorted by _lastUpdated or _id, at most ${MAX_SYSTEM_SEARCH_TYPES} types, no _include.`,
          },
        ],
        operation: SYSTEM_OPERATIONS,
      },
    ],
  };
}
