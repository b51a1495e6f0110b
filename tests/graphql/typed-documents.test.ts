// The checker behind "every GraphQL document the app sends is a generated one" (the app tests and the
// e2e suites record what the app sends and hand it to untypedDocuments): generated operations pass
// as Apollo sends them (with __typename added), and each kind of difference is caught.
import { addTypenameToDocument } from '@apollo/client/utilities';
import { print } from 'graphql';
import { schemaQuery } from '../../src/client/schema-store';
import {
  CommunicationListDocument,
  ResourceListDocument,
  ThreadFieldsFragmentDoc,
} from '../../src/graphql/generated/operations';
import {
  generatedDocuments,
  graphqlRequestQuery,
  subscribeMessageQuery,
  untypedDocuments,
} from './support/typed-documents';

const resourceList = print(ResourceListDocument);

test('every generated operation is known, fragments alone are not operations', () => {
  const names = [...generatedDocuments().values()];
  expect(names).toEqual(expect.arrayContaining(['ResourceListDocument', 'CommunicationListDocument']));
  expect(names).not.toContain('ThreadFieldsFragmentDoc');
  expect(untypedDocuments([print(ThreadFieldsFragmentDoc)])).toHaveLength(1);
});

test('a generated operation passes as Apollo sends it: __typename added, printed, or as the AST', () => {
  expect(
    untypedDocuments([
      ResourceListDocument,
      resourceList,
      print(addTypenameToDocument(ResourceListDocument)),
      print(addTypenameToDocument(CommunicationListDocument)),
    ]),
  ).toEqual([]);
});

test.each([
  ['an extra field', resourceList.replace('pageSize', 'pageSize\n    next')],
  ['a missing field', resourceList.replace('total', '')],
  ['another argument value', resourceList.replace('search: $search', 'search: "_count=5"')],
  ['another operation name', resourceList.replace('query ResourceList', 'query RowsOfTable')],
  [
    'a document built at run time (the old per-type connection)',
    'query ResourceList($_count: Int) { Observation: ObservationConnection(_count: $_count) { count edges { resource { id } } } }',
  ],
  ['text that does not parse', 'query {'],
])('a deliberate mismatch is reported: %s', (_name, document) => {
  expect(untypedDocuments([resourceList, document])).toEqual([expect.any(String)]);
});

test("the platform client's own schema load (requestSchema's document) is no generated one: the app loads schemas through StructureDefinitionList and SearchParameterList", () => {
  expect(untypedDocuments([schemaQuery('Patient')])).toHaveLength(1);
});

test('the request readers find the query of a POST, a GET and a graphql-ws subscribe message', () => {
  const body = JSON.stringify({ query: resourceList, variables: {} });
  expect(graphqlRequestQuery('http://x/fhir/R4/$graphql', 'POST', body)).toBe(resourceList);
  expect(
    graphqlRequestQuery(`http://x/fhir/R4/$graphql?query=${encodeURIComponent('{ a }')}`, 'GET', null),
  ).toBe('{ a }');
  expect(graphqlRequestQuery('http://x/fhir/R4/Patient', 'POST', body)).toBeUndefined();
  expect(
    subscribeMessageQuery(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: '{ a }' } })),
  ).toBe('{ a }');
  expect(subscribeMessageQuery(JSON.stringify({ type: 'ping' }))).toBeUndefined();
});
