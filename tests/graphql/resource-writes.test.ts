// One cache policy for REST writes (SPEC §7): a client write evicts the changed resource, its type's
// lists and the search table's ResourceSearch pages of that type, and nothing of other types.
import { ResourceListDocument } from '../../src/graphql';
import { createResourceCache } from '../../src/graphql/cache';
import { evictChangedResource } from '../../src/graphql/resource-writes';

function tablePage(resourceType: string, id: string) {
  return {
    query: ResourceListDocument,
    variables: { resourceType, search: '_count=20' },
    data: {
      ResourceSearch: {
        __typename: 'ResourceSearchResult',
        total: 1,
        offset: 0,
        pageSize: 20,
        resources: [{ resourceType, id }],
      },
    },
  };
}

test('a write to an Observation drops the Observation table pages and keeps the Patient table page', () => {
  const cache = createResourceCache();
  cache.writeQuery(tablePage('Observation', 'o1'));
  cache.writeQuery(tablePage('Patient', 'p1'));
  const read = (resourceType: string) =>
    cache.readQuery({ query: ResourceListDocument, variables: { resourceType, search: '_count=20' } });
  expect(read('Observation')).not.toBeNull();

  evictChangedResource(cache, { resourceType: 'Observation', id: 'o1' });

  expect(read('Observation')).toBeNull();
  expect(read('Patient')?.ResourceSearch.resources).toEqual([{ resourceType: 'Patient', id: 'p1' }]);
});

test('a create (no id yet) drops the table pages of its type', () => {
  const cache = createResourceCache();
  cache.writeQuery(tablePage('Patient', 'p1'));
  expect(() => evictChangedResource(cache, { resourceType: 'Patient' })).not.toThrow();
  expect(
    cache.readQuery({
      query: ResourceListDocument,
      variables: { resourceType: 'Patient', search: '_count=20' },
    }),
  ).toBeNull();
});
