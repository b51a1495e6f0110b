// The route's first requests for a table (tablePrefetch): the schema lists, the saved layouts and the
// rows go out at once, and pendingTableStart holds the table back until every one of them has answered
// or failed, so the table renders their answers once from the cache instead of once per answer.
import { BloomClient } from '../../../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../../../src/client/storage';
import { pendingTableStart, prefetchTable } from '../../../../src/app/features/search-table/tablePrefetch';

interface HeldRequest {
  readonly url: string;
  readonly operation: string | undefined;
  readonly answer: (response: Response) => void;
}

/** A signed-in client whose requests wait until the test answers them (auth/me is answered at once). */
function heldClient() {
  const held: HeldRequest[] = [];
  const fetch = (input: string, init?: RequestInit): Promise<Response> => {
    if (input.endsWith('auth/me')) {
      return Promise.resolve(Response.json({ profile: { resourceType: 'Practitioner', id: 'chen' } }));
    }
    const operation = /"operationName":"(\w+)"/.exec(String(init?.body ?? ''))?.[1];
    return new Promise((answer) => held.push({ url: input, operation, answer }));
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

const graphqlError = () => Response.json({ errors: [{ message: 'Not today' }] });

describe('SPEC §7 the table start: one wait for all of its first requests', () => {
  it('is pending until the last answer is in, a failed one included, then gone', async () => {
    const { client, held } = heldClient();
    expect(pendingTableStart('Encounter')).toBeUndefined();
    prefetchTable(client, 'Encounter', '', 1_000);
    const start = pendingTableStart('Encounter');
    expect(start).toBeInstanceOf(Promise);
    // The key-value read, the rows, the definition and both parameter lists, all sent at once.
    await until(() => held.length === 5);
    expect(held.map((request) => request.operation ?? new URL(request.url).pathname).sort()).toEqual([
      '/keyvalue/v1/bloom-search-tables',
      'ResourceList',
      'SearchParameterList',
      'SearchParameterList',
      'StructureDefinitionFields',
    ]);
    let settled = false;
    void start?.then(() => (settled = true));
    for (const request of held.slice(0, 4)) {
      request.answer(request.operation ? graphqlError() : new Response(null, { status: 404 }));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect(pendingTableStart('Encounter')).toBe(start);
    held[4].answer(held[4].operation ? graphqlError() : new Response(null, { status: 404 }));
    await until(() => settled);
    expect(pendingTableStart('Encounter')).toBeUndefined();
  });

  it('a URL the rows cannot be read from without the schema starts without the rows', async () => {
    const { client, held } = heldClient();
    prefetchTable(client, 'Condition', '?code:not=abc', 2_000);
    await until(() => held.length === 4);
    expect(
      held
        .map((request) => request.operation)
        .filter(Boolean)
        .sort(),
    ).toEqual(['SearchParameterList', 'SearchParameterList', 'StructureDefinitionFields']);
    expect(pendingTableStart('Condition')).toBeInstanceOf(Promise);
  });
});
