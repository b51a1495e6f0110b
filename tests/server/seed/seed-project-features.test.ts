// A data directory seeded before the demo Project had the 'websocket-subscriptions' feature (which
// Medplum's components need to go live) gets it on the next start; an admin's own features stay,
// and a clinic that has it already is not written again.
import type { Project } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedDemoClinic } from '../../../src/server/seed';
import { databases } from '../support/test-databases';

describe.each(databases())('the demo Project gains its missing features on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext());
  }, 120_000);

  afterAll(async () => {
    await db?.close();
  });

  test('an old clinic without the feature gets it, beside the features it had', async () => {
    const { projectId } = await seedDemoClinic(repo, { today: new Date('2026-03-10T10:00:00Z') });
    const seeded = await repo.readResource<Project>('Project', projectId);
    expect(seeded.features).toEqual(['websocket-subscriptions']);

    // As a clinic seeded by an earlier Bloom, with a feature an admin turned on.
    const old = (await repo.updateResource<Project>({ ...seeded, features: ['bots'] })).resource;
    const again = await seedDemoClinic(repo);
    expect(again).toEqual({ seeded: false, projectId });
    const upgraded = await repo.readResource<Project>('Project', projectId);
    expect(upgraded.features).toEqual(['bots', 'websocket-subscriptions']);
    expect(upgraded.meta?.versionId).not.toBe(old.meta?.versionId);

    // Nothing missing: the Project is not written again.
    await seedDemoClinic(repo);
    expect((await repo.readResource<Project>('Project', projectId)).meta?.versionId).toBe(
      upgraded.meta?.versionId,
    );
  });
});
