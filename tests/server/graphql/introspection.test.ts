// Whole-schema introspection (SPEC §7 GraphQL; no input stalls the server) over HTTP:
// `__schema { types }` is answered a slice of types at a time, the same answer graphql-js gives in
// one run, while /healthcheck keeps answering within 1 s; other shapes around `types` are a 400
// OperationOutcome naming the shape to use. PGlite and PostgreSQL.
import { execute, parse } from 'graphql';
import { getGraphQLSchemaInSlices } from '../../../src/server/graphql/schema';
import { databases } from '../support/test-databases';
import { issueTexts, postGraphQL, startDemoClinic } from '../../graphql/support/graphql-fixtures';
import type { DemoClinic } from '../../graphql/support/graphql-fixtures';

const WHOLE_SCHEMA = '{ __schema { queryType { name } types { name fields { name } } } }';

describe.each(databases())('GraphQL introspection on %s', (engine, kind) => {
  let clinic: DemoClinic;

  beforeAll(async () => {
    clinic = await startDemoClinic(kind);
    await getGraphQLSchemaInSlices();
  }, 180_000);

  afterAll(async () => {
    await clinic?.server.close();
  });

  const post = (query: string, variables?: Record<string, unknown>) =>
    postGraphQL(clinic.server, clinic.chen, query, variables);

  it('answers the whole schema as graphql-js does, and /healthcheck stays under 1 s meanwhile', async () => {
    let worst = 0;
    let polling = true;
    const poll = async (): Promise<void> => {
      while (polling) {
        const started = performance.now();
        const response = await fetch(`${clinic.server.baseUrl}healthcheck`);
        await response.text();
        worst = Math.max(worst, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const poller = poll();
    // A variable inside the sliced selection, under an alias: each slice gets the operation's variables.
    const query = `query ($deprecated: Boolean) { s: __schema { all: types { name fields(includeDeprecated: $deprecated) { name } } } }`;
    const answer = await post(query, { deprecated: true });
    polling = false;
    await poller;
    expect(answer.status).toBe(200);
    const { schema } = await getGraphQLSchemaInSlices();
    const direct = await execute({ schema, document: parse(query), variableValues: { deprecated: true } });
    expect(answer.body.data).toEqual(direct.data);
    const types = (answer.body.data as { s: { all: { name: string }[] } }).s.all;
    expect(types.length).toBeGreaterThan(8000);
    console.log(`whole-schema introspection: worst /healthcheck ${Math.round(worst)} ms on ${engine}`);
    expect(worst).toBeLessThan(1000);
  }, 120_000);

  it('answers a repeat from the kept text, the same answer', async () => {
    const first = await post(WHOLE_SCHEMA);
    const again = await post(WHOLE_SCHEMA);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  }, 120_000);

  it('refuses types under a fragment or mixed with data fields, with a 400 naming the shape', async () => {
    const viaFragment = await post('{ __schema { ...S } } fragment S on __Schema { types { name } }');
    expect(viaFragment.status).toBe(400);
    expect(issueTexts(viaFragment.body).join(' ')).toMatch(/directly under a top-level __schema field/);
    const mixed = await post('{ PatientList(_count: 1) { id } __schema { types { name } } }');
    expect(mixed.status).toBe(400);
    expect(issueTexts(mixed.body).join(' ')).toMatch(/cannot be mixed with other fields/);
  });
});
