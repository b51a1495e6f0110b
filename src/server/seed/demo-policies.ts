// The demo clinic's rules as Medplum AccessPolicy data (SPEC §6): the patient policy, parameterised
// by `%patient` (Medplum substitutes the membership's Patient, or the profile, before it applies
// the policy), the clinic staff policy and the admin's extra rights. Each type names one entry per
// interaction, so Medplum's first-match rule (satisfiedAccessPolicy) always picks the entry whose
// writeConstraints are meant for that write.
import type { AccessPolicy, AccessPolicyResource } from '@medplum/fhirtypes';
import { getResourceTypes } from '../../fhir/definitions';
import { PLATFORM_TYPES } from '../access/access-control';

type Interaction = NonNullable<AccessPolicyResource['interaction']>[number];

const READ: Interaction[] = ['read', 'vread', 'history', 'search'];
const READ_CREATE: Interaction[] = [...READ, 'create'];
const READ_CREATE_UPDATE: Interaction[] = [...READ_CREATE, 'update'];

/** An update that keeps a thread header (no `partOf`) about the same Patient (hers: compartment). */
const HEADER_KEPT =
  "(%before.partOf.empty() and %after.partOf.empty() and %before.subject.reference.startsWith('Patient/') and %after.subject.reference = %before.subject.reference)";

/**
 * A read receipt, as Medplum's ThreadChat writes one when a message reaches its recipient in a
 * two-person thread (PUT with `received` set and status completed): a message to her (her Patient,
 * the subject, among the recipients) with nothing else changed.
 */
const MESSAGE_RECEIPT =
  "(%before.partOf.exists() and %after.partOf = %before.partOf and %after.subject = %before.subject and %after.sender = %before.sender and %after.recipient = %before.recipient and %after.payload = %before.payload and %after.sent = %before.sent and %after.status = 'completed' and %after.received.exists() and %before.recipient.reference contains %before.subject.reference)";

/**
 * Which Communication updates a patient may make: a thread header kept a header about her, or a
 * read receipt of a message to her. Creates pass (the other constraints judge them).
 */
export const THREAD_HEADER_UPDATE = `%before.exists() implies (${HEADER_KEPT} or ${MESSAGE_RECEIPT})`;

/**
 * She is the author of what she creates (sender and subject her own Patient), and an update never
 * changes who sent it: no message or header written in her name can name her doctor as its sender.
 */
export const COMMUNICATION_AUTHOR =
  "iif(%before.exists(), %after.sender ~ %before.sender, %after.sender.reference = '%patient' and %after.subject.reference = '%patient')";

/** What she creates names no other patient as a recipient; an update keeps the recipients. */
export const COMMUNICATION_NO_OTHER_PATIENT =
  "iif(%before.exists(), %after.recipient ~ %before.recipient, %after.recipient.where(reference.startsWith('Patient/') and reference != '%patient').empty())";

/** Her own measurement: about her, and performed by her if it names a performer at all. */
export const OBSERVATION_AUTHOR =
  "%after.subject.reference = '%patient' and %after.performer.all(reference = '%patient')";

/** Her answers: about her, authored by her (or by no one named), and final once completed. */
export const QUESTIONNAIRE_RESPONSE_AUTHOR =
  "%after.subject.reference = '%patient' and %after.author.all(reference = '%patient') and %after.source.all(reference = '%patient') and (%before.exists() implies %before.status = 'in-progress')";

function constraints(...expressions: string[]): AccessPolicyResource['writeConstraint'] {
  return expressions.map((expression) => ({ language: 'text/fhirpath', expression }));
}

/** Her compartment's records the clinic writes and she only reads. */
const PATIENT_READ_ONLY_TYPES = [
  'AllergyIntolerance',
  'Appointment',
  'CarePlan',
  'CareTeam',
  'Condition',
  'Coverage',
  'DiagnosticReport',
  'DocumentReference',
  'Encounter',
  'Goal',
  'Immunization',
  'Media',
  'MedicationRequest',
  'Procedure',
  'ServiceRequest',
  'Specimen',
];

