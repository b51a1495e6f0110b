// The base FHIR definitions over real HTTP (SPEC §7 schema load, §6): REST
// search and read and GraphQL list them for every signed-in user, after the project's stored ones,
// as one list for paging and totals; nobody but a super admin writes them. PGlite always,
// PostgreSQL too with TEST_DATABASE_URL.
import type { Bundle, OperationOutcome, StructureDefinition } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';

describe.each(databases())('base FHIR definitions on %s', (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  const search = (query: string, tokens = clinic.maria) =>
    call<Bundle<StructureDefinition>>(clinic.server, 'GET', `fhir/R4/${query}`, tokens);
  const readPatientDefinition = async () =>
    (
      await call<StructureDefinition>(
        clinic.server,
        'GET',
        'fhir/R4/StructureDefinition/Patient',
        clinic.maria,
      )
    ).body;
  const ids = (bundle: Bundle) => (bundle.entry ?? []).map((e) => e.resource?.id);

  test('SPEC §7 a patient finds StructureDefinition?name=Patient and reads it by id', async () => {
    const found = await search('StructureDefinition?name:exact=Patient');
    expect(found.status).toBe(200);
    expect(ids(found.body)).toEqual(['Patient']);
    const read = await search('StructureDefinition/Patient');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      url: 'http://hl7.org/fhir/StructureDefinition/Patient',
      kind: 'resource',
    });
    expect((await search('StructureDefinition/NoSuchDefinition')).status).toBe(404);
    expect((await call(clinic.server, 'GET', 'fhir/R4/StructureDefinition/Patient', undefined)).status).toBe(
      401,
    );
  });

  test("issue #20 _filter selects base definitions as the SQL does for stored ones (Medplum's requestSchema)", async () => {
    const filtered = (type: string, filter: string) =>
      search(`${type}?${new URLSearchParams({ _filter: filter, _count: '200' })}`);
    // eq is the whole (folded) name, not a prefix: PatientBloom or any 'Patient…' are not Patient.
    expect(ids((await filtered('StructureDefinition', 'name eq Patient')).body)).toEqual(['Patient']);
    expect(ids((await filtered('StructureDefinition', 'name eq patient')).body)).toEqual(['Patient']);
    expect(
      ids(
        (
          await filtered(
            'StructureDefinition',
            '(name eq Patient or name eq Practitioner) and kind eq resource',
          )
        ).body,
      ),
    ).toEqual(['Patient', 'Practitioner']);
    const statements = ids(
      (await filtered('StructureDefinition', 'name ew Statement and not (name sw Medication)')).body,
    );
    expect(statements).toContain('CapabilityStatement');
    expect(statements).not.toContain('MedicationStatement');
    expect(ids((await filtered('StructureDefinition', 'name eq Patient and date po 2019')).body)).toEqual([
      'Patient',
    ]);
    expect(ids((await filtered('StructureDefinition', 'name eq Patient and date po 2020')).body)).toEqual([]);
    const dates = await filtered('SearchParameter', 'base eq Patient and type eq date');
    const byParameters = await search('SearchParameter?base=Patient&type=date&_count=200');
    expect(ids(dates.body)).toEqual(ids(byParameters.body));
    expect(ids(dates.body)).toContain('individual-birthdate');

    const graphql = await call<{ data: { StructureDefinitionList: { name: string }[] } }>(
      clinic.server,
      'POST',
      'fhir/R4/$graphql',
      clinic.maria,
      {
        body: { query: '{ StructureDefinitionList(_filter: "name eq Patient") { name } }' },
        contentType: 'application/json',
      },
    );
    expect(graphql.body.data.StructureDefinitionList).toEqual([{ name: 'Patient' }]);
  });

  test('SearchParameter?base=Patient pages through the base parameters with an accurate total', async () => {
    const first = await search('SearchParameter?base=Patient&_count=10&_total=accurate');
    const all = await search('SearchParameter?base=Patient&_count=100&_total=accurate');
    expect(first.body.total).toBe(all.body.total);
    expect(all.body.total).toBeGreaterThan(10);
    const second = await search('SearchParameter?base=Patient&_count=10&_offset=10');
    expect([...ids(first.body), ...ids(second.body)]).toEqual(ids(all.body).slice(0, 20));
    expect(first.body.link?.some((l) => l.relation === 'next')).toBe(true);
    expect(ids(all.body)).toContain('individual-birthdate');
  });

  test('stored definitions come first, then the base ones, in one list', async () => {
    const stored = await call<StructureDefinition>(
      clinic.server,
      'POST',
      'fhir/R4/StructureDefinition',
      clinic.chen,
      {
        body: {
          resourceType: 'StructureDefinition',
          url: 'https://bloom.example/fhir/StructureDefinition/PatientBloom',
          name: 'PatientBloom',
          status: 'active',
          kind: 'resource',
          abstract: false,
          type: 'Patient',
          derivation: 'constraint',
          baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Patient',
        },
      },
    );
    expect(stored.status).toBe(201);
    const found = await search('StructureDefinition?name=Patient&_total=accurate', clinic.chen);
    expect(ids(found.body)[0]).toBe(stored.body.id);
    expect(ids(found.body)).toContain('Patient');
    expect(found.body.total).toBe(found.body.entry?.length);
    // Another project's member sees the base definitions but not this project's.
    const other = await search('StructureDefinition?name=Patient', clinic.otherAdmin);
    expect(ids(other.body)).toContain('Patient');
    expect(ids(other.body)).not.toContain(stored.body.id);
  });

  test('SPEC §7 GraphQL StructureDefinitionList and SearchParameterList for a patient', async () => {
    const response = await call<{
      data: { StructureDefinitionList: { name: string }[]; SearchParameterList: { code: string }[] };
    }>(clinic.server, 'POST', 'fhir/R4/$graphql', clinic.maria, {
      body: {
        query:
          '{ StructureDefinitionList(name: "Observation") { name } SearchParameterList(base: "Observation", _count: 100) { code } }',
      },
      contentType: 'application/json',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.StructureDefinitionList[0].name).toBe('Observation');
    expect(response.body.data.SearchParameterList.map((p) => p.code)).toEqual(
      expect.arrayContaining(['code', 'subject', 'value-quantity']),
    );
  });

  test('SPEC §6 base definitions are read-only for patients, practitioners and admins', async () => {
    const base = await readPatientDefinition();
    const changed = { ...base, description: 'changed' };
    for (const tokens of [clinic.maria, clinic.chen, clinic.admin]) {
      const put = await call<OperationOutcome>(
        clinic.server,
        'PUT',
        'fhir/R4/StructureDefinition/Patient',
        tokens,
        {
          body: changed,
        },
      );
      expect(put.status).toBeGreaterThanOrEqual(400);
      const del = await call(clinic.server, 'DELETE', 'fhir/R4/StructureDefinition/Patient', tokens);
      expect(del.status).toBeGreaterThanOrEqual(400);
    }
    const put = await call(clinic.server, 'PUT', 'fhir/R4/StructureDefinition/Patient', clinic.chen, {
      body: changed,
    });
    expect(put.status).toBe(403);
    expect((await readPatientDefinition()).description).toBe(base.description);
  });
});
