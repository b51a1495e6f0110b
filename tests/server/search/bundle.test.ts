import type { Observation, Patient, Resource } from '@medplum/fhirtypes';
import { searchsetBundle, searchLinks } from '../../../src/server/search/bundle';
import { applyElements, applySummary, SUBSETTED_TAG } from '../../../src/server/search/summary';

const BASE = 'http://localhost:8103/fhir/R4/';

const observation: Observation = {
  resourceType: 'Observation',
  id: 'o1',
  meta: { versionId: '1', lastUpdated: '2026-01-01T00:00:00Z', tag: [{ system: 'http://x', code: 'y' }] },
  text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">BP</div>' },
  status: 'final',
  category: [{ text: 'vital-signs' }],
  code: { text: 'Heart rate' },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '2026-01-01T10:00:00Z',
  valueQuantity: { value: 72, unit: '/min' },
  note: [{ text: 'resting' }],
  component: [{ code: { text: 'a' }, valueQuantity: { value: 1 }, interpretation: [{ text: 'N' }] }],
};
const patient: Patient = { resourceType: 'Patient', id: 'p1', name: [{ family: 'Smith' }] };

describe('_summary and _elements projections (FHIR R4 search §3.1.1.5.8-9)', () => {
  test('_summary=true keeps isSummary elements, also inside backbone elements, and tags SUBSETTED', () => {
    const summary = applySummary(observation, 'true') as Observation;
    expect(Object.keys(summary).sort()).toEqual(
      [
        'component',
        'code',
        'effectiveDateTime',
        'id',
        'meta',
        'resourceType',
        'status',
        'subject',
        'valueQuantity',
      ].sort(),
    );
    expect(summary.component).toEqual([{ code: { text: 'a' }, valueQuantity: { value: 1 } }]);
    expect(summary.meta?.tag).toEqual([{ system: 'http://x', code: 'y' }, SUBSETTED_TAG]);
    expect(observation.meta?.tag).toHaveLength(1); // the stored resource is not changed
  });

  test('_summary=text keeps text, id, meta and mandatory elements; data drops only text', () => {
    expect(Object.keys(applySummary(observation, 'text')).sort()).toEqual(
      ['code', 'id', 'meta', 'resourceType', 'status', 'text'].sort(),
    );
    const data = applySummary(observation, 'data') as Observation;
    expect(data.text).toBeUndefined();
    expect(data.note).toEqual(observation.note);
    expect(applySummary(observation, 'false')).toBe(observation);
  });

  test('_elements keeps the listed elements (choice names and search codes too), id, meta and mandatory ones', () => {
    expect(Object.keys(applyElements(observation, ['subject'])).sort()).toEqual(
      ['code', 'id', 'meta', 'resourceType', 'status', 'subject'].sort(),
    );
    expect(Object.keys(applyElements(observation, ['value', 'date']))).toEqual(
      expect.arrayContaining(['valueQuantity', 'effectiveDateTime']),
    );
    expect(applyElements(observation, ['valueQuantity'])).not.toHaveProperty('note');
    expect((applyElements(observation, ['note']) as Resource).meta?.tag).toContainEqual(SUBSETTED_TAG);
  });
});

describe('searchset Bundle (issue #4; SPEC §7 link relation next)', () => {
  test('entries: matches then includes, fullUrl, search.mode; total when known', () => {
    const bundle = searchsetBundle({
      fhirBase: BASE,
      request: {
        resourceType: 'Observation',
        count: 1,
        include: [{ resourceType: 'Observation', searchParam: 'subject' }],
      },
      result: { resources: [observation], included: [patient], total: 7, hasMore: true },
    });
    expect(bundle.type).toBe('searchset');
    expect(bundle.total).toBe(7);
    expect(bundle.entry?.map((e) => [e.fullUrl, e.search?.mode])).toEqual([
      [`${BASE}Observation/o1`, 'match'],
      [`${BASE}Patient/p1`, 'include'],
    ]);
    expect(bundle.entry?.[0].resource).toBe(observation);
  });

  test('no total when the engine did not count', () => {
    const bundle = searchsetBundle({
      fhirBase: BASE,
      request: { resourceType: 'Patient' },
      result: { resources: [], included: [], hasMore: false },
    });
    expect(bundle).not.toHaveProperty('total');
    expect(bundle.entry).toEqual([]);
  });

  test('links self, first, previous, next carry the whole request, formatted as SPEC §7 says', () => {
    const request = {
      resourceType: 'Observation',
      filters: [{ code: 'code', operator: 'eq' as const, value: 'http://loinc.org|8867-4' }],
      sortRules: [{ code: 'date', descending: true }],
      count: 20,
      offset: 40,
    };
    expect(searchLinks(BASE, request, true)).toEqual([
      {
        relation: 'self',
        url: `${BASE}Observation?_count=20&_offset=40&_sort=-date&code=http://loinc.org|8867-4`,
      },
      {
        relation: 'first',
        url: `${BASE}Observation?_count=20&_offset=0&_sort=-date&code=http://loinc.org|8867-4`,
      },
      {
        relation: 'previous',
        url: `${BASE}Observation?_count=20&_offset=20&_sort=-date&code=http://loinc.org|8867-4`,
      },
      {
        relation: 'next',
        url: `${BASE}Observation?_count=20&_offset=60&_sort=-date&code=http://loinc.org|8867-4`,
      },
    ]);
    expect(
      searchLinks(BASE, { resourceType: 'Patient', offset: 5, count: 10 }, false).map((l) => l.relation),
    ).toEqual(['self', 'first', 'previous']);
    expect(searchLinks(BASE, { resourceType: 'Patient', offset: 5, count: 10 }, false)[2].url).toBe(
      `${BASE}Patient?_count=10&_offset=0`,
    );
  });

  test('projections apply to matches only; _summary=count has no entries', () => {
    const bundle = searchsetBundle({
      fhirBase: BASE,
      request: { resourceType: 'Observation', fields: ['status'] },
      result: { resources: [observation], included: [patient], hasMore: false },
    });
    expect(bundle.entry?.[0].resource).not.toHaveProperty('valueQuantity');
    expect(bundle.entry?.[1].resource).toBe(patient);
    const counted = searchsetBundle({
      fhirBase: BASE,
      request: { resourceType: 'Observation', summary: 'count', count: 0 },
      result: { resources: [], included: [], total: 3, hasMore: true },
    });
    expect(counted.total).toBe(3);
    expect(counted).not.toHaveProperty('entry');
    expect(counted.link?.map((l) => l.relation)).toEqual(['self', 'first']);
  });
});
