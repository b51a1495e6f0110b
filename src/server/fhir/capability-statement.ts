// GET /fhir/R4/metadata: only what this server really does. Search is the plain newest-first list
// until the search issue lands, and says so.
import type { CapabilityStatement, CapabilityStatementRestResource } from '@medplum/fhirtypes';
import { getResourceTypes } from '../../fhir';
import { MAX_COUNT } from './paging';

const LIST_DOCUMENTATION =
  `Search is not implemented yet: GET [type] lists the newest resources of the type, newest first, ` +
  `paged with _count (default 20, at most ${MAX_COUNT}) and _offset; any other parameter is a 400.`;

export function buildCapabilityStatement(fhirBase: string): CapabilityStatement {
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
      { code: 'search-type', documentation: LIST_DOCUMENTATION },
    ],
    versioning: 'versioned-update',
    readHistory: true,
    updateCreate: true,
    conditionalCreate: true,
    conditionalRead: 'not-supported',
    conditionalUpdate: false,
    conditionalDelete: 'not-supported',
    operation: [
      { name: 'validate', definition: 'http://hl7.org/fhir/OperationDefinition/Resource-validate' },
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
        documentation:
          'Conditional create (If-None-Exist) understands only _id and identifier until search is implemented.',
        resource,
        interaction: [{ code: 'transaction' }, { code: 'batch' }],
      },
    ],
  };
}
