// `_text`, `_content` and Location `near` (FHIR R4 search common and special parameters)
// on each engine: full-text matches of the narrative and of the whole resource, kept current by
// every write path (single writes, a transaction Bundle's bulk write, deletes, reindex), filled for
// old data by migration 16; near by great-circle distance; each with matching and non-matching
// resources and 400s for bad input.
import type { Communication, Location, Observation } from '@medplum/fhirtypes';
import { migrateServer } from '../../../src/server/migrations';
import type { Database } from '../../../src/server/db';
import { processBatch } from '../../../src/server/fhir/batch';
import { Repository, systemContext } from '../../../src/server/repo';
import { reindexAll } from '../../../src/server/search/reindex';
import { validateSearchQuery } from '../../../src/server/search/request-validation';
import { databases } from '../support/test-databases';
import { idSet, sorted, statusOf } from './search-support';

const XHTML = 'http://www.w3.org/1999/xhtml';
const FHIR_BASE = 'http://localhost/fhir/R4';

describe.each(databases())('search: _text, _content and near on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;
  let sickness: Observation;
  let heart: Observation;
  let cafe: Observation;
  let message: Communication;
  const places: Record<string, Location> = {};

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext('search-text-near'));
    sickness = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      text: {
        status: 'generated',
        div: `<div xmlns="${XHTML}"><p>Patient reports morning <b>sickness</b> &amp; fatigue</p></div>`,
      },
      code: { text: 'Nausea' },
    });
    heart = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] },
      note: [{ text: 'Fetal heart rate normal' }],
    });
    cafe = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Caffeine intake' },
      note: [{ text: 'Two cups at the Café every day' }],
    });
    message = await repo.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      payload: [{ contentString: 'Your ultrasound appointment is on Tuesday' }],
    });
    const place = async (name: string, latitude?: number, longitude?: number) => {
      places[name] = await repo.createResource<Location>({
        resourceType: 'Location',
        name,
        ...(latitude !== undefined && longitude !== undefined ? { position: { latitude, longitude } } : {}),
      });
    };
    await place('paris', 48.8566, 2.3522);
    await place('versailles', 48.8049, 2.1204); // about 18 km from Paris
    await place('london', 51.5074, -0.1278); // about 344 km
    await place('nowhere');
  });

  afterAll(async () => {
    await db?.close();
  });

  test('_text searches the narrative only: tags dropped, entities decoded', async () => {
    expect(await idSet(repo, 'Observation?_text=sickness')).toEqual(sorted([sickness.id]));
    expect(await idSet(repo, 'Observation?_text=FATIGUE')).toEqual(sorted([sickness.id]));
    expect(await idSet(repo, 'Observation?_text=nausea')).toEqual([]);
    expect(await idSet(repo, 'Observation?_text=heart')).toEqual([]);
  });

  test('_content searches every string of the resource, stemmed and accent-insensitive', async () => {
    expect(await idSet(repo, 'Observation?_content=nausea')).toEqual(sorted([sickness.id]));
    expect(await idSet(repo, 'Observation?_content=sicknesses')).toEqual(sorted([sickness.id]));
    expect(await idSet(repo, 'Observation?_content=heart')).toEqual(sorted([heart.id]));
    expect(await idSet(repo, 'Observation?_content=cafe')).toEqual(sorted([cafe.id]));
    expect(await idSet(repo, 'Communication?_content=ultrasound')).toEqual(sorted([message.id]));
    expect(await idSet(repo, 'Observation?_content=ultrasound')).toEqual([]);
  });

  test('phrases, or, -exclusion and comma OR', async () => {
    expect(await idSet(repo, `Observation?_content=${encodeURIComponent('"heart rate"')}`)).toEqual(
      sorted([heart.id]),
    );
    expect(await idSet(repo, `Observation?_content=${encodeURIComponent('"rate heart"')}`)).toEqual([]);
    expect(await idSet(repo, 'Observation?_content=heart%20-fetal')).toEqual([]);
    expect(await idSet(repo, 'Observation?_content=fatigue%20or%20heart')).toEqual(
      sorted([sickness.id, heart.id]),
    );
    expect(await idSet(repo, 'Observation?_content=fatigue,cafe')).toEqual(sorted([sickness.id, cafe.id]));
    expect(await idSet(repo, 'Observation?_content=heart&status=final')).toEqual(sorted([heart.id]));
  });

  test('writes and deletes keep the text index current', async () => {
    const note = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Swelling of ankles' },
    });
    expect(await idSet(repo, 'Observation?_content=ankles')).toEqual([note.id]);
    await repo.updateResource<Observation>({ ...note, code: { text: 'Headache' } });
    expect(await idSet(repo, 'Observation?_content=ankles')).toEqual([]);
    expect(await idSet(repo, 'Observation?_content=headache')).toEqual([note.id]);
    await repo.deleteResource('Observation', note.id as string);
    expect(await idSet(repo, 'Observation?_content=headache')).toEqual([]);
  });

  test('a transaction Bundle of PUTs (the bulk writer) writes and replaces the text rows', async () => {
    const bulk = jest.spyOn(Repository.prototype, 'updateResources');
    const existing = await repo.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Backache' },
    });
    const response = await processBatch(repo, FHIR_BASE, {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          resource: {
            resourceType: 'Observation',
            id: 'tx-text-new',
            status: 'final',
            text: {
              status: 'generated',
              div: `<div xmlns="${XHTML}">Gestational <i>diabetes</i> screen</div>`,
            },
            code: { text: 'Glucose tolerance' },
          },
          request: { method: 'PUT', url: 'Observation/tx-text-new' },
        },
        {
          resource: { ...existing, code: { text: 'Heartburn' } },
          request: { method: 'PUT', url: `Observation/${existing.id}` },
        },
      ],
    });
    // Both PUTs went through one bulk write, not one updateResource each.
    expect(bulk).toHaveBeenCalledTimes(1);
    expect(bulk.mock.calls[0][0]).toHaveLength(2);
    bulk.mockRestore();
    expect(response.entry?.map((e) => e.response?.status)).toEqual(['201', '200']);
    expect(await idSet(repo, 'Observation?_text=diabetes')).toEqual(['tx-text-new']);
    expect(await idSet(repo, 'Observation?_content=glucose')).toEqual(['tx-text-new']);
    expect(await idSet(repo, 'Observation?_content=heartburn')).toEqual([existing.id]);
    expect(await idSet(repo, 'Observation?_content=backache')).toEqual([]);
  });

  test('reindex rewrites the text rows, once per resource', async () => {
    await db.query("DELETE FROM search_text WHERE resource_type = 'Observation'");
    expect(await idSet(repo, 'Observation?_content=nausea')).toEqual([]);
    await reindexAll(db, { resourceTypes: ['Observation'] });
    await reindexAll(db, { resourceTypes: ['Observation'] });
    expect(await idSet(repo, 'Observation?_content=nausea')).toEqual(sorted([sickness.id]));
    expect(await idSet(repo, 'Observation?_text=fatigue')).toEqual(sorted([sickness.id]));
    const { rows } = await db.query<{ code: string; n: number }>(
      'SELECT code, count(*)::int AS n FROM search_text WHERE resource_id = $1 GROUP BY code ORDER BY code',
      [sickness.id as string],
    );
    expect(rows).toEqual([
      { code: '_content', n: 1 },
      { code: '_text', n: 1 },
    ]);
  });

  test('migration 16 fills the text index of resources stored before it', async () => {
    await db.query('DROP TABLE search_text');
    await db.query('DELETE FROM schema_migrations WHERE version = 16');
    expect(await migrateServer(db)).toEqual([16]);
    expect(await idSet(repo, 'Observation?_text=sickness')).toEqual(sorted([sickness.id]));
    expect(await idSet(repo, 'Communication?_content=tuesday')).toEqual(sorted([message.id]));
  });

  test.each([
    ['_text:exact=x', '_text:exact'],
    ['_content=', '_content'],
    ['_content=a,', '_content'],
  ])('Observation?%s → 400 naming %s', (query, expression) => {
    let caught: unknown;
    try {
      validateSearchQuery('Observation', new URLSearchParams(query));
    } catch (err) {
      caught = err;
    }
    expect(
      (caught as { outcome?: { issue: { expression?: string[] }[] } }).outcome?.issue[0].expression,
    ).toEqual([expression]);
  });

  const near = (...names: string[]): string[] => sorted(names.map((name) => places[name].id));

  test('near: Locations within the distance of the point, by great-circle distance', async () => {
    expect(await idSet(repo, 'Location?near=48.8566|2.3522|20|km')).toEqual(near('paris', 'versailles'));
    expect(await idSet(repo, 'Location?near=48.8566|2.3522|5|km')).toEqual(near('paris'));
    expect(await idSet(repo, 'Location?near=48.8566|2.3522|15000|m')).toEqual(near('paris'));
    expect(await idSet(repo, 'Location?near=48.8566|2.3522|340|km')).toEqual(near('paris', 'versailles'));
    expect(await idSet(repo, 'Location?near=48.8566|2.3522|350|km')).toEqual(
      near('paris', 'versailles', 'london'),
    );
    expect(await idSet(repo, 'Location?near=48.8566|2.3522|250|[mi_i]')).toEqual(
      near('paris', 'versailles', 'london'),
    );
    expect(await idSet(repo, 'Location?near=48.8566|2.3522')).toEqual(near('paris'));
    expect(await idSet(repo, 'Location?near=51.5|-0.12|1|km,48.8|2.12|1|km')).toEqual(
      near('london', 'versailles'),
    );
    expect(await idSet(repo, 'Location?near=0|0|100|km')).toEqual([]);
  });

  test.each([
    ['Location?near=91|0|1|km', 'latitude'],
    ['Location?near=48.8', 'two to four parts'],
    ['Location?near=48.8|abc', 'longitude'],
    ['Location?near=48.8|2.3|-1|km', 'distance'],
    ['Location?near=48.8|2.3|1|parsec', 'units are one of'],
  ])('%s → 400 (%s)', async (url, text) => {
    const outcome = await statusOf(idSet(repo, url));
    expect(outcome.status).toBe(400);
    expect(outcome.message).toContain(text);
  });
});
