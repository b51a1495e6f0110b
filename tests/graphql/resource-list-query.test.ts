// The search table's ResourceList operation (SPEC §7 "ResourceList queries for generic
// tables"): the connection's arguments from a SearchRequest (and the requests they cannot say), the
// selection syntax and its bad inputs, GraphQL rows compacted as REST gives them, and, against the
// server's schema snapshot, a valid document for every resource type with every one of its columns.
import { readFileSync } from 'node:fs';
import { buildSchema, print, validate } from 'graphql';
import { buildTableSchema } from '../../src/app/features/search-table/tableSchema';
import { getResourceTypes, getTypeSchema } from '../../src/fhir';
import { Operator } from '../../src/fhir/search';
import type { StructureDefinitionListQuery } from '../../src/graphql';
import {
  compactRow,
  parseSelection,
  resourceListArguments,
  resourceListQuery,
} from '../../src/graphql/resource-list-query';

test('filters, sort and page become the connection arguments, prefixes kept in the value', () => {
  expect(
    resourceListArguments({
      resourceType: 'Observation',
      filters: [
        { code: 'code', operator: Operator.EQUALS, value: 'http://loinc.org|8867-4' },
        { code: 'date', operator: Operator.GREATER_THAN_OR_EQUALS, value: '2026-01-01' },
        { code: 'based-on', operator: Operator.EQUALS, value: 'ServiceRequest/1' },
      ],
      sortRules: [{ code: 'date', descending: true }, { code: '_id' }],
      count: 100,
      offset: 200,
    }),
  ).toEqual({
    code: 'http://loinc.org|8867-4',
    date: 'ge2026-01-01',
    based_on: 'ServiceRequest/1',
    _sort: '-date,_id',
    _count: 100,
    _offset: 200,
  });
});

test.each([
  ['a modifier', { code: 'status', operator: Operator.NOT, value: 'final' }],
  ['missing', { code: 'status', operator: Operator.MISSING, value: 'true' }],
  ['contains', { code: 'name', operator: Operator.CONTAINS, value: 'ann' }],
  ['a chain', { code: 'subject:Patient.name', operator: Operator.EQUALS, value: 'x' }],
])('%s is left to the REST search (no argument can say it)', (_name, filter) => {
  expect(resourceListArguments({ resourceType: 'Observation', filters: [filter] })).toBeUndefined();
  expect(resourceListQuery({ resourceType: 'Observation', filters: [filter] }, 'status')).toBeUndefined();
});

test('a code the connection has no argument for (_filter, a custom parameter) is left to the REST search', () => {
  const known = new Set(['status']);
  const request = {
    resourceType: 'Observation',
    filters: [{ code: '_filter', operator: Operator.EQUALS, value: 'not (status co "x")' }],
  };
  expect(resourceListArguments(request, (code) => known.has(code))).toBeUndefined();
  const plain = {
    resourceType: 'Observation',
    filters: [{ code: 'status', operator: Operator.EQUALS, value: 'final' }],
  };
  expect(resourceListArguments(plain, (code) => known.has(code))).toEqual({ status: 'final' });
});

test('a range (two conditions on one parameter) and includes are left to the REST search', () => {
  const range = [
    { code: 'date', operator: Operator.GREATER_THAN_OR_EQUALS, value: '2026-01-01' },
    { code: 'date', operator: Operator.LESS_THAN, value: '2026-02-01' },
  ];
  expect(resourceListArguments({ resourceType: 'Observation', filters: range })).toBeUndefined();
  expect(
    resourceListArguments({
      resourceType: 'Observation',
      include: [{ resourceType: 'Observation', searchParam: 'subject' }],
    }),
  ).toBeUndefined();
});

test("an estimated total is left to the REST search (the connection's count is always exact)", () => {
  expect(resourceListArguments({ resourceType: 'Observation', total: 'estimate' })).toBeUndefined();
  expect(resourceListArguments({ resourceType: 'Observation', total: 'accurate' })).toEqual({});
});

test('the document aliases the type, asks count only when a total is wanted, and always reads id and meta', () => {
  const query = resourceListQuery(
    {
      resourceType: 'Observation',
      filters: [{ code: 'status', operator: Operator.EQUALS, value: 'final' }],
      count: 20,
    },
    'status id code{text}',
  );
  expect(query?.variables).toEqual({ status: 'final', _count: 20 });
  expect(print(query!.document).replace(/\s+/g, ' ')).toBe(
    'query ResourceList($_count: Int, $status: String) { Observation: ObservationConnection(_count: $_count, status: $status) ' +
      '{ count offset pageSize edges { resource { resourceType id meta { versionId lastUpdated } status code { text } } } } }',
  );
  const noTotal = resourceListQuery({ resourceType: 'Observation', total: 'none' }, '');
  expect(print(noTotal!.document)).not.toContain('count');
});

test.each(['a{', 'a}', 'a{}', '{a}', 'a-b', 'a{b c{d}', 'a b}'])('the selection %p is refused', (text) => {
  expect(() => parseSelection(text)).toThrow();
});

test('compactRow drops nulls, empty parts and __typename, as a REST search would not have them', () => {
  expect(
    compactRow({
      __typename: 'Observation',
      id: 'o1',
      status: null,
      code: { __typename: 'CodeableConcept', text: null, coding: [{ code: '8867-4', display: null }] },
      valueQuantity: { value: 0, unit: null },
      note: [],
      meta: { versionId: null },
    }),
  ).toEqual({ id: 'o1', code: { coding: [{ code: '8867-4' }] }, valueQuantity: { value: 0 } });
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

test("every resource type's every column makes a document the server's schema accepts", () => {
  const schema = buildSchema(readFileSync('schema/schema.graphql', 'utf8'));
  const problems: string[] = [];
  const types = getResourceTypes();
  expect(types.length).toBeGreaterThan(100);
  for (const resourceType of types) {
    const table = buildTableSchema(resourceType, definitionOf(resourceType), []);
    if (!table) throw new Error(`no table schema for ${resourceType}`);
    const selection = table.fields.map((field) => field.selection).join(' ');
    const query = resourceListQuery(
      { resourceType, count: 20, offset: 0, sortRules: [{ code: '_id' }] },
      selection,
    );
    if (!query) throw new Error(`no query for ${resourceType}`);
    for (const error of validate(schema, query.document)) problems.push(`${resourceType}: ${error.message}`);
  }
  expect(problems).toEqual([]);
});
