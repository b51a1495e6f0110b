// The search table's ResourceList operation (operations/ResourceList.graphql; SPEC §7 "ResourceList
// queries for generic tables"): its variables carry the table's request as the REST query string,
// whatever the request says (modifiers, ranges, `_filter`, the `_total` mode, includes), and, against
// the server's own edge check, every column of every resource type is a `_fields` value it accepts.
import { buildTableSchema } from '../../src/app/features/search-table/tableSchema';
import { resourceListVariables } from '../../src/app/features/search-table/resourceListVariables';
import { getResourceTypes, getTypeSchema } from '../../src/fhir';
import { Operator } from '../../src/fhir/search';
import type { StructureDefinitionListQuery } from '../../src/graphql';
import { validateSearchQuery } from '../../src/server/search/request-validation';

test('the variables are the type and the query string the REST URL would carry, whatever it says', () => {
  const request = {
    resourceType: 'Observation',
    filters: [
      { code: 'code', operator: Operator.EQUALS, value: 'http://loinc.org|8867-4' },
      { code: 'date', operator: Operator.GREATER_THAN_OR_EQUALS, value: '2026-01-01' },
      { code: 'date', operator: Operator.LESS_THAN, value: '2026-02-01' },
      { code: 'status', operator: Operator.NOT, value: 'final' },
      { code: '_filter', operator: Operator.EQUALS, value: 'not (value-string co "hi")' },
    ],
    sortRules: [{ code: 'date', descending: true }, { code: '_id' }],
    fields: ['id', 'status'],
    count: 100,
    offset: 200,
    total: 'estimate' as const,
  };
  const variables = resourceListVariables(request);
  expect(variables.resourceType).toBe('Observation');
  const params = new URLSearchParams(variables.search);
  expect(params.getAll('date')).toEqual(['ge2026-01-01', 'lt2026-02-01']);
  expect(params.get('status:not')).toBe('final');
  expect(params.get('_filter')).toBe('not (value-string co "hi")');
  expect(params.get('_sort')).toBe('-date,_id');
  expect(params.get('_fields')).toBe('id,status');
  expect(params.get('_total')).toBe('estimate');
  expect([params.get('_count'), params.get('_offset')]).toEqual(['100', '200']);
  // The server reads back the same request.
  const read = validateSearchQuery('Observation', params);
  expect(read.filters).toHaveLength(request.filters.length);
  expect(read).toMatchObject({
    filters: expect.arrayContaining(request.filters),
    sortRules: request.sortRules,
    fields: request.fields,
    count: 100,
    offset: 200,
    total: 'estimate',
  });
  expect(resourceListVariables({ resourceType: 'Patient' })).toEqual({ resourceType: 'Patient', search: '' });
});

/** A type's StructureDefinitionList answer as the server gives it: its elements and its backbones'. */
function definitionOf(resourceType: string): StructureDefinitionListQuery['StructureDefinitionList'] {
  const elements: { path: string; types: string[] }[] = [{ path: resourceType, types: [] }];
  const walk = (typeName: string, path: string, depth: number) => {
    for (const [name, element] of getTypeSchema(typeName)?.elements ?? []) {
      const types = element.types.map((type) => type.code);
      elements.push({ path: `${path}.${name}`, types });
      if (depth < 3 && types.some((type) => type === 'BackboneElement' || type === 'Element')) {
        walk(`${typeName}.${name}`, `${path}.${name}`, depth + 1);
      }
    }
  };
  walk(resourceType, resourceType, 0);
  return [
    {
      resourceType: 'StructureDefinition',
      id: resourceType,
      name: resourceType,
      kind: 'resource',
      description: null,
      type: resourceType,
      url: null,
      snapshot: {
        element: elements.map(({ path, types }) => ({
          id: path,
          path,
          definition: null,
          min: 0,
          max: '*',
          base: null,
          contentReference: null,
          type: types.map((code) => ({ code, profile: null, targetProfile: null })),
          binding: null,
        })),
      },
    },
  ];
}

test("every resource type's every column is a _fields value the server's search accepts", () => {
  const problems: string[] = [];
  const types = getResourceTypes();
  expect(types.length).toBeGreaterThan(100);
  for (const resourceType of types) {
    const table = buildTableSchema(resourceType, definitionOf(resourceType), []);
    if (!table) throw new Error(`no table schema for ${resourceType}`);
    const fields = table.fields.map((field) => field.name);
    const { search } = resourceListVariables({
      resourceType,
      fields,
      count: 20,
      sortRules: [{ code: '_id' }],
    });
    try {
      validateSearchQuery(resourceType, new URLSearchParams(search));
    } catch (error) {
      problems.push(`${resourceType}: ${(error as Error).message}`);
    }
  }
  expect(problems).toEqual([]);
});
