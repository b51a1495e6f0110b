// FHIR search for token, string and reference parameters on
// each engine: each form and modifier with resources that match and resources that do not.
import type { Observation, Patient, Practitioner } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { idSet, sorted, statusOf } from './search-support';

const LOINC = 'http://loinc.org';

describe.each(databases())('search: token, string, reference on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  let maria: Patient;
  let emilie: Patient;
  let smithson: Patient;
  let doctor: Practitioner;
  let heart: Observation;
  let weight: Observation;
  let bp: Observation;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext('search-tsr'));
    maria = await repo.createResource<Patient>({
      resourceType: 'Patient',
      active: true,
      gender: 'female',
      name: [{ given: ['Maria'], family: 'Garcia' }],
      identifier: [
        {
          system: 'http://hospital.example/mrn',
          value: 'MRN-1',
          type: {
            coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }],
            text: 'Medical record',
          },
        },
      ],
      telecom: [{ system: 'email', value: 'maria@example.com' }],
    });
    emilie = await repo.createResource<Patient>({
      resourceType: 'Patient',
      active: false,
      gender: 'female',
      name: [{ given: ['Émilie'], family: 'Smith' }],
      identifier: [{ value: 'NO-SYSTEM' }],
    });
    smithson = await repo.createResource<Patient>({
      resourceType: 'Patient',
      gender: 'male',
      name: [{ given: ['John'], family: 'Smithson', text: 'John Smithson' }],
      identifier: [{ system: 'http://other.example', value: 'MRN-1' }],
    });
    doctor = await repo.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ given: ['Lee'], family: 'Chen' }],
    });
    heart = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC, code: '8867-4', display: 'Heart rate' }], text: 'Heart rate' },
      subject: { reference: `Patient/${maria.id}` },
      performer: [{ reference: `Practitioner/${doctor.id}` }],
    });
    weight = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'preliminary',
      code: { coding: [{ system: LOINC, code: '29463-7', display: 'Body weight' }] },
      subject: { reference: `Patient/${emilie.id}` },
    });
    bp = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ code: '85354-9' }], text: 'Blood pressure panel' },
      subject: { reference: `https://elsewhere.example/fhir/Patient/${smithson.id}` },
    });
  });

  afterAll(async () => {
    await db.close();
  });

  test('token: code, system|code, |code, system| (FHIR R4 search token)', async () => {
    expect(await idSet(repo, 'Observation?code=8867-4')).toEqual([heart.id]);
    expect(await idSet(repo, `Observation?code=${LOINC}|8867-4`)).toEqual([heart.id]);
    expect(await idSet(repo, 'Observation?code=http://snomed.info/sct|8867-4')).toEqual([]);
    expect(await idSet(repo, 'Observation?code=|85354-9')).toEqual([bp.id]);
    expect(await idSet(repo, 'Observation?code=|8867-4')).toEqual([]);
    expect(await idSet(repo, `Observation?code=${LOINC}|`)).toEqual(sorted([heart.id, weight.id]));
  });

  test('token: comma is OR, repeated parameters are AND', async () => {
    expect(await idSet(repo, 'Observation?code=8867-4,29463-7')).toEqual(sorted([heart.id, weight.id]));
    expect(await idSet(repo, 'Observation?code=8867-4,29463-7&status=final')).toEqual([heart.id]);
    expect(await idSet(repo, 'Observation?status=final&status=preliminary')).toEqual([]);
  });

  test('token: booleans, codes and ContactPoint values', async () => {
    expect(await idSet(repo, 'Patient?active=true')).toEqual([maria.id]);
    expect(await idSet(repo, 'Patient?active=false')).toEqual([emilie.id]);
    expect(await idSet(repo, 'Patient?gender=male')).toEqual([smithson.id]);
    expect(await idSet(repo, 'Patient?email=maria@example.com')).toEqual([maria.id]);
    expect(await idSet(repo, 'Patient?email=nobody@example.com')).toEqual([]);
  });

  test('token :not excludes matches and keeps resources without the token', async () => {
    expect(await idSet(repo, 'Observation?status:not=final')).toEqual([weight.id]);
    expect(await idSet(repo, 'Patient?active:not=true')).toEqual(sorted([emilie.id, smithson.id]));
  });

  test('token :text matches the display text case- and accent-insensitively', async () => {
    expect(await idSet(repo, 'Observation?code:text=heart')).toEqual([heart.id]);
    expect(await idSet(repo, 'Observation?code:text=WEIGHT')).toEqual([weight.id]);
    expect(await idSet(repo, 'Observation?code:text=pressure')).toEqual([bp.id]);
    expect(await idSet(repo, 'Observation?code:text=glucose')).toEqual([]);
  });

  test('token identifiers: value, system|value and :of-type', async () => {
    expect(await idSet(repo, 'Patient?identifier=MRN-1')).toEqual(sorted([maria.id, smithson.id]));
    expect(await idSet(repo, 'Patient?identifier=http://hospital.example/mrn|MRN-1')).toEqual([maria.id]);
    expect(await idSet(repo, 'Patient?identifier=|NO-SYSTEM')).toEqual([emilie.id]);
    expect(
      await idSet(repo, 'Patient?identifier:of-type=http://terminology.hl7.org/CodeSystem/v2-0203|MR|MRN-1'),
    ).toEqual([maria.id]);
    expect(
      await idSet(repo, 'Patient?identifier:of-type=http://terminology.hl7.org/CodeSystem/v2-0203|DL|MRN-1'),
    ).toEqual([]);
    expect(await idSet(repo, 'Patient?identifier:text=medical')).toEqual([maria.id]);
  });

  test('token :in and :not-in expand a value set from the definitions', async () => {
    // administrative-gender: male, female, other, unknown.
    const vs = 'http://hl7.org/fhir/ValueSet/administrative-gender';
    expect(await idSet(repo, `Patient?gender:in=${vs}`)).toEqual(sorted([maria.id, emilie.id, smithson.id]));
    expect(
      await idSet(repo, `Observation?status:in=http://hl7.org/fhir/ValueSet/observation-status`),
    ).toHaveLength(3);
    expect(await idSet(repo, `Patient?gender:not-in=${vs}`)).toEqual([]);
    expect((await statusOf(idSet(repo, 'Patient?gender:in=http://example.com/no-such-set'))).status).toBe(
      400,
    );
  });

  test('string: case- and accent-insensitive prefix by default', async () => {
    expect(await idSet(repo, 'Patient?name=smi')).toEqual(sorted([emilie.id, smithson.id]));
    expect(await idSet(repo, 'Patient?name=SMITH')).toEqual(sorted([emilie.id, smithson.id]));
    expect(await idSet(repo, 'Patient?name=emilie')).toEqual([emilie.id]);
    expect(await idSet(repo, 'Patient?given=Émi')).toEqual([emilie.id]);
    expect(await idSet(repo, 'Patient?name=mith')).toEqual([]);
    expect(await idSet(repo, 'Patient?family=garcia,chen')).toEqual([maria.id]);
    expect(await idSet(repo, 'Practitioner?name=chen')).toEqual([doctor.id]);
  });

  test('string :exact, :contains and :text', async () => {
    expect(await idSet(repo, 'Patient?family:exact=Smith')).toEqual([emilie.id]);
    expect(await idSet(repo, 'Patient?family:exact=smith')).toEqual([]);
    expect(await idSet(repo, 'Patient?name:contains=mith')).toEqual(sorted([emilie.id, smithson.id]));
    expect(await idSet(repo, 'Patient?name:contains=arc')).toEqual([maria.id]);
    expect(await idSet(repo, 'Patient?name:contains=xyz')).toEqual([]);
    expect(await idSet(repo, 'Patient?name:text=smithson')).toEqual([smithson.id]);
  });

  test('string: LIKE wildcards in the value match themselves', async () => {
    expect(await idSet(repo, 'Patient?name=%25')).toEqual([]);
    expect(await idSet(repo, 'Patient?name=_aria')).toEqual([]);
  });

  test('reference: id, Type/id, absolute URL and :[type]', async () => {
    expect(await idSet(repo, `Observation?subject=Patient/${maria.id}`)).toEqual([heart.id]);
    expect(await idSet(repo, `Observation?subject=${maria.id}`)).toEqual([heart.id]);
    expect(await idSet(repo, `Observation?patient=${emilie.id}`)).toEqual([weight.id]);
    expect(await idSet(repo, `Observation?subject:Patient=${maria.id}`)).toEqual([heart.id]);
    expect(await idSet(repo, `Observation?subject:Device=${maria.id}`)).toEqual([]);
    expect(
      await idSet(repo, `Observation?subject=https://elsewhere.example/fhir/Patient/${smithson.id}`),
    ).toEqual([bp.id]);
    expect(await idSet(repo, `Observation?subject=Patient/${smithson.id}`)).toEqual([bp.id]);
    expect(await idSet(repo, `Observation?performer=Practitioner/${doctor.id}`)).toEqual([heart.id]);
    expect(await idSet(repo, 'Observation?subject=Patient/nobody')).toEqual([]);
  });

  test(':missing on token, string and reference', async () => {
    expect(await idSet(repo, 'Observation?performer:missing=false')).toEqual([heart.id]);
    expect(await idSet(repo, 'Observation?performer:missing=true')).toEqual(sorted([weight.id, bp.id]));
    expect(await idSet(repo, 'Patient?active:missing=true')).toEqual([smithson.id]);
    expect(await idSet(repo, 'Patient?email:missing=false')).toEqual([maria.id]);
    expect(await idSet(repo, 'Patient?name:text:missing=true').catch(() => 'refused')).toBe('refused');
    expect((await statusOf(idSet(repo, 'Patient?active:missing=maybe'))).status).toBe(400);
  });

  test('unknown parameters and unsupported modifiers are 400 naming the parameter', async () => {
    const unknown = await statusOf(idSet(repo, 'Patient?shoe-size=42'));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain('shoe-size');
    const modifier = await statusOf(idSet(repo, 'Patient?gender:contains=fem'));
    expect(modifier.status).toBe(400);
    expect(modifier.message).toContain('gender');
  });

  test('index rows follow updates, patches and deletes in the same transaction', async () => {
    const patient = await repo.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Oldname' }],
    });
    expect(await idSet(repo, 'Patient?family=oldname')).toEqual([patient.id]);
    await repo.updateResource<Patient>({ ...patient, name: [{ family: 'Newname' }] });
    expect(await idSet(repo, 'Patient?family=oldname')).toEqual([]);
    expect(await idSet(repo, 'Patient?family=newname')).toEqual([patient.id]);
    await repo.patchResource('Patient', patient.id!, [
      { op: 'replace', path: '/name/0/family', value: 'Patched' },
    ]);
    expect(await idSet(repo, 'Patient?family=newname')).toEqual([]);
    expect(await idSet(repo, 'Patient?family=patched')).toEqual([patient.id]);
    await repo.deleteResource('Patient', patient.id!);
    expect(await idSet(repo, 'Patient?family=patched')).toEqual([]);
    // A failed transaction leaves no index rows behind.
    await expect(
      repo.withTransaction(async (tx) => {
        await tx.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Rolledback' }] });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await idSet(repo, 'Patient?family=rolledback')).toEqual([]);
  });
});
