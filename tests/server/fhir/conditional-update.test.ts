// Conditional update PUT {type}?search and conditional delete DELETE {type}?search over real HTTP
// (SPEC §7 upsertResource; FHIR R4 §3.1.0.4.3, §3.1.0.7.1). PGlite always,
// PostgreSQL too with TEST_DATABASE_URL.
import type { Bundle, OperationOutcome, Patient } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';

const SYSTEM = 'https://bloom.example/conditional-test';

function patient(value: string, family: string, id?: string): Patient {
  return {
    resourceType: 'Patient',
    ...(id ? { id } : {}),
    identifier: [{ system: SYSTEM, value }],
    name: [{ family, given: ['Test'] }],
  };
}

const criteria = (value: string) => `identifier=${encodeURIComponent(`${SYSTEM}|${value}`)}`;

describe.each(databases())('conditional update and delete on %s', (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  const put = (query: string, body: unknown, tokens = clinic.chen) =>
    call<Patient & Pick<OperationOutcome, 'issue'>>(
      clinic.server,
      'PUT',
      `fhir/R4/Patient?${query}`,
      tokens,
      { body },
    );
  const find = async (value: string) =>
    (
      await call<Bundle<Patient>>(clinic.server, 'GET', `fhir/R4/Patient?${criteria(value)}`, clinic.chen)
    ).body.entry?.map((e) => e.resource as Patient) ?? [];

  test('SPEC §7 upsert: no match creates (201 with Location), one match updates it (200, same id, new version)', async () => {
    const created = await put(criteria('u-1'), patient('u-1', 'First'));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toContain(`Patient/${created.body.id}/_history/`);
    expect(created.body.name?.[0].family).toBe('First');

    const updated = await put(criteria('u-1'), patient('u-1', 'Second'));
    expect(updated.status).toBe(200);
    expect(updated.body.id).toBe(created.body.id);
    expect(updated.body.meta?.versionId).not.toBe(created.body.meta?.versionId);
    const found = await find('u-1');
    expect(found.map((p) => [p.id, p.name?.[0].family])).toEqual([[created.body.id, 'Second']]);
  });

  test('one match with the same body id updates; a different body id is a 400 and changes nothing', async () => {
    const created = await put(criteria('u-2'), patient('u-2', 'Before'));
    const same = await put(criteria('u-2'), patient('u-2', 'Same id', created.body.id));
    expect(same.status).toBe(200);
    const other = await put(criteria('u-2'), patient('u-2', 'Other id', 'not-the-match'));
    expect(other.status).toBe(400);
    expect(other.body.issue?.[0].details?.text).toContain('does not match the matched Patient/');
    expect((await find('u-2')).map((p) => p.name?.[0].family)).toEqual(['Same id']);
  });

  test('several matches are 412 Precondition Failed and nothing is written', async () => {
    for (const family of ['A', 'B']) {
      const response = await call(clinic.server, 'POST', 'fhir/R4/Patient', clinic.chen, {
        body: patient('dup', family),
      });
      expect(response.status).toBe(201);
    }
    const response = await put(criteria('dup'), patient('dup', 'C'));
    expect(response.status).toBe(412);
    expect(response.body.issue?.[0].details?.text).toContain(
      'Conditional update matched more than one Patient',
    );
    expect((await find('dup')).map((p) => p.name?.[0].family).sort()).toEqual(['A', 'B']);
  });

  test('no match with a body id creates with that id; an existing non-matching id is a 409', async () => {
    const id = `cond-${Date.now()}`;
    const created = await put(criteria('u-3'), patient('u-3', 'Chosen id', id));
    expect(created.status).toBe(201);
    expect(created.body.id).toBe(id);
    const clash = await put(criteria('u-4'), patient('u-4', 'Clash', id));
    expect(clash.status).toBe(409);
    expect(await find('u-4')).toEqual([]);
  });

  test('two concurrent upserts with the same criteria create one resource', async () => {
    const responses = await Promise.all([
      put(criteria('race'), patient('race', 'One')),
      put(criteria('race'), patient('race', 'Two')),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await find('race')).toHaveLength(1);
  });

  test('bad inputs: no criteria 400, unknown type 404, body of another type 400, wrong media type 415', async () => {
    expect(
      (await call(clinic.server, 'PUT', 'fhir/R4/Patient', clinic.chen, { body: patient('x', 'X') })).status,
    ).toBe(400);
    expect((await put('', patient('x', 'X'))).status).toBe(400);
    expect(
      (
        await call(clinic.server, 'PUT', `fhir/R4/Nope?${criteria('x')}`, clinic.chen, {
          body: patient('x', 'X'),
        })
      ).status,
    ).toBe(404);
    expect((await put(criteria('x'), { resourceType: 'Observation' })).status).toBe(400);
    expect(
      (
        await call(clinic.server, 'PUT', `fhir/R4/Patient?${criteria('x')}`, clinic.chen, {
          body: 'x',
          contentType: 'text/plain',
        })
      ).status,
    ).toBe(415);
    expect(await find('x')).toEqual([]);
  });

  test('a patient cannot create another Patient by conditional update (SPEC §6)', async () => {
    const response = await put(criteria('by-maria'), patient('by-maria', 'Sneaky'), clinic.maria);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await find('by-maria')).toEqual([]);
  });

  test('conditional delete: one match deleted, none is All OK, several 412', async () => {
    const created = await put(criteria('del-1'), patient('del-1', 'Doomed'));
    const deleted = await call(clinic.server, 'DELETE', `fhir/R4/Patient?${criteria('del-1')}`, clinic.chen);
    expect(deleted.status).toBe(200);
    expect(await find('del-1')).toEqual([]);
    const read = await call(clinic.server, 'GET', `fhir/R4/Patient/${created.body.id}`, clinic.chen);
    expect(read.status).toBe(410);

    const none = await call(clinic.server, 'DELETE', `fhir/R4/Patient?${criteria('del-1')}`, clinic.chen);
    expect(none.status).toBe(200);

    const several = await call(clinic.server, 'DELETE', `fhir/R4/Patient?${criteria('dup')}`, clinic.chen);
    expect(several.status).toBe(412);
    expect(await find('dup')).toHaveLength(2);
    expect((await call(clinic.server, 'DELETE', 'fhir/R4/Patient', clinic.chen)).status).toBe(400);
  });
});
