// The columns a table shows when neither the URL nor the saved layout names any: per type, what a
// clinician or an admin scans a list by. Medplum's app defaults are the floor (each type here shows
// at least the fields Medplum's would, less its id column); every cell links to its resource, so no
// id column is needed. Types not listed keep SPEC §3's ['id', '_lastUpdated'].
/** SPEC §3: the fields a table shows when the URL names none. */
export const DEFAULT_FIELDS: readonly string[] = ['id', '_lastUpdated'];

const LAST_UPDATED = '_lastUpdated';

const TYPE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // Care-team records (the navigation's Records menu).
  Patient: ['name', 'birthDate', 'gender', 'identifier'],
  Observation: ['subject', 'code', 'value', 'effective', 'status'],
  DiagnosticReport: ['subject', 'code', 'effective', 'status'],
  Communication: ['subject', 'sender', 'payload', 'sent', 'status'],
  Appointment: ['start', 'end', 'status', 'participant', 'description'],
  MedicationRequest: ['subject', 'medication', 'authoredOn', 'status'],
  Immunization: ['patient', 'vaccineCode', 'occurrence', 'status'],
  Questionnaire: ['title', 'name', 'status', 'url'],
  QuestionnaireResponse: ['subject', 'questionnaire', 'authored', 'status'],
  Practitioner: ['name', 'identifier', 'telecom'],
  Encounter: ['subject', 'class', 'period', 'status'],
  Condition: ['subject', 'code', 'clinicalStatus', 'onset'],
  ServiceRequest: ['subject', 'code', 'status', 'orderDetail'],
  CarePlan: ['subject', 'title', 'period', 'status'],
  Organization: ['name', 'identifier'],
  // Project administration (the navigation's Admin menu).
  ProjectMembership: ['profile', 'user', 'accessPolicy', 'access', 'admin'],
  AccessPolicy: ['name', 'resource'],
  Bot: ['name', 'description'],
  ClientApplication: ['name', 'description', 'redirectUri'],
  Project: ['name', 'description'],
  User: ['email', 'firstName', 'lastName'],
  UserConfiguration: ['name'],
  Subscription: ['criteria', 'status', 'reason'],
  CodeSystem: ['name', 'title', 'status'],
  ValueSet: ['name', 'title', 'status'],
};

/** The default columns of a resource type's table. */
export function defaultFieldsOf(resourceType: string): string[] {
  const fields = TYPE_FIELDS[resourceType];
  return fields ? [...fields, LAST_UPDATED] : [...DEFAULT_FIELDS];
}

/** The resource types with their own default columns (the server-side check walks them all). */
export function typesWithDefaults(): string[] {
  return Object.keys(TYPE_FIELDS);
}
