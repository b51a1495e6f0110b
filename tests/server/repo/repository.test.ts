// The Repository on each engine: versioning, meta, history, deletes, conditional create, patch,
// transactions (SPEC §3 extended Meta and system reference).
import type { Device, Observation, Patient, Practitioner, Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError, getStatus } from '../../../src/fhir';
import type { Database } from '../../../src/server/db';
import { BulkWriteError, Repository, systemContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OperationOutcomeError) {
      return getStatus(err.outcome);
    }
    throw err;
  }
  throw new Error('expected the call to fail');
}

async function messageOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the call to fail');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(databases())('Repository on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext('bloom-clinic'));
  });

  afterAll(async () => {
    await db.close();
  });

  test('SPEC §3 Meta: create assigns a UUID id, versionId, lastUpdated, project, author (system) and compartment', async () => {
    const before = Date.now();
    const patient = await repo.createResource<Patient>({
      resourceType: 'Patient',
      id: 'client-chosen',
      name: [{ given: ['Maria'], family: 'Garcia' }],
      meta: { project: 'forged', tag: [{ code: 'kept' }] },
    });
    expect(patient.id).toMatch(UUID);
    expect(patient.meta?.versionId).toMatch(UUID);
    expect(Date.parse(patient.meta?.lastUpdated ?? '')).toBeGreaterThanOrEqual(before - 1);
    expect(patient.meta?.project).toBe('bloom-clinic');
    expect(patient.meta?.author).toEqual({ reference: 'Device/system', display: 'System' });
    expect(patient.meta?.compartment).toEqual([{ reference: `Patient/${patient.id}` }]);
    expect(patient.meta?.tag).toEqual([{ code: 'kept' }]);
    expect(await repo.readResource('Patient', patient.id!)).toEqual(patient);
  });

  test('meta.compartment of a resource about a patient names that patient', async () => {
    const patient = await repo.createResource<Patient>({ resourceType: 'Patient' });
    const observation = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'preliminary',
      code: { text: 'Weight' },
      subject: { reference: `Patient/${patient.id}` },
    });
    expect(observation.meta?.compartment).toEqual([{ reference: `Patient/${patient.id}` }]);
    const { rows } = await db.query<{ compartments: string[] }>(
      'SELECT compartments FROM resource WHERE resource_type = $1 AND id = $2',
      ['Observation', observation.id!],
    );
    expect(rows[0].compartments).toEqual([`Patient/${patient.id}`]);
  });

  test('an invalid resource is refused with 400 and nothing is stored', async () => {
    const { rows: before } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM resource_history');
    expect(
      await statusOf(repo.createResource({ resourceType: 'Patient', birthDate: 'not a date' } as Patient)),
    ).toBe(400);
    expect(
      await messageOf(repo.createResource({ resourceType: 'Patient', colour: 'blue' } as Patient)),
    ).toMatch(/colour/);
    expect(await statusOf(repo.createResource({ resourceType: 'NoSuchType' } as unknown as Resource))).toBe(
      400,
    );
    const { rows: after } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM resource_history');
    expect(after[0].n).toBe(before[0].n);
  });

  test('read of an unknown id is 404', async () => {
    expect(await statusOf(repo.readResource('Patient', '00000000-0000-4000-8000-000000000000'))).toBe(404);
  });

  test('update makes a new version; vread returns each version; If-Match guards against stale writes', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', gender: 'female' });
    const { resource: v2, created } = await repo.updateResource<Patient>(
      { ...v1, gender: 'other' },
      { ifMatch: v1.meta?.versionId },
    );
    expect(created).toBe(false);
    expect(v2.id).toBe(v1.id);
    expect(v2.meta?.versionId).not.toBe(v1.meta?.versionId);
    expect((await repo.readVersion<Patient>('Patient', v1.id!, v1.meta!.versionId!)).gender).toBe('female');
    expect((await repo.readVersion<Patient>('Patient', v1.id!, v2.meta!.versionId!)).gender).toBe('other');
    expect(
      await statusOf(repo.updateResource({ ...v1, gender: 'male' }, { ifMatch: v1.meta?.versionId })),
    ).toBe(412);
    expect((await repo.readResource<Patient>('Patient', v1.id!)).gender).toBe('other');
    expect(await statusOf(repo.readVersion('Patient', v1.id!, '00000000-0000-4000-8000-000000000000'))).toBe(
      404,
    );
  });

  test('update of an id that does not exist creates it (update as create)', async () => {
    const { resource, created } = await repo.updateResource<Patient>({
      resourceType: 'Patient',
      id: 'demo-maria',
    });
    expect(created).toBe(true);
    expect(resource.id).toBe('demo-maria');
    expect(await statusOf(repo.updateResource({ resourceType: 'Patient', id: 'bad id!' }))).toBe(400);
    expect(await statusOf(repo.updateResource({ resourceType: 'Patient' }))).toBe(400);
  });

  test('delete keeps history: read is 410, vread of old versions still works, history lists the delete', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', gender: 'male' });
    await repo.deleteResource('Patient', v1.id!);
    expect(await statusOf(repo.readResource('Patient', v1.id!))).toBe(410);
    expect((await repo.readVersion<Patient>('Patient', v1.id!, v1.meta!.versionId!)).gender).toBe('male');
    const history = await repo.readHistory('Patient', v1.id!, { count: 10, offset: 0 });
    expect(history.items.map((h) => h.method)).toEqual(['DELETE', 'POST']);
    expect(history.items[0].resource).toBeUndefined();
    expect(await statusOf(repo.readVersion('Patient', v1.id!, history.items[0].versionId))).toBe(410);
    // Deleting again changes nothing; deleting what never existed is 404.
    await repo.deleteResource('Patient', v1.id!);
    expect((await repo.readHistory('Patient', v1.id!, { count: 10, offset: 0 })).items).toHaveLength(2);
    expect(await statusOf(repo.deleteResource('Patient', 'never-was'))).toBe(404);
    expect(await statusOf(repo.readHistory('Patient', 'never-was', { count: 10, offset: 0 }))).toBe(404);
    // An update brings it back as a new version.
    const { created } = await repo.updateResource<Patient>({
      resourceType: 'Patient',
      id: v1.id,
      gender: 'female',
    });
    expect(created).toBe(true);
    expect(
      (await repo.readHistory('Patient', v1.id!, { count: 10, offset: 0 })).items.map((h) => h.method),
    ).toEqual(['PUT', 'DELETE', 'POST']);
  });

  test('instance history pages newest first', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', gender: 'male' });
    let latest = v1;
    for (const gender of ['female', 'other', 'unknown'] as const) {
      latest = (await repo.updateResource<Patient>({ ...latest, gender })).resource;
    }
    const first = await repo.readHistory('Patient', v1.id!, { count: 3, offset: 0 });
    expect(first.items.map((h) => (h.resource as Patient).gender)).toEqual(['unknown', 'other', 'female']);
    expect(first.hasMore).toBe(true);
    const second = await repo.readHistory('Patient', v1.id!, { count: 3, offset: 3 });
    expect(second.items.map((h) => (h.resource as Patient).gender)).toEqual(['male']);
    expect(second.hasMore).toBe(false);
  });

  test('type history covers every resource of the type', async () => {
    const a = await repo.createResource<Practitioner>({ resourceType: 'Practitioner' });
    const b = await repo.createResource<Practitioner>({ resourceType: 'Practitioner' });
    const history = await repo.readTypeHistory('Practitioner', { count: 100, offset: 0 });
    expect(history.items.slice(0, 2).map((h) => h.id)).toEqual([b.id, a.id]);
  });

  test('listNewest pages live resources of one type newest first, skipping deleted ones', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      created.push((await repo.createResource<Device>({ resourceType: 'Device' })).id!);
    }
    await repo.deleteResource('Device', created[4]);
    const page1 = await repo.listNewest('Device', { count: 2, offset: 0 });
    const page2 = await repo.listNewest('Device', { count: 2, offset: 2 });
    const page3 = await repo.listNewest('Device', { count: 2, offset: 4 });
    expect(page1.items.map((r) => r.id)).toEqual([created[3], created[2]]);
    expect(page1.hasMore).toBe(true);
    expect(page2.items.map((r) => r.id)).toEqual([created[1], created[0]]);
    expect(page3.items).toEqual([]);
    expect(page3.hasMore).toBe(false);
  });

  test('conditional create: identifier system|value and _id find the match; no match creates', async () => {
    const identifier = [{ system: 'http://bloom.example/mrn', value: 'MRN-1' }];
    const first = await repo.conditionalCreate<Patient>(
      { resourceType: 'Patient', identifier },
      'identifier=http://bloom.example/mrn|MRN-1',
    );
    expect(first.created).toBe(true);
    const again = await repo.conditionalCreate<Patient>(
      { resourceType: 'Patient', identifier },
      'identifier=http://bloom.example/mrn|MRN-1',
    );
    expect(again).toEqual({ resource: first.resource, created: false });
    const byValue = await repo.conditionalCreate<Patient>({ resourceType: 'Patient' }, 'identifier=MRN-1');
    expect(byValue.resource.id).toBe(first.resource.id);
    const byId = await repo.conditionalCreate<Patient>(
      { resourceType: 'Patient' },
      `_id=${first.resource.id}`,
    );
    expect(byId.created).toBe(false);
    const otherSystem = await repo.conditionalCreate<Patient>(
      { resourceType: 'Patient', identifier: [{ system: 'http://other', value: 'MRN-1' }] },
      'identifier=http://other|MRN-1',
    );
    expect(otherSystem.created).toBe(true);
    // Two matches: 412.
    expect(await statusOf(repo.conditionalCreate({ resourceType: 'Patient' }, 'identifier=MRN-1'))).toBe(412);
  });

  test('conditional create takes any search parameter (issue #4); an unknown one is a 400 naming it', async () => {
    const named = await repo.conditionalCreate<Patient>(
      { resourceType: 'Patient', name: [{ family: 'Conditional' }] },
      'family=conditional',
    );
    expect(named.created).toBe(true);
    const again = await repo.conditionalCreate<Patient>({ resourceType: 'Patient' }, 'family=conditional');
    expect(again).toEqual({ resource: named.resource, created: false });
    const message = await messageOf(repo.conditionalCreate({ resourceType: 'Patient' }, 'shoe-size=42'));
    expect(message).toMatch(/'shoe-size'/);
    expect(await statusOf(repo.conditionalCreate({ resourceType: 'Patient' }, 'shoe-size=42'))).toBe(400);
    expect(await statusOf(repo.conditionalCreate({ resourceType: 'Patient' }, '_count=1'))).toBe(400);
  });

  test('concurrent conditional creates of the same identifier create exactly one resource', async () => {
    const identifier = [{ system: 'http://bloom.example/race', value: 'R-1' }];
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        repo.conditionalCreate<Patient>(
          { resourceType: 'Patient', identifier },
          'identifier=http://bloom.example/race|R-1',
        ),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.resource.id)).size).toBe(1);
  });

  test('patch applies RFC 6902 operations as a new version; a bad patch is 400 and changes nothing', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Garcia' }] });
    const v2 = await repo.patchResource<Patient>('Patient', v1.id!, [
      { op: 'test', path: '/name/0/family', value: 'Garcia' },
      { op: 'add', path: '/name/0/given', value: ['Maria'] },
      { op: 'replace', path: '/name/0/family', value: 'García' },
    ]);
    expect(v2.name).toEqual([{ family: 'García', given: ['Maria'] }]);
    expect(v2.meta?.versionId).not.toBe(v1.meta?.versionId);
    expect(
      await statusOf(repo.patchResource('Patient', v1.id!, [{ op: 'test', path: '/gender', value: 'x' }])),
    ).toBe(400);
    expect(
      await statusOf(repo.patchResource('Patient', v1.id!, [{ op: 'remove', path: '/nothing/here' }])),
    ).toBe(400);
    expect(
      await statusOf(repo.patchResource('Patient', v1.id!, [{ op: 'replace', path: '/id', value: 'other' }])),
    ).toBe(400);
    expect(
      await statusOf(
        repo.patchResource('Patient', v1.id!, [{ op: 'add', path: '/birthDate', value: 'soon' }]),
      ),
    ).toBe(400);
    expect(await statusOf(repo.patchResource('Patient', v1.id!, [], { ifMatch: v1.meta?.versionId }))).toBe(
      412,
    );
    expect(await statusOf(repo.patchResource('Patient', 'missing', []))).toBe(404);
    expect((await repo.readResource<Patient>('Patient', v1.id!)).meta?.versionId).toBe(v2.meta?.versionId);
  });

  test('withTransaction: everything or nothing', async () => {
    let createdId = '';
    await expect(
      repo.withTransaction(async (tx) => {
        createdId = (await tx.createResource<Patient>({ resourceType: 'Patient' })).id!;
        await tx.createResource({ resourceType: 'Patient', birthDate: 'never' } as Patient);
      }),
    ).rejects.toThrow(OperationOutcomeError);
    expect(await statusOf(repo.readResource('Patient', createdId))).toBe(404);
  });

  test('updateResources: several updates in one statement, each as updateResource would, old index rows replaced', async () => {
    const existing = await repo.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Bulkold' }],
    });
    const results = await repo.updateResources<Patient>([
      { resource: { ...existing, name: [{ family: 'Bulknew' }] }, ifMatch: existing.meta?.versionId },
      { resource: { resourceType: 'Patient', id: 'bulk-fresh', name: [{ family: 'Bulkfresh' }] } },
    ]);
    expect(results.map((r) => r.created)).toEqual([false, true]);
    expect(results[0].resource.meta?.versionId).not.toBe(existing.meta?.versionId);
    expect(results[1].resource.meta?.compartment).toEqual([{ reference: 'Patient/bulk-fresh' }]);
    expect(await repo.readResource('Patient', 'bulk-fresh')).toEqual(results[1].resource);
    const names = async (name: string) =>
      (
        await repo.search<Patient>({
          resourceType: 'Patient',
          filters: [{ code: 'name', operator: 'eq', value: name }],
        })
      ).resources.map((p) => p.id);
    expect(await names('bulkold')).toEqual([]);
    expect(await names('bulknew')).toEqual([existing.id]);
    expect(await names('bulkfresh')).toEqual(['bulk-fresh']);
    const history = await repo.readHistory('Patient', existing.id!, { count: 10, offset: 0 });
    expect(history.items.map((h) => h.method)).toEqual(['PUT', 'POST']);
  });

  test('updateResources: a refusal names its position and nothing is written; the same id twice keeps both versions', async () => {
    const failure = await repo
      .updateResources([
        { resource: { resourceType: 'Patient', id: 'bulk-a' } },
        { resource: { resourceType: 'Patient', id: 'bulk-b', birthDate: 'never' } as Patient },
      ])
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failure).toBeInstanceOf(BulkWriteError);
    expect((failure as BulkWriteError).index).toBe(1);
    expect(getStatus((failure as { cause: OperationOutcomeError }).cause.outcome)).toBe(400);
    expect(await statusOf(repo.readResource('Patient', 'bulk-a'))).toBe(404);
    const stale = await repo
      .updateResources([
        { resource: { resourceType: 'Patient', id: 'bulk-a' } },
        {
          resource: { resourceType: 'Patient', id: 'bulk-c' },
          ifMatch: '00000000-0000-4000-8000-000000000000',
        },
      ])
      .catch((err: BulkWriteError) => err);
    expect((stale as BulkWriteError).index).toBe(1);
    expect(await statusOf(repo.readResource('Patient', 'bulk-a'))).toBe(404);

    const twice = await repo.updateResources<Patient>([
      { resource: { resourceType: 'Patient', id: 'bulk-twice', gender: 'male' } },
      { resource: { resourceType: 'Patient', id: 'bulk-twice', gender: 'female' } },
    ]);
    expect(twice.map((r) => r.created)).toEqual([true, false]);
    expect((await repo.readResource<Patient>('Patient', 'bulk-twice')).gender).toBe('female');
  });

  test('$validate reports every issue and stores nothing', () => {
    expect(repo.validate({ resourceType: 'Patient', gender: 'female' }).id).toBe('ok');
    const outcome = repo.validate({ resourceType: 'Patient', birthDate: 'x', colour: 'blue' });
    expect(outcome.issue?.length).toBeGreaterThanOrEqual(2);
  });
});

describe.each(databases())('Repository contexts on %s', (_engine, kind) => {
  let db: Database;

  beforeAll(async () => {
    db = await kind.open();
  });

  afterAll(async () => {
    await db.close();
  });

  test('meta.project and meta.author come from the context; withContext writes as another caller in the same store', async () => {
    const system = new Repository(db, systemContext());
    const unscoped = await system.createResource<Patient>({
      resourceType: 'Patient',
      meta: { project: 'forged' },
    });
    expect(unscoped.meta?.project).toBeUndefined();
    const clinic = system.withContext({ project: 'clinic-1', author: { reference: 'Practitioner/dr-chen' } });
    const scoped = await clinic.createResource<Patient>({ resourceType: 'Patient' });
    expect(scoped.meta?.project).toBe('clinic-1');
    expect(scoped.meta?.author).toEqual({ reference: 'Practitioner/dr-chen' });
    const { rows } = await db.query<{ project: string | null }>(
      'SELECT project FROM resource WHERE id = $1',
      [scoped.id!],
    );
    expect(rows[0].project).toBe('clinic-1');
    expect((await system.readResource<Patient>('Patient', scoped.id!)).meta?.project).toBe('clinic-1');
  });
});
