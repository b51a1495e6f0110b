// The generic table's typed rows (operations/ResourceList.graphql; SPEC §2 generic resource
// search table): one flag per request, the chosen type's page read back with its total, bad inputs.
import {
  isResourceListType,
  RESOURCE_LIST_TYPES,
  resourceListPage,
  resourceListVariables,
} from '../../src/graphql';
import type { ResourceListQuery } from '../../src/graphql';

test('resourceListVariables sets exactly the flag of the chosen type beside the page', () => {
  expect(resourceListVariables('Observation', { count: 20, offset: 40, sort: '-date' })).toEqual({
    Observation: true,
    count: 20,
    offset: 40,
    sort: '-date',
  });
  expect(resourceListVariables('Patient')).toEqual({ Patient: true });
});

test('isResourceListType accepts the table types only (names are case-sensitive)', () => {
  expect(RESOURCE_LIST_TYPES.every(isResourceListType)).toBe(true);
  expect(isResourceListType('observation')).toBe(false);
  expect(isResourceListType('Specimen')).toBe(false);
  expect(isResourceListType('')).toBe(false);
});

test('resourceListPage reads the type’s rows, total and offset; null edges and resources are skipped', () => {
  const data: ResourceListQuery = {
    Immunization: {
      count: 12,
      offset: 10,
      pageSize: 2,
      edges: [
        null,
        { resource: null },
        {
          resource: {
            resourceType: 'Immunization',
            id: 'i1',
            status: 'completed',
            occurrenceDateTime: '2026-01-01',
            meta: null,
            vaccineCode: { text: 'Tdap' },
          },
        },
      ],
    },
  };
  const page = resourceListPage(data, 'Immunization');
  expect(page).toEqual({ rows: [expect.objectContaining({ id: 'i1' })], total: 12, offset: 10 });
  expect(page.rows[0].vaccineCode?.text).toBe('Tdap');
  // Another type than the one asked for, or no answer yet: an empty page without a total.
  expect(resourceListPage(data, 'Patient')).toEqual({ rows: [], total: undefined, offset: 0 });
  expect(resourceListPage(undefined, 'Immunization')).toEqual({ rows: [], total: undefined, offset: 0 });
});
