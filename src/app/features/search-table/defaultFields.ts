// The columns a table shows when neither the URL nor the saved layout names any: per type, what a
// clinician scans a list by (Medplum's SearchControl defaults as the floor). Every cell links to its
// resource, so no id column is needed; types not listed keep SPEC §3's ['id', '_lastUpdated'].
/** SPEC §3: the fields a table shows when the URL names none. */
export const DEFAULT_FIELDS: readonly string[] = ['id', '_lastUpdated'];

const LAST_UPDATED = '_lastUpdated';

const TYPE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Patient: ['name', 'birthDate', 'gender', 'identifier'],
  Practitioner: ['name', 'identifier', 'telecom'],
  Observation: ['subject', 'code', 'value', 'effective', 'status'],
  DiagnosticReport: ['subject', 'code', 'effective', 'status'],
  Communication: ['subject', 'sender', 'payload', 'sent', 'status'],
  Appointment: ['start', 'end', 'status', 'description'],
  Encounter: ['subject', 'class', 'period', 'status'],
  MedicationRequest: ['subject', 'medication', 'authoredOn', 'status'],
  Immunization: ['patient', 'vaccineCode', 'occurrence', 'status'],
  Questionnaire: ['title', 'status', 'url'],
  QuestionnaireResponse: ['subject', 'questionnaire', 'authored', 'status'],
  ProjectMembership: ['profile', 'user', 'accessPolicy', 'admin'],
  AccessPolicy: ['name', 'resource'],
  Bot: ['name', 'description'],
  ClientApplication: ['name', 'description', 'redirectUri'],
};

/** The default columns of a resource type's table. */
export function defaultFieldsOf(resourceType: string): string[] {
  const fields = TYPE_FIELDS[resourceType];
  return fields ? [...fields, LAST_UPDATED] : [...DEFAULT_FIELDS];
}
