// The read cache of the embedded engine: exact after every kind of write, never holding
// uncommitted data, and handing out copies (benchmark "reads at half of bare").
import type { Patient } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../../src/fhir';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { ResourceCache, resourceCacheFor } from '../../../src/server/repo/resource-cache';
import { databases } from '../support/test-databases';

describe('ResourceCache', () => {
  const patient = (id: string, gender: Patient['gender'] = 'female'): Patient => ({
    resourceType: 'Patient',
    id,
    gender,
  });

  test('returns a fresh copy on every get', () => {
    const cache = new ResourceCache();
    cache.set('Patient/a', patient('a'), cache.startRead());
    const first = cache.get<Patient>('Patient/a')!;
    first.gender = 'male';
    expect(cache.get<Patient>('Patient/a')?.gender).toBe('female');
  });

  test('a read that started before an invalidation does not store what it read', () => {
    const cache = new ResourceCache();
    const generation = cache.startRead();
    cache.invalidate('Patient/a');
    cache.set('Patient/a', patient('a'), generation);
    expect(cache.get('Patient/a')).toBeUndefined();
  });

  test('invalidate removes the entry', () => {
    const cache = new ResourceCache();
    cache.set('Patient/a', patient('a'), cache.startRead());
    cache.invalidate('Patient/a');
    expect(cache.get('Patient/a')).toBeUndefined();
  });

  test('keeps at most 10,000 entries, evicting the least recently used', () => {
    const cache = new ResourceCache();
    cache.set('Patient/keep', patient('keep'), cache.startRead());
    for (let i = 0; i < 10_000; i++) {
      if (i === 5000) {
        cache.get('Patient/keep');
      }
      cache.set(`Patient/${i}`, patient(String(i)), cache.startRead());
    }
    expect(cache.size).toBe(10_000);
    expect(cache.get('Patient/keep')).toBeDefined();
    expect(cache.get('Patient/0')).toBeUndefined();
  });
});

describe.each(databases())('reads after writes on %s (cached on PGlite only)', (engine, kind) => {
  let db: Database;
  let repo: Repository;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext());
  });

  afterAll(async () => {
    await db.close();
  });

  test('the cache exists only for the embedded engine', () => {
    expect(resourceCacheFor(db) !== undefined).toBe(engine === 'pglite');
  });

  test('update, patch and delete are seen by the next read even when the old version was read first', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', gender: 'female' });
    expect((await repo.readResource<Patient>('Patient', v1.id!)).gender).toBe('female');
    await repo.updateResource<Patient>({ ...v1, gender: 'male' });
    expect((await repo.readResource<Patient>('Patient', v1.id!)).gender).toBe('male');
    await repo.patchResource('Patient', v1.id!, [{ op: 'replace', path: '/gender', value: 'other' }]);
    expect((await repo.readResource<Patient>('Patient', v1.id!)).gender).toBe('other');
    await repo.deleteResource('Patient', v1.id!);
    await expect(repo.readResource('Patient', v1.id!)).rejects.toThrow(OperationOutcomeError);
  });

  test('readResourceJson: the stored text and its version, current after every write, gone after delete', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', gender: 'female' });
    const first = await repo.readResourceJson('Patient', v1.id!);
    expect(JSON.parse(first.json)).toEqual(await repo.readResource('Patient', v1.id!));
    expect(first.versionId).toBe(v1.meta?.versionId);
    expect(first.lastModified).toBe(new Date(v1.meta!.lastUpdated!).toUTCString());
    // Read twice (the second from the cache on PGlite): the same text.
    expect((await repo.readResourceJson('Patient', v1.id!)).json).toBe(first.json);
    const v2 = await repo.updateResource<Patient>({ ...v1, gender: 'male' });
    const second = await repo.readResourceJson('Patient', v1.id!);
    expect(second.versionId).toBe(v2.resource.meta?.versionId);
    expect((JSON.parse(second.json) as Patient).gender).toBe('male');
    await repo.deleteResource('Patient', v1.id!);
    await expect(repo.readResourceJson('Patient', v1.id!)).rejects.toThrow(OperationOutcomeError);
    await expect(repo.readResourceJson('Patient', 'no-such-id')).rejects.toThrow(OperationOutcomeError);
    await expect(repo.readResourceJson('NoSuchType', v1.id!)).rejects.toThrow(OperationOutcomeError);
  });

  test('a rolled-back transaction leaves readers with the committed version', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', gender: 'female' });
    expect((await repo.readResource<Patient>('Patient', v1.id!)).gender).toBe('female');
    await expect(
      repo.withTransaction(async (tx) => {
        await tx.updateResource<Patient>({ ...v1, gender: 'male' });
        // The transaction sees its own write...
        expect((await tx.readResource<Patient>('Patient', v1.id!)).gender).toBe('male');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // ...and nobody else ever does.
    expect((await repo.readResource<Patient>('Patient', v1.id!)).gender).toBe('female');
  });

  test('a caller changing what it read does not change what the next caller reads', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', gender: 'female' });
    const read = await repo.readResource<Patient>('Patient', v1.id!);
    read.gender = 'male';
    expect((await repo.readResource<Patient>('Patient', v1.id!)).gender).toBe('female');
  });

  test('reads racing writes never end up with an older version than the last write', async () => {
    const v1 = await repo.createResource<Patient>({ resourceType: 'Patient', birthDate: '2000-01-01' });
    const writes: Promise<unknown>[] = [];
    const reads: Promise<unknown>[] = [];
    for (let day = 2; day <= 20; day++) {
      reads.push(repo.readResource('Patient', v1.id!));
      writes.push(
        repo.updateResource<Patient>({ ...v1, birthDate: `2000-01-${String(day).padStart(2, '0')}` }),
      );
      reads.push(repo.readResource('Patient', v1.id!));
    }
    await Promise.all([...writes, ...reads]);
    const { rows } = await db.query<{ content: Patient }>('SELECT content FROM resource WHERE id = $1', [
      v1.id!,
    ]);
    expect(await repo.readResource('Patient', v1.id!)).toEqual(rows[0].content);
  });
});
