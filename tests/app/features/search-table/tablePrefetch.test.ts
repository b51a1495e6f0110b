// The route's first requests for a table (tablePrefetch): the schema lists and the rows in one GraphQL
// request (SearchTableStart), the saved layouts beside it, and pendingTableStart holds the table back
// until both have answered or failed, so the table renders their answers once from the cache instead
// of once per answer. A schema the cache holds is not asked again.
import { BloomClient } from '../../../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../../../src/client/storage';
import { pendingTableStart, prefetchTable } from '../../../../src/app/features/search-table/tablePrefetch';
import { SearchParameterListDocument, StructureDefinitionFieldsDocument } from '../../../../src/graphql';
import { sharedGraphqlClient } from '../../../../src/graphql/shared-client';

interface HeldRequest {
  readonly url: string;
  readonly operation: string | undefined;
  readonly variables: Record<string, unknown> | undefined;
  readonly answer: (response: Response) => void;
}

/** A signed-in client whose requests wait until the test answers them (auth/me is answered at once). */
function heldClient() {
  const held: HeldRequest[] = [];
  const fetch = (input: string, init?: RequestInit): Promise<Response> => {
    if (input.endsWith('auth/me')) {
      return Promise.resolve(Response.json({ profile: { resourceType: 'Practitioner', id: 'chen' } }));
    }
    const body = init?.body
      ? (JSON.parse(String(init.body)) as { operationName?: string; variables?: Record<string, unknown> })
      : {};
    return new Promise((answer) =>
      held.push({ url: input, operation: body.operationName, variables: body.variables, answer }),
    );
  };
  const client = new BloomClient({
    baseUrl: 'https://api.test/',
    fetch,
    storage: new PrefixedStorage(new MemoryStorage()),
  });
  void client.setActiveLogin({ accessToken: 'token', profile: { reference: 'Practitioner/chen' } });
  return { client, held };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

/** What SearchTableStart was sent to ask for. */
function startVariables(held: readonly HeldRequest[]) {
  return held.find((request) => request.operation === 'SearchTableStart')?.variables;
}

const graphqlError = () => Response.json({ errors: [{ message: 'Not today' }] });

describe('SPEC §7 the table start: one wait for all of its first requests', () => {
  it('is pending until the last answer is in, a failed one included, then gone', async () => {
    const { client, held } = heldClient();
    expect(pendingTableStart('Encounter')).toBeUndefined();
    prefetchTable(client, 'Encounter', '', 1_000);
    const start = pendingTableStart('Encounter');
    expect(start).toBeInstanceOf(Promise);
    // The key-value read, and the rows, the definition and both parameter lists in one request.
    await until(() => held.length === 2);
    expect(held.map((request) => request.operation ?? new URL(request.url).pathname).sort()).toEqual([
      '/keyvalue/v1/bloom-search-tables',
      'SearchTableStart',
    ]);
    expect(startVariables(held)).toEqual({
      resourceType: 'Encounter',
      search: expect.stringContaining('_count=20'),
      withRows: true,
      withDefinition: true,
      withOwnParameters: true,
      withCommonParameters: true,
      count: 100,
    });
    let settled = false;
    void start?.then(() => (settled = true));
    const [first, second] = held;
    first.answer(first.operation ? graphqlError() : new Response(null, { status: 404 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect(pendingTableStart('Encounter')).toBe(start);
    second.answer(second.operation ? graphqlError() : new Response(null, { status: 404 }));
    await until(() => settled);
    expect(pendingTableStart('Encounter')).toBeUndefined();
  });

  it('a URL the rows cannot be read from without the schema starts without the rows', async () => {
    const { client, held } = heldClient();
    prefetchTable(client, 'Condition', '?code:not=abc', 2_000);
    await until(() => held.length === 2);
    expect(startVariables(held)).toEqual({
      resourceType: 'Condition',
      withRows: false,
      withDefinition: true,
      withOwnParameters: true,
      withCommonParameters: true,
      count: 100,
    });
    expect(pendingTableStart('Condition')).toBeInstanceOf(Promise);
  });

  it('a type whose schema the cache holds asks for the rows alone', async () => {
    const { client, held } = heldClient();
    const apollo = sharedGraphqlClient(client);
    apollo.writeQuery({
      query: StructureDefinitionFieldsDocument,
      variables: { name: 'Goal' },
      data: { StructureDefinitionList: [] },
    });
    for (const base of ['Goal', 'Resource']) {
      apollo.writeQuery({
        query: SearchParameterListDocument,
        variables: { base },
        data: { SearchParameterList: [] },
      });
    }
    prefetchTable(client, 'Goal', '', 3_000);
    await until(() => held.length === 2);
    expect(startVariables(held)).toMatchObject({
      resourceType: 'Goal',
      withRows: true,
      withDefinition: false,
      withOwnParameters: false,
      withCommonParameters: false,
    });
  });
});