/** The clinic's shared resources, in no patient's compartment: whom and what she books and answers. */
const CLINIC_SHARED_TYPES = [
  'HealthcareService',
  'Location',
  'Organization',
  'Practitioner',
  'PractitionerRole',
  'Questionnaire',
  'Schedule',
  'Slot',
];

function inHerCompartment(resourceType: string): string {
  return `${resourceType}?_compartment=%patient`;
}

/** What a patient may do in the demo clinic (SPEC §6), as data an admin can change. */
export function buildPatientAccessPolicy(): AccessPolicy {
  return {
    resourceType: 'AccessPolicy',
    name: 'Bloom patient',
    // What she creates is placed in her compartment too.
    compartment: { reference: '%patient' },
    resource: [
      // Her own Patient: read, and update (her contact details, language...).
      { resourceType: 'Patient', criteria: 'Patient?_id=%patient.id', interaction: [...READ, 'update'] },
      // Her measurements: about her and by her, never by her doctor.
      {
        resourceType: 'Observation',
        criteria: inHerCompartment('Observation'),
        interaction: READ_CREATE,
        writeConstraint: constraints(OBSERVATION_AUTHOR),
      },
      // Her messages and thread headers. Medplum's ThreadChat PATCHes the header after each
      // message and PUTs read receipts: those updates and no others.
      {
        resourceType: 'Communication',
        criteria: inHerCompartment('Communication'),
        interaction: READ_CREATE_UPDATE,
        writeConstraint: constraints(
          THREAD_HEADER_UPDATE,
          COMMUNICATION_AUTHOR,
          COMMUNICATION_NO_OTHER_PATIENT,
        ),
      },
      // Her answers to the clinic's forms (saved in progress, then completed).
      {
        resourceType: 'QuestionnaireResponse',
        criteria: inHerCompartment('QuestionnaireResponse'),
        interaction: READ_CREATE_UPDATE,
        writeConstraint: constraints(QUESTIONNAIRE_RESPONSE_AUTHOR),
      },
      // Her live updates: Subscriptions she creates are placed in her compartment.
      { resourceType: 'Subscription', criteria: inHerCompartment('Subscription'), interaction: READ_CREATE },
      // A message's attachment: her uploads carry her Patient as securityContext. Binary has no
      // search parameters, so its entry names the compartment rather than a criteria.
      { resourceType: 'Binary', compartment: { reference: '%patient' }, interaction: READ_CREATE },
      ...PATIENT_READ_ONLY_TYPES.map((resourceType) => ({
        resourceType,
        criteria: inHerCompartment(resourceType),
        interaction: READ,
      })),
      ...CLINIC_SHARED_TYPES.map((resourceType) => ({ resourceType, interaction: READ })),
    ],
  };
}

/** Platform types the demo admin manages (memberships, users and the Project come with `admin`). */
const ADMIN_TYPES = [
  'AccessPolicy',
  'Agent',
  'Bot',
  'ClientApplication',
  'SmartAppLaunch',
  'UserConfiguration',
];

/**
 * What the clinic's staff may do: every clinical and administrative FHIR type, read and write; the
 * clinic's Bots and Agents are used but not edited; no other platform type.
 */
export function buildPractitionerAccessPolicy(): AccessPolicy {
  const clinical = getResourceTypes().filter((type) => !PLATFORM_TYPES.has(type));
  return {
    resourceType: 'AccessPolicy',
    name: 'Bloom clinic staff',
    resource: [
      ...clinical.map((resourceType) => ({ resourceType })),
      // $execute reads the Bot it runs; $push reads the Agent it sends through.
      { resourceType: 'Bot', interaction: READ },
      { resourceType: 'Agent', interaction: READ },
    ],
  };
}

/** The admin's rights beyond the staff policy: the project's access policies, bots and apps. */
export function buildAdminAccessPolicy(): AccessPolicy {
  return {
    resourceType: 'AccessPolicy',
    name: 'Bloom admin',
    resource: ADMIN_TYPES.map((resourceType) => ({ resourceType })),
  };
}
