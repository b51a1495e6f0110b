// The operations of the platform services (SPEC §7 $export, Bot $execute/$deploy, Agent
// $push) as the CapabilityStatement declares them: Bulk Data's own OperationDefinitions for
// $export, Medplum's names for the rest, so Bulk Data and Medplum clients find them in /metadata.
import type { CapabilityStatementRestResourceOperation } from '@medplum/fhirtypes';

type Operation = CapabilityStatementRestResourceOperation;

const BULK_DATA = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition';
const MEDPLUM = 'https://medplum.com/fhir/OperationDefinition';
const ASYNC =
  'Prefer: respond-async; _type, _since, _outputFormat (NDJSON). 202 with Content-Location to a status URL (202 with X-Progress while running, 200 with the manifest when done). Access-controlled like search.';

/** [base]/$export. */
export const SYSTEM_OPERATIONS: Operation[] = [
  {
    name: 'export',
    definition: `${BULK_DATA}/export`,
    documentation: `Every resource the caller may read. ${ASYNC} [type]/$export exports one type the same way.`,
  },
];

/** Operations on one resource type or its instances, by type. */
export const TYPE_OPERATIONS: Readonly<Record<string, Operation[]>> = {
  Patient: [
    {
      name: 'export',
      definition: `${BULK_DATA}/patient-export`,
      documentation: `Patient/$export: the Patient compartments the caller may read (a patient: her own). ${ASYNC}`,
    },
  ],
  Group: [
    {
      name: 'export',
      definition: `${BULK_DATA}/group-export`,
      documentation: `Group/{id}/$export: the compartments of the group's active Patient members. ${ASYNC}`,
    },
  ],
  Bot: [
    {
      name: 'execute',
      definition: `${MEDPLUM}/bot-execute`,
      documentation:
        'Bot/{id}/$execute or Bot/$execute?identifier=system|value: runs the bot in its sandbox with the request body as input and answers its output. ' +
        "Bots are Medplum's handler(medplum, event) modules, CommonJS or ES module; require('@medplum/core') and imports of it answer a subset of the real package " +
        '(references, display, identifiers, extensions, outcomes, FHIRPath, HL7 v2), any other module fails with 400. ' +
        'An x-application/hl7-v2+er7 body arrives as an Hl7Message; an Hl7Message answer goes back as HL7 v2 text.',
    },
    {
      name: 'deploy',
      definition: `${MEDPLUM}/bot-deploy`,
      documentation: 'Bot/{id}/$deploy with {code, filename}: project admins only.',
    },
  ],
  Agent: [
    {
      name: 'push',
      definition: `${MEDPLUM}/agent-push`,
      documentation:
        'Agent/{id}/$push or Agent/$push?identifier=: {destination, body, contentType, waitForResponse}, delivered through the connected agent program.',
    },
  ],
};
