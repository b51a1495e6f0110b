// The search table's rows operation (ResourceList, SPEC §7) refused by the real server: Maria's
// policy (SPEC §6) does not let her search a type, and the table's error reading (searchError) turns
// the GraphQL answer into the server's own message, which the table shows as an alert, never as
// 'No results'. PGlite always, PostgreSQL too with TEST_DATABASE_URL.
import { searchError } from '../../src/app/features/search-table/useSearchResults';
import { outcomeText } from '../../src/app/features/search-table/SearchErrorPanel';
import { BloomClient } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { createGraphqlClient, ResourceListDocument } from '../../src/graphql';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer, type TestServer } from '../server/support/test-server';

describe.each(databases())('search table errors from the real server on %s', (_engine, kind) => {
  let server: TestServer;
  let maria: BloomClient;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
    maria = new BloomClient({ baseUrl: server.baseUrl, storage: new PrefixedStorage(new MemoryStorage()) });
    const { code } = await maria.startLogin({
      email: 'maria@bloom.example',
      password: DEFAULT_DEMO_PASSWORD,
    });
    await maria.processCode(code as string);
  });

  afterAll(async () => {
    await server?.close();
  });

  test.each(['ClientApplication', 'AccessPolicy', 'ProjectMembership'])(
    "Maria's search of %s: the refusal's own text, not an empty page",
    async (resourceType) => {
      const apollo = createGraphqlClient({ fhirBaseUrl: maria.getSettings().fhirBaseUrl, session: maria });
      const answer = await apollo
        .query({
          query: ResourceListDocument,
          variables: { resourceType, search: '_count=20&_total=accurate' },
          fetchPolicy: 'no-cache',
        })
        .then(
          (result) => ({ data: result.data ?? undefined, error: result.error as unknown }),
          (error: unknown) => ({ data: undefined, error }),
        );
      const rest = await maria.search(resourceType as 'Bot', { _count: '1' }).then(
        () => 'allowed',
        (error: unknown) => outcomeText(error),
      );
      expect(rest).toBe(`Forbidden: ${resourceType} is not accessible`);
      expect(answer.data?.ResourceSearch).toBeUndefined();
      // The table reads the GraphQL error as the server's outcome, with the REST search's text.
      expect(outcomeText(searchError(answer.error))).toBe(rest);
    },
  );
});
