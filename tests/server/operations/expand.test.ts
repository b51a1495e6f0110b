// ValueSet/$expand over real HTTP (SPEC §7 valueSetExpand): the FHIR
// definitions' value sets and code systems with systems and displays, is-a filters, text filter,
// paging; stored value sets per project; 400 for a missing, unknown or unexpandable url.
import type { ValueSet } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, startClinic } from './support/clinic';
import type { Clinic } from './support/clinic';
import { outcomeExpression, outcomeText } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';

const GENDER = 'http://hl7.org/fhir/ValueSet/administrative-gender';
const RESOURCE_TYPES = 'http://hl7.org/fhir/ValueSet/resource-types';
const BLOOM_SYMPTOMS = 'https://bloom.example/fhir/ValueSet/pregnancy-symptoms';

describe.each(databases())('ValueSet $expand on %s', (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  const expand = (params: Record<string, string>, tokens: Tokens = clinic.chen) =>
    call<ValueSet>(clinic.server, 'GET', `fhir/R4/ValueSet/$expand?${new URLSearchParams(params)}`, tokens);

  test('SPEC §7 administrative-gender expands to its four codes with system and display', async () => {
    const response = await expand({ url: GENDER });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(response.body).toMatchObject({ resourceType: 'ValueSet', url: GENDER });
    expect(response.body.compose).toBeUndefined();
    expect(response.body.expansion?.total).toBe(4);
    expect(response.body.expansion?.contains).toEqual([
      { system: 'http://hl7.org/fhir/administrative-gender', code: 'male', display: 'Male' },
      { system: 'http://hl7.org/fhir/administrative-gender', code: 'female', display: 'Female' },
      { system: 'http://hl7.org/fhir/administrative-gender', code: 'other', display: 'Other' },
      { system: 'http://hl7.org/fhir/administrative-gender', code: 'unknown', display: 'Unknown' },
    ]);
    // A version suffix is accepted.
    expect((await expand({ url: `${GENDER}|4.0.1` })).body.expansion?.total).toBe(4);
  });

  test('filter matches the start of display words or codes, case-insensitively', async () => {
    const fem = await expand({ url: GENDER, filter: 'FEM' });
    expect(fem.body.expansion?.contains?.map((c) => c.code)).toEqual(['female']);
    expect(fem.body.expansion?.total).toBe(1);
    expect(fem.body.expansion?.parameter).toContainEqual({ name: 'filter', valueString: 'FEM' });
    const none = await expand({ url: GENDER, filter: 'zzz' });
    expect(none.status).toBe(200);
    expect(none.body.expansion?.total).toBe(0);
    expect(none.body.expansion?.contains).toEqual([]);
  });

  test('several systems in one value set (marital-status: v3 MaritalStatus and NullFlavor UNK)', async () => {
    const response = await expand({ url: 'http://hl7.org/fhir/ValueSet/marital-status' });
    const contains = response.body.expansion?.contains ?? [];
    expect(contains).toContainEqual({
      system: 'http://terminology.hl7.org/CodeSystem/v3-MaritalStatus',
      code: 'M',
      display: 'Married',
    });
    expect(contains).toContainEqual({
      system: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor',
      code: 'UNK',
      display: 'unknown',
    });
  });

  test('an is-a filter takes the concept and its descendants from the code system hierarchy', async () => {
    const response = await expand({ url: 'http://terminology.hl7.org/ValueSet/v3-EntityClassDevice' });
    expect(response.status).toBe(200);
    expect(response.body.expansion?.contains?.map((c) => c.code).sort()).toEqual(['CER', 'DEV', 'MODDV']);
  });

  test('offset and count page through the expansion; pages add up to the whole', async () => {
    const all = await expand({ url: RESOURCE_TYPES, count: '1000' });
    const total = all.body.expansion?.total as number;
    expect(total).toBeGreaterThan(100);
    expect(all.body.expansion?.contains).toHaveLength(total);
    const codes: string[] = [];
    for (let offset = 0; offset < total; offset += 40) {
      const page = await expand({ url: RESOURCE_TYPES, offset: String(offset), count: '40' });
      expect(page.body.expansion?.offset).toBe(offset);
      expect(page.body.expansion?.total).toBe(total);
      codes.push(...(page.body.expansion?.contains ?? []).map((c) => c.code as string));
    }
    expect(codes).toEqual(all.body.expansion?.contains?.map((c) => c.code));
    // The default page is 100; larger counts are clamped to 1000.
    expect((await expand({ url: RESOURCE_TYPES })).body.expansion?.contains).toHaveLength(100);
    expect((await expand({ url: RESOURCE_TYPES, count: '5000' })).body.expansion?.parameter).toContainEqual({
      name: 'count',
      valueInteger: 1000,
    });
  });

  test("a project's stored ValueSet expands for its members, not for another project", async () => {
    const created = await call(clinic.server, 'POST', 'fhir/R4/ValueSet', clinic.admin, {
      body: {
        resourceType: 'ValueSet',
        url: BLOOM_SYMPTOMS,
        status: 'active',
        compose: {
          include: [
            {
              system: 'http://snomed.info/sct',
              concept: [
                { code: '422587007', display: 'Nausea' },
                { code: '84229001', display: 'Fatigue' },
              ],
            },
          ],
        },
      },
    });
    expect(created.status).toBe(201);
    const mine = await expand({ url: BLOOM_SYMPTOMS, filter: 'nau' });
    expect(mine.status).toBe(200);
    expect(mine.body.expansion?.contains).toEqual([
      { system: 'http://snomed.info/sct', code: '422587007', display: 'Nausea' },
    ]);
    const other = await expand({ url: BLOOM_SYMPTOMS }, clinic.otherAdmin);
    expect(other.status).toBe(400);
    expect(outcomeText(other.body)).toBe(`ValueSet not found: ${BLOOM_SYMPTOMS}`);
  });

  test('patients may expand the definitions value sets too; anonymous is 401', async () => {
    expect((await expand({ url: GENDER }, clinic.maria)).body.expansion?.total).toBe(4);
    const anonymous = await call(clinic.server, 'GET', `fhir/R4/ValueSet/$expand?url=${GENDER}`, undefined);
    expect(anonymous.status).toBe(401);
  });

  test.each([
    [{}, 'url', 'Missing url'],
    [{ url: '' }, 'url', 'Missing url'],
    [
      { url: 'http://example.org/ValueSet/nope' },
      'url',
      'ValueSet not found: http://example.org/ValueSet/nope',
    ],
    [
      { url: 'http://hl7.org/fhir/ValueSet/observation-codes' },
      'url',
      'ValueSet http://hl7.org/fhir/ValueSet/observation-codes cannot be expanded: code system http://loinc.org is not complete here (content: example)',
    ],
    [{ url: GENDER, count: 'ten' }, 'count', "Parameter 'count' must be a whole number, got 'ten'"],
    [{ url: GENDER, offset: '-1' }, 'offset', "Parameter 'offset' must be a whole number, got '-1'"],
    [{ url: GENDER, system: 'x' }, 'system', undefined],
  ])('%j is 400 on %s', async (params, field, text) => {
    const response = await expand(params as Record<string, string>);
    expect(response.status).toBe(400);
    expect(outcomeExpression(response.body)).toEqual([field]);
    if (text) {
      expect(outcomeText(response.body)).toBe(text);
    }
  });
});
