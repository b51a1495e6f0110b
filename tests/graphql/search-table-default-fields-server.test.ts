// The search table's per-type default columns (defaultFields.ts, extending SPEC §3's id and
// _lastUpdated) are `_fields` values the real server accepts and projects: every type with defaults
// passes the server's own query check, the admin's REST search of each navigation type answers with
// them, and Observation's `value` and `effective` (choice stems) come back as value[x] and effective[x]
// with nothing else but the resource's bookkeeping. PGlite always, PostgreSQL too with TEST_DATABASE_URL.
import type { Resource } from '@medplum/fhirtypes';
import { defaultFieldsOf, typesWithDefaults } from '../../src/app/features/search-table/defaultFields';
import { resourceListVariables } from '../../src/app/features/search-table/resourceListVariables';
import { effectiveRequest } from '../../src/app/features/search-table/searchState';
import { ADMINISTRATION, RECORD_TYPES } from '../../src/app/components/navItems';
import { BloomClient } from '../../src/client';
import { createGraphqlClient, ResourceListDocument } from '../../src/graphql';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { validateSearchQuery } from '../../src/server/search/request-validation';
import { databases } from '../server/support/test-databases';
import { startTestServer, type TestServer } from '../server/support/test-server';

/** The resource types the navigation's Records and Admin menus open as tables. */
const NAV_TYPES = [...RECORD_TYPES.items, ...ADMINISTRATION.items]
  .map((item) => item.to.slice(1))
  .filter((path) => /^[A-Z][A-Za-z]+$/.test(path));

test('every type with default columns: the table request passes the server query check', () => {
  const problems: string[] = [];
  for (const resourceType of typesWithDefaults()) {
    const { search } = resourceListVariables(effectiveRequest({ resourceType }));
    try {
      const read = validateSearchQuery(resourceType, new URLSearchParams(search));
      expect(read.fields).toEqual(defaultFieldsOf(resourceType));
    } catch (error) {
      problems.push(`${resourceType}: ${(error as Error).message}`);
    }
  }
  expect(problems).toEqual([]);
  // No table of the navigation falls back to the bare id column.
  expect(NAV_TYPES.filter((type) => defaultFieldsOf(type)[0] === 'id')).toEqual([]);
});

describe.each(databases())('search table default columns on the real server (%s)', (_engine, kind) => {
  let server: TestServer;
  let admin: BloomClient;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
    admin = new BloomClient({ baseUrl: server.baseUrl, storage: new PrefixedStorage(new MemoryStorage()) });
    const { code } = await admin.startLogin({
      email: 'admin@bloom.example',
      password: DEFAULT_DEMO_PASSWORD,
    });
    await admin.processCode(code as string);
  });

  afterAll(async () => {
    await server?.close();
  });

  test('Observation?_fields=subject,code,value,effective,status is accepted and projected', async () => {
    const fields = ['subject', 'code', 'value', 'effective', 'status'];
    const bundle = await admin.search('Observation', { _fields: fields.join(','), _count: '20' });
    const rows = (bundle.entry ?? []).map((entry) => entry.resource as Resource & Record<string, unknown>);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const extra = Object.keys(row).filter(
        (key) =>
          !['resourceType', 'id', 'meta', 'subject', 'code', 'status'].includes(key) &&
          !/^(value|effective)[A-Z]/.test(key),
      );
      expect(extra).toEqual([]);
      expect(row).toHaveProperty('code');
      expect(row).toHaveProperty('status');
    }
    // The choice stems come back under their typed names.
    expect(rows.some((row) => Object.keys(row).some((key) => /^value[A-Z]/.test(key)))).toBe(true);
    expect(rows.some((row) => Object.keys(row).some((key) => /^effective[A-Z]/.test(key)))).toBe(true);
    // The same resource read whole has more than the projection (the projection really trims).
    const whole = await admin.readResource('Observation', rows[0].id as string);
    expect(Object.keys(whole).length).toBeGreaterThan(Object.keys(rows[0]).length);
  });

  test.each(NAV_TYPES)(
    "the admin's %s table request (ResourceList, its default columns) is answered",
    async (resourceType) => {
      const apollo = createGraphqlClient({ fhirBaseUrl: admin.getSettings().fhirBaseUrl, session: admin });
      const variables = resourceListVariables(effectiveRequest({ resourceType }));
      expect(new URLSearchParams(variables.search).get('_fields')).toBe(
        defaultFieldsOf(resourceType).join(','),
      );
      const answer = await apollo.query({ query: ResourceListDocument, variables, fetchPolicy: 'no-cache' });
      expect(answer.error).toBeUndefined();
      expect(typeof answer.data?.ResourceSearch?.total).toBe('number');
    },
  );
});
