// The start-up top-up of the demo's free slots (SPEC §2, §9): a clinic seeded
// weeks ago gets Slots for the days after its last one, up to 45 days from today, and nothing else.
// The clinic's slots depend on the day (weekdays only), so every date here is fixed.
import type { Resource, Schedule, Slot } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedDemoClinic, topUpDemoSlots } from '../../../src/server/seed';
import { databases } from '../support/test-databases';

/** Tuesday: the seed's slots run from Wednesday 11 March to Friday 24 April 2026 (45 days). */
const SEEDED = new Date('2026-03-10T10:00:00Z');
/** Two weeks later: 45 days from here end on Friday 8 May. */
const LATER = new Date('2026-03-24T07:00:00Z');
/** The weekdays after 24 April up to 8 May, each with eight one-hour slots from 09:00 UTC. */
const MISSING_DAYS = [
  '2026-04-27',
  '2026-04-28',
  '2026-04-29',
  '2026-04-30',
  '2026-05-01',
  '2026-05-04',
  '2026-05-05',
  '2026-05-06',
  '2026-05-07',
  '2026-05-08',
];
const MISSING_STARTS = MISSING_DAYS.flatMap((day) =>
  [9, 10, 11, 12, 13, 14, 15, 16].map((hour) => `${day}T${String(hour).padStart(2, '0')}:00:00Z`),
);

async function listAll<T extends Resource>(repo: Repository, type: string): Promise<T[]> {
  return (await repo.listNewest<T>(type, { count: 2000, offset: 0 })).items;
}

async function countVersions(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM resource_history');
  return Number(rows[0].n);
}

describe.each(databases())('topUpDemoSlots on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  let seededSlots: Slot[];

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext());
  });

  afterAll(async () => {
    await db.close();
  });

  test('without a demo clinic it writes nothing', async () => {
    expect(await topUpDemoSlots(repo, { today: LATER })).toEqual({ created: 0 });
    expect(await listAll(repo, 'Slot')).toEqual([]);
  });

  test('on the seeding day it writes nothing: the seed is 45 days ahead', async () => {
    await seedDemoClinic(repo, { today: SEEDED });
    seededSlots = await listAll<Slot>(repo, 'Slot');
    expect(Math.max(...seededSlots.map((s) => Date.parse(s.start)))).toBe(Date.parse('2026-04-24T16:00:00Z'));
    const versions = await countVersions(db);
    expect(await topUpDemoSlots(repo, { today: SEEDED })).toEqual({ created: 0 });
    expect(await countVersions(db)).toBe(versions);
  });

  test('two weeks later it writes exactly the missing days, and leaves every stored slot as it was', async () => {
    // A patient books a free slot in between: the top-up must leave it busy.
    const free = seededSlots.find((s) => s.status === 'free') as Slot;
    const booked = await repo.updateResource<Slot>({ ...free, status: 'busy' });
    expect(await topUpDemoSlots(repo, { today: LATER })).toEqual({ created: MISSING_STARTS.length });

    const slots = await listAll<Slot>(repo, 'Slot');
    const seededIds = new Set(seededSlots.map((s) => s.id));
    const added = slots.filter((s) => !seededIds.has(s.id));
    expect(added.map((s) => s.start).sort()).toEqual(MISSING_STARTS);
    const [schedule] = await listAll<Schedule>(repo, 'Schedule');
    for (const slot of added) {
      expect(slot.schedule).toEqual(seededSlots[0].schedule);
      expect(slot.schedule.reference).toBe(`Schedule/${schedule.id}`);
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(60 * 60 * 1000);
      expect(slot.meta?.project).toBe(seededSlots[0].meta?.project);
    }
    // Mostly free, with the seed's sprinkling of outside bookings.
    expect(added.filter((s) => s.status === 'free').length).toBeGreaterThan(added.length / 2);
    expect(new Set(added.map((s) => s.status))).toEqual(new Set(['free', 'busy']));

    const stored = new Map(slots.map((s) => [s.id, s]));
    for (const slot of seededSlots) {
      const expected = slot.id === booked.resource.id ? booked.resource : slot;
      expect(stored.get(slot.id)?.meta?.versionId).toBe(expected.meta?.versionId);
      expect(stored.get(slot.id)?.status).toBe(expected.status);
    }
    expect(schedule.planningHorizon?.end).toBe('2026-05-09T00:00:00Z');
  });

  test('a second top-up on the same day writes nothing', async () => {
    const versions = await countVersions(db);
    expect(await topUpDemoSlots(repo, { today: LATER })).toEqual({ created: 0 });
    expect(await countVersions(db)).toBe(versions);
  });

  test('two top-ups racing write the missing slots once', async () => {
    const fresh = await kind.open();
    try {
      const freshRepo = new Repository(fresh, systemContext());
      await seedDemoClinic(freshRepo, { today: SEEDED });
      const before = (await listAll<Slot>(freshRepo, 'Slot')).length;
      const results = await Promise.all([
        topUpDemoSlots(freshRepo, { today: LATER }),
        topUpDemoSlots(freshRepo, { today: LATER }),
      ]);
      expect(results.map((r) => r.created).sort((a, b) => a - b)).toEqual([0, MISSING_STARTS.length]);
      const slots = await listAll<Slot>(freshRepo, 'Slot');
      expect(slots).toHaveLength(before + MISSING_STARTS.length);
      expect(new Set(slots.map((s) => s.start)).size).toBe(slots.length);
    } finally {
      await fresh.close();
    }
  });
});
