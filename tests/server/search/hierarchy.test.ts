// :above and :below (FHIR R4 search §3.1.1.5.6) on each engine: token subsumption
// through a CodeSystem's hierarchy (a stored one, and one of the definitions), references along a
// hierarchy of their own type (Location.partof), and URIs on path boundaries; each with matching
// and non-matching resources, and the 400s of values they cannot take.
import type { CodeSystem, Encounter, Location, Observation, StructureDefinition } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { idSet, sorted, statusOf } from './search-support';

const CARE = 'http://example.org/fhir/CodeSystem/care';
const ACT = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';

describe.each(databases())('search: :above and :below on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  const obs: Record<string, Observation> = {};
  const loc: Record<string, Location> = {};

  async function observation(name: string, system: string, code: string): Promise<void> {
    obs[name] = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system, code }] },
    });
  }

  async function location(name: string, parent?: string): Promise<void> {
    loc[name] = await repo.createResource<Location>({
      resourceType: 'Location',
      name,
      ...(parent ? { partOf: { reference: `Location/${loc[parent].id}` } } : {}),
    });
  }

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext('search-hierarchy'));
    // visit > prenatal > first-trimester; visit > postnatal; telehealth under visit by property.
    await repo.createResource<CodeSystem>({
      resourceType: 'CodeSystem',
      url: CARE,
      status: 'active',
      content: 'complete',
      concept: [
        {
          code: 'visit',
          concept: [{ code: 'prenatal', concept: [{ code: 'first-trimester' }] }, { code: 'postnatal' }],
        },
        { code: 'telehealth', property: [{ code: 'parent', valueCode: 'visit' }] },
        { code: 'other' },
      ],
    });
    await observation('first', CARE, 'first-trimester');
    await observation('prenatal', CARE, 'prenatal');
    await observation('postnatal', CARE, 'postnatal');
    await observation('visit', CARE, 'visit');
    await observation('tele', CARE, 'telehealth');
    await observation('other', CARE, 'other');
    await observation('elsewhere', 'http://example.org/other-system', 'prenatal');

    await location('hospital');
    await location('ward', 'hospital');
    await location('room', 'ward');
    await location('clinic');
    await location('desk', 'clinic');
  });

  afterAll(async () => {
    await db?.close();
  });

  const names = (record: Record<string, { id?: string }>, ...keys: string[]): string[] =>
    sorted(keys.map((key) => record[key].id));

  test('token :below: the code and every code it subsumes, in that system only', async () => {
    expect(await idSet(repo, `Observation?code:below=${CARE}|prenatal`)).toEqual(
      names(obs, 'first', 'prenatal'),
    );
    expect(await idSet(repo, `Observation?code:below=${CARE}|visit`)).toEqual(
      names(obs, 'first', 'prenatal', 'postnatal', 'visit', 'tele'),
    );
    expect(await idSet(repo, `Observation?code:below=${CARE}|first-trimester`)).toEqual(names(obs, 'first'));
    expect(await idSet(repo, `Observation?code:below=${CARE}|other,${CARE}|postnatal`)).toEqual(
      names(obs, 'other', 'postnatal'),
    );
  });

  test('token :above: the code and every code subsuming it (nested and by parent property)', async () => {
    expect(await idSet(repo, `Observation?code:above=${CARE}|first-trimester`)).toEqual(
      names(obs, 'first', 'prenatal', 'visit'),
    );
    expect(await idSet(repo, `Observation?code:above=${CARE}|telehealth`)).toEqual(
      names(obs, 'tele', 'visit'),
    );
    expect(await idSet(repo, `Observation?code:above=${CARE}|visit`)).toEqual(names(obs, 'visit'));
  });

  test('token :below through a code system of the definitions (v3 ActCode)', async () => {
    const encounter = (code: string) =>
      repo.createResource<Encounter>({
        resourceType: 'Encounter',
        status: 'finished',
        class: { system: ACT, code },
      });
    const [acute, inpatient, ambulatory] = [
      await encounter('ACUTE'),
      await encounter('IMP'),
      await encounter('AMB'),
    ];
    expect(await idSet(repo, `Encounter?class:below=${ACT}|IMP`)).toEqual(sorted([acute.id, inpatient.id]));
    expect(await idSet(repo, `Encounter?class:above=${ACT}|ACUTE`)).toEqual(sorted([acute.id, inpatient.id]));
    expect(await idSet(repo, `Encounter?class:below=${ACT}|_ActEncounterCode`)).toEqual(
      sorted([acute.id, inpatient.id, ambulatory.id]),
    );
  });

  test('_filter ss and sb are :above and :below', async () => {
    const filter = (text: string) => `Observation?_filter=${encodeURIComponent(text)}`;
    expect(await idSet(repo, filter(`code sb ${CARE}|prenatal`))).toEqual(names(obs, 'first', 'prenatal'));
    expect(await idSet(repo, filter(`code ss ${CARE}|postnatal and not (code eq ${CARE}|visit)`))).toEqual(
      names(obs, 'postnatal'),
    );
  });

  test.each([
    ['Observation?code:below=prenatal', 'needs system|code'],
    ['Observation?code:below=http://example.org/unknown|x', 'is not available'],
    [`Observation?code:above=${CARE}|no-such-code`, 'is not available'],
  ])('token %s → 400 naming the parameter (%s)', async (url, text) => {
    const outcome = await statusOf(idSet(repo, url));
    expect(outcome.status).toBe(400);
    expect(outcome.message).toContain(text);
  });

  test('reference :below: references to the location or anything inside it', async () => {
    expect(await idSet(repo, `Location?partof:below=Location/${loc.hospital.id}`)).toEqual(
      names(loc, 'ward', 'room'),
    );
    expect(await idSet(repo, `Location?partof:below=${loc.ward.id}`)).toEqual(names(loc, 'room'));
    expect(await idSet(repo, `Location?partof:below=${loc.room.id}`)).toEqual([]);
    expect(await idSet(repo, `Location?partof:below=${loc.clinic.id},${loc.ward.id}`)).toEqual(
      names(loc, 'desk', 'room'),
    );
  });

  test('reference :above: references to the location or any location containing it', async () => {
    expect(await idSet(repo, `Location?partof:above=Location/${loc.room.id}`)).toEqual(
      names(loc, 'ward', 'room'),
    );
    expect(await idSet(repo, `Location?partof:above=${loc.ward.id}`)).toEqual(names(loc, 'ward', 'room'));
    expect(await idSet(repo, `Location?partof:above=${loc.desk.id}`)).toEqual(names(loc, 'desk'));
  });

  test('a cycle in the hierarchy ends the walk', async () => {
    const a = await repo.createResource<Location>({ resourceType: 'Location', name: 'a' });
    const b = await repo.createResource<Location>({
      resourceType: 'Location',
      name: 'b',
      partOf: { reference: `Location/${a.id}` },
    });
    await repo.updateResource<Location>({ ...a, partOf: { reference: `Location/${b.id}` } });
    expect(await idSet(repo, `Location?partof:below=${a.id}`)).toEqual(sorted([a.id, b.id]));
    expect(await idSet(repo, `Location?partof:above=${a.id}`)).toEqual(sorted([a.id, b.id]));
  });

  test.each([
    ['Observation?subject:below=Patient/1', 'needs a hierarchy'],
    ['Location?partof:below=Patient/1', 'needs an id or Location/id'],
    ['Location?partof:above=https://example.org/Location/1', 'needs an id or Location/id'],
  ])('reference %s → 400 (%s)', async (url, text) => {
    const outcome = await statusOf(idSet(repo, url));
    expect(outcome.status).toBe(400);
    expect(outcome.message).toContain(text);
  });

  test('uri :below and :above follow path boundaries', async () => {
    const profile = (url: string) =>
      repo.createResource<StructureDefinition>({
        resourceType: 'StructureDefinition',
        url,
        name: 'x',
        status: 'draft',
        kind: 'resource',
        abstract: false,
        type: 'Patient',
      });
    const base = await profile('http://example.org/sd/base');
    const child = await profile('http://example.org/sd/base/child');
    const sibling = await profile('http://example.org/sd/baseline');
    expect(await idSet(repo, 'StructureDefinition?url:below=http://example.org/sd/base')).toEqual(
      sorted([base.id, child.id]),
    );
    expect(await idSet(repo, 'StructureDefinition?url:below=http://example.org/sd/base/')).toEqual(
      sorted([base.id, child.id]),
    );
    expect(await idSet(repo, 'StructureDefinition?url:above=http://example.org/sd/base/child/x')).toEqual(
      sorted([base.id, child.id]),
    );
    expect(await idSet(repo, 'StructureDefinition?url:above=http://example.org/sd/baseline')).toEqual(
      sorted([sibling.id]),
    );
  });
});
