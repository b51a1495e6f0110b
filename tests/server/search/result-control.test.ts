// FHIR search result control and links (SPEC §3 search state: sortRules, offset, count,
// total, include/revInclude) on each engine: _sort on several keys, paging, _total modes,
// _include/_revinclude with :iterate, chains and _has; reindex after index rows are lost.
import type {
  Communication,
  DiagnosticReport,
  Observation,
  Organization,
  Patient,
  Practitioner,
} from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { reindexAll } from '../../../src/server/search/reindex';
import { DEFAULT_SEARCH_COUNT, MAX_SEARCH_COUNT } from '../../../src/server/search/search-engine';
import { databases } from '../support/test-databases';
import { idSet, ids, searchUrl, sorted, statusOf } from './search-support';

describe.each(databases())('search: sort, paging, totals, includes, chains on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  let org: Organization;
  let doctor: Practitioner;
  let ann: Patient;
  let bob: Patient;
  let carl: Patient;
  const annObs: Observation[] = [];
  let report: DiagnosticReport;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext('search-results'));
    org = await repo.createResource<Organization>({ resourceType: 'Organization', name: 'Bloom Clinic' });
    doctor = await repo.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ family: 'Chen' }],
    });
    ann = await repo.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Adams', given: ['Ann'] }],
      birthDate: '1990-01-01',
      managingOrganization: { reference: `Organization/${org.id}` },
      generalPractitioner: [{ reference: `Practitioner/${doctor.id}` }],
    });
    bob = await repo.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Brown', given: ['Bob'] }],
      birthDate: '1990-01-01',
    });
    carl = await repo.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Adams', given: ['Carl'] }],
      birthDate: '1985-05-05',
    });
    for (let day = 1; day <= 25; day++) {
      annObs.push(
        await repo.createResource<Observation>({
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: 'http://loinc.org', code: day % 2 === 0 ? '8867-4' : '29463-7' }] },
          subject: { reference: `Patient/${ann.id}` },
          effectiveDateTime: `2024-02-${String(day).padStart(2, '0')}T08:00:00Z`,
          valueQuantity: { value: 60 + day },
        }),
      );
    }
    await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
      subject: { reference: `Patient/${bob.id}` },
      effectiveDateTime: '2024-03-01T08:00:00Z',
    });
    report = await repo.createResource<DiagnosticReport>({
      resourceType: 'DiagnosticReport',
      status: 'final',
      code: { text: 'Panel' },
      subject: { reference: `Patient/${ann.id}` },
      result: [{ reference: `Observation/${annObs[0].id}` }, { reference: `Observation/${annObs[1].id}` }],
    });
  });

  afterAll(async () => {
    await db.close();
  });

  test('_sort descending by date, ascending, and on several keys', async () => {
    const newest = await ids(repo, `Observation?patient=${ann.id}&_sort=-date&_count=3`);
    expect(newest).toEqual([annObs[24].id, annObs[23].id, annObs[22].id]);
    const oldest = await ids(repo, `Observation?patient=${ann.id}&_sort=date&_count=2`);
    expect(oldest).toEqual([annObs[0].id, annObs[1].id]);
    // family ascending, then birthdate descending, then given ascending.
    expect(await ids(repo, 'Patient?_sort=family,-birthdate')).toEqual([ann.id, carl.id, bob.id]);
    expect(await ids(repo, 'Patient?_sort=-family,given')).toEqual([bob.id, ann.id, carl.id]);
    expect(await ids(repo, 'Patient?_sort=birthdate,given')).toEqual([carl.id, ann.id, bob.id]);
    const byValue = await ids(repo, `Observation?patient=${ann.id}&_sort=-value-quantity&_count=1`);
    expect(byValue).toEqual([annObs[24].id]);
    const byUpdated = await ids(repo, `Observation?patient=${ann.id}&_sort=-_lastUpdated&_count=1`);
    expect(byUpdated).toEqual([annObs[24].id]);
    expect((await statusOf(ids(repo, 'Patient?_sort=shoe-size'))).status).toBe(400);
  });

  test('_count defaults to 20, is capped, and _offset pages without overlap', async () => {
    const first = await searchUrl(repo, `Observation?patient=${ann.id}&_sort=date`);
    expect(first.resources).toHaveLength(DEFAULT_SEARCH_COUNT);
    expect(first.hasMore).toBe(true);
    const second = await searchUrl(repo, `Observation?patient=${ann.id}&_sort=date&_offset=20`);
    expect(second.resources.map((r) => r.id)).toEqual(annObs.slice(20).map((o) => o.id));
    expect(second.hasMore).toBe(false);
    const capped = await searchUrl(repo, `Observation?_count=${MAX_SEARCH_COUNT + 500}`);
    expect(capped.resources.length).toBeLessThanOrEqual(MAX_SEARCH_COUNT);
    const zero = await searchUrl(repo, 'Observation?_count=0&_total=accurate');
    expect(zero.resources).toEqual([]);
    expect(zero.total).toBe(26);
  });

  test('_total: none (absent), accurate, estimate', async () => {
    expect((await searchUrl(repo, `Observation?patient=${ann.id}&_count=5`)).total).toBeUndefined();
    expect(
      (await searchUrl(repo, `Observation?patient=${ann.id}&_count=5&_total=none`)).total,
    ).toBeUndefined();
    expect((await searchUrl(repo, `Observation?patient=${ann.id}&_count=5&_total=accurate`)).total).toBe(25);
    expect((await searchUrl(repo, `Observation?patient=${ann.id}&code=8867-4&_total=accurate`)).total).toBe(
      12,
    );
    expect((await searchUrl(repo, `Observation?patient=${ann.id}&_count=5&_total=estimate`)).total).toBe(25);
    expect((await searchUrl(repo, 'Observation?code=nothing&_total=estimate')).total).toBe(0);
  });

  test('_include: the referenced resources, once, marked apart from the matches', async () => {
    const result = await searchUrl(
      repo,
      `Observation?patient=${ann.id}&_count=3&_include=Observation:patient`,
    );
    expect(result.resources).toHaveLength(3);
    expect(result.included.map((r) => `${r.resourceType}/${r.id}`)).toEqual([`Patient/${ann.id}`]);
    const typed = await searchUrl(
      repo,
      `Patient?_id=${ann.id}&_include=Patient:general-practitioner:Practitioner`,
    );
    expect(typed.included.map((r) => r.id)).toEqual([doctor.id]);
    const wrongType = await searchUrl(
      repo,
      `Patient?_id=${ann.id}&_include=Patient:general-practitioner:Organization`,
    );
    expect(wrongType.included).toEqual([]);
    expect((await statusOf(searchUrl(repo, 'Patient?_include=Patient:name'))).status).toBe(400);
  });

  test('_revinclude, and :iterate following includes of included resources', async () => {
    const rev = await searchUrl(repo, `Patient?_id=${ann.id}&_revinclude=DiagnosticReport:subject`);
    expect(rev.included.map((r) => r.id)).toEqual([report.id]);
    const none = await searchUrl(repo, `Patient?_id=${carl.id}&_revinclude=DiagnosticReport:subject`);
    expect(none.included).toEqual([]);
    const iterated = await searchUrl(
      repo,
      `DiagnosticReport?_id=${report.id}&_include=DiagnosticReport:result&_include:iterate=Observation:patient&_include:iterate=Patient:organization`,
    );
    expect(sorted(iterated.included.map((r) => `${r.resourceType}/${r.id}`))).toEqual(
      sorted([
        `Observation/${annObs[0].id}`,
        `Observation/${annObs[1].id}`,
        `Patient/${ann.id}`,
        `Organization/${org.id}`,
      ]),
    );
    const notIterated = await searchUrl(
      repo,
      `DiagnosticReport?_id=${report.id}&_include=DiagnosticReport:result&_include=Observation:patient`,
    );
    expect(notIterated.included.map((r) => r.resourceType).sort()).toEqual(['Observation', 'Observation']);
  });

  test('chains: subject:Patient.name, subject.name and two links', async () => {
    const bobObs = await idSet(repo, 'Observation?subject:Patient.name=brown');
    expect(bobObs).toHaveLength(1);
    expect(await idSet(repo, 'Observation?subject.name=brown')).toEqual(bobObs);
    expect(await idSet(repo, 'Observation?subject:Patient.name=nobody')).toEqual([]);
    expect(await idSet(repo, 'Observation?patient.organization.name=bloom')).toHaveLength(25);
    expect(await idSet(repo, 'Observation?patient.organization.name=other')).toEqual([]);
    expect(await idSet(repo, `DiagnosticReport?result.code=8867-4`)).toEqual([report.id]);
    expect(await idSet(repo, `DiagnosticReport?result.code=85354-9`)).toEqual([]);
    expect((await statusOf(idSet(repo, 'Observation?code.name=x'))).status).toBe(400);
  });

  test('_has: resources pointed at by matching resources, nested', async () => {
    expect(await idSet(repo, 'Patient?_has:Observation:patient:code=8867-4')).toEqual(
      sorted([ann.id, bob.id]),
    );
    expect(await idSet(repo, 'Patient?_has:Observation:patient:date=2024-03-01')).toEqual([bob.id]);
    expect(await idSet(repo, 'Patient?_has:DiagnosticReport:subject:status=final')).toEqual([ann.id]);
    expect(await idSet(repo, 'Patient?_has:Observation:patient:code=00000-0')).toEqual([]);
    expect(
      await idSet(repo, `Patient?_has:Observation:patient:_has:DiagnosticReport:result:_id=${report.id}`),
    ).toEqual([ann.id]);
    expect((await statusOf(idSet(repo, 'Patient?_has:Observation:code:status=final'))).status).toBe(400);
  });

  test('reindex restores index rows that are missing (e.g. after a definitions change)', async () => {
    await db.query("DELETE FROM search_string WHERE resource_type = 'Patient'");
    expect(await idSet(repo, 'Patient?name=adams')).toEqual([]);
    const done = await reindexAll(db, { resourceTypes: ['Patient'], batchSize: 2 });
    expect(done).toBe(3);
    expect(await idSet(repo, 'Patient?name=adams')).toEqual(sorted([ann.id, carl.id]));
  });

  test('Communication by subject sorted by sent', async () => {
    const sent = async (when: string) =>
      repo.createResource<Communication>({
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: `Patient/${carl.id}` },
        sent: when,
      });
    const a = await sent('2024-01-01T09:00:00Z');
    const b = await sent('2024-01-03T09:00:00Z');
    const c = await sent('2024-01-02T09:00:00Z');
    expect(await ids(repo, `Communication?subject=Patient/${carl.id}&_sort=-sent`)).toEqual([
      b.id,
      c.id,
      a.id,
    ]);
  });
});
