// Refusals before anything runs: depth 12 and the cost budget, malformed requests,
// queries and variables, each a 400 OperationOutcome saying what is wrong; introspection on by
// default and off with GRAPHQL_INTROSPECTION=false (403).
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  getGraphQL,
  issueTexts,
  postGraphQL,
  sendGraphQL,
  startDemoClinic,
} from '../../graphql/support/graphql-fixtures';
import type { DemoClinic, GraphQLHttpResponse } from '../../graphql/support/graphql-fixtures';

/** `Organization(id) { partOf { resource { ... on Organization { partOf { … } } } } }`: depth 1 + 2 per level + 1. */
function nestedQuery(levels: number): string {
  let inner = 'id';
  for (let i = 0; i < levels; i++) {
    inner = `partOf { resource { ... on Organization { ${inner} } } }`;
  }
  return `{ Organization(id: "00000000-0000-4000-8000-000000000000") { ${inner} } }`;
}

function expectOutcome(response: GraphQLHttpResponse<unknown>, status: number, text: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.body.resourceType).toBe('OperationOutcome');
  expect(response.contentType).toMatch(/^application\/fhir\+json/);
  expect(issueTexts(response.body).join(' | ')).toMatch(text);
}

describe.each(databases())('issue #6 $graphql limits and malformed input on %s', (_engine, kind) => {
  let clinic: DemoClinic;

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
  }, 120_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  const post = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
    postGraphQL(clinic.server, clinic.chen, query, variables, operationName);

  it('depth 12 runs; depth 13 is refused with a 400 OperationOutcome', async () => {
    // 1 (Organization) + 2 per level + 1 (id): 5 levels = 12, 6 levels = 14.
    const atLimit = await post(nestedQuery(5));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.errors?.[0].message).toBe('Not found');
    expectOutcome(await post(nestedQuery(6)), 400, /Query too deep: .* depth 13, the limit is 12/);
  });

  it('depth counts through fragments too', async () => {
    const query = `
      query { Organization(id: "x") { ...A } }
      fragment A on Organization { partOf { resource { ...B } } }
      fragment B on Organization { partOf { resource { ...C } } }
      fragment C on Organization { partOf { resource { ...D } } }
      fragment D on Organization { partOf { resource { ...E } } }
      fragment E on Organization { partOf { resource { ...F } } }
      fragment F on Organization { partOf { resource { ... on Organization { id } } } }`;
    expectOutcome(await post(query), 400, /Query too deep/);
  });

  it('a query over the cost budget is refused before it runs; the same shape with small pages runs', async () => {
    const costly = `{ PatientList(_count: 1000) { ObservationList(_reference: subject, _count: 1000) { id } } }`;
    expectOutcome(await post(costly), 400, /Query too costly: .* the limit is 10000/);
    const byVariable = `query ($n: Int) { PatientList(_count: $n) { ObservationList(_reference: subject, _count: $n) { id } } }`;
    expectOutcome(await post(byVariable, { n: 500 }), 400, /Query too costly/);
    const small = await post(byVariable, { n: 5 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it('malformed bodies: not JSON, not an object, no query', async () => {
    expectOutcome(await sendGraphQL(clinic.server, clinic.chen, '{"query": '), 400, /JSON/i);
    expectOutcome(await sendGraphQL(clinic.server, clinic.chen, '[1, 2]'), 400, /must be a JSON object/);
    expectOutcome(await sendGraphQL(clinic.server, clinic.chen, '{}'), 400, /Must provide query/);
    expectOutcome(await sendGraphQL(clinic.server, clinic.chen, '{"query": 42}'), 400, /Must provide query/);
    expectOutcome(
      await sendGraphQL(
        clinic.server,
        clinic.chen,
        '{"query": "{ PatientList { id } }", "operationName": 7}',
      ),
      400,
      /operationName must be a string/,
    );
  });

  it('the body may be sent as application/json or application/fhir+json; other media types are a 415', async () => {
    const body = JSON.stringify({ query: '{ PatientList(_count: 1) { id } }' });
    const fhirJson = await sendGraphQL(clinic.server, clinic.chen, body, 'application/fhir+json');
    expect(fhirJson.status).toBe(200);
    expect(fhirJson.body.data?.PatientList).toHaveLength(1);
    expectOutcome(
      await sendGraphQL(clinic.server, clinic.chen, '{"query":', 'application/fhir+json'),
      400,
      /Malformed JSON/,
    );
    expect((await sendGraphQL(clinic.server, clinic.chen, body, 'text/xml')).status).toBe(415);
  });

  it('malformed queries: syntax errors with their position, unknown fields and arguments, wrong argument types', async () => {
    const syntax = await post('{ PatientList { id }');
    expectOutcome(syntax, 400, /GraphQL syntax error: Syntax Error: Expected Name/);
    expect(syntax.body.issue?.[0].expression?.[0]).toMatch(/^line 1, column \d+$/);
    expectOutcome(
      await post('{ PatientList { nosuchfield } }'),
      400,
      /Cannot query field "nosuchfield" on type "Patient"/,
    );
    expectOutcome(await post('{ PatientList(nosucharg: "x") { id } }'), 400, /Unknown argument "nosucharg"/);
    expectOutcome(await post('{ PatientList(_count: "ten") { id } }'), 400, /Int cannot represent/);
    expectOutcome(await post('{ NoSuchTypeList { id } }'), 400, /Cannot query field "NoSuchTypeList"/);
  });

  it('malformed variables: not JSON, not an object, wrong or missing values', async () => {
    const query = 'query ($id: ID!) { Patient(id: $id) { id } }';
    expectOutcome(
      await sendGraphQL(clinic.server, clinic.chen, JSON.stringify({ query, variables: '{nope' })),
      400,
      /variables is not valid JSON/,
    );
    expectOutcome(
      await sendGraphQL(clinic.server, clinic.chen, JSON.stringify({ query, variables: [1] })),
      400,
      /variables must be a JSON object/,
    );
    expectOutcome(await post(query, {}), 400, /Variable "\$id" of required type "ID!" was not provided/);
    expectOutcome(await post(query, { id: { not: 'an id' } }), 400, /Variable "\$id" got invalid value/);
  });

  it('operation choice: an unknown operationName, or none among several operations, is a 400', async () => {
    const two = 'query A { PatientList { id } } query B { PractitionerList { id } }';
    expectOutcome(await post(two), 400, /Must provide operationName/);
    expectOutcome(await post(two, undefined, 'C'), 400, /Unknown operation 'C'/);
    const chosen = await post(two, undefined, 'B');
    expect(Object.keys(chosen.body.data ?? {})).toEqual(['PractitionerList']);
  });

  it('a mutation over GET is refused', async () => {
    const response = await getGraphQL(clinic.server, clinic.chen, {
      query: 'mutation { PatientDelete(id: "x") { id } }',
    });
    expectOutcome(response, 400, /Mutations must be sent with POST/);
  });

  it('introspection is on by default (GraphiQL and codegen use it)', async () => {
    const response = await post('{ __schema { queryType { name } mutationType { name } } }');
    expect(response.body.data).toEqual({
      __schema: { queryType: { name: 'QueryType' }, mutationType: { name: 'MutationType' } },
    });
    const type = await post('{ __type(name: "ResourceList") { kind possibleTypes { name } } }');
    const union = (type.body.data as { __type: { kind: string; possibleTypes: { name: string }[] } }).__type;
    expect(union.kind).toBe('UNION');
    expect(union.possibleTypes.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Patient', 'Observation']),
    );
  });
});

describe('GRAPHQL_INTROSPECTION=false', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(databases()[0][1], {
      GRAPHQL_INTROSPECTION: 'false',
      GRAPHQL_MAX_COST: '50',
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('refuses introspection with a 403 OperationOutcome and still runs ordinary queries', async () => {
    const refused = await postGraphQL(server, undefined, '{ __schema { queryType { name } } }');
    expectOutcome(refused, 403, /introspection is disabled/);
    const typename = await postGraphQL(server, undefined, '{ PatientList(_count: 1) { id } }');
    expect(typename.status).toBe(200);
    expect(typename.body.data).toEqual({ PatientList: [] });
  });

  it('GRAPHQL_MAX_COST sets the budget', async () => {
    expectOutcome(
      await postGraphQL(server, undefined, '{ PatientList(_count: 50) { id } }'),
      400,
      /Query too costly: it may load about 51 resources, the limit is 50/,
    );
    expect((await postGraphQL(server, undefined, '{ PatientList(_count: 49) { id } }')).status).toBe(200);
  });
});
