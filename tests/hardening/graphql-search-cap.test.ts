// One GraphQL document runs at most GRAPHQL_MAX_CONCURRENT_SEARCHES searches at once (SPEC §7):
// 100 aliased lists (the most a document may have) all answer correctly, the database never has
// more of the document's searches in flight than the cap (a server with a high cap, the control,
// shows it would have), and /healthcheck stays answered within 1 s while the document runs.
// Real HTTP, PGlite and PostgreSQL with TEST_DATABASE_URL.
import type { Database } from '../../src/server/db';
import { databases } from '../server/support/test-databases';
import type { TestDatabaseKind } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

const FAMILIES = 10;
const ALIASES = 100;

/** The database as the server uses it, counting the reads in flight at once. */
function counting(kind: TestDatabaseKind) {
  const seen = { inFlight: 0, most: 0 };
  const open = async (): Promise<Database> => {
    const db = await kind.open();
    const query: Database['query'] = async (sql, params) => {
      // The document's searches are its only reads (types are bound as parameters, not in the SQL);
      // the PostgreSQL health check's SELECT 1 is not one.
      const search = /^\s*(SELECT|WITH)\b/i.test(sql) && !/^\s*SELECT 1\s*$/i.test(sql);
      if (search) seen.most = Math.max(seen.most, ++seen.inFlight);
      try {
        return await db.query(sql, params);
      } finally {
        if (search) seen.inFlight--;
      }
    };
    return Object.assign(Object.create(db) as Database, { query });
  };
  return { kind: { engine: kind.engine, open }, seen };
}

/** `a0: PatientList(family: "Cap0") { name { family } } …`: alias i asks for family Cap(i % 10). */
const DOCUMENT = `{ ${Array.from(
  { length: ALIASES },
  (_, i) => `a${i}: PatientList(family: "Cap${i % FAMILIES}") { name { family } }`,
).join(' ')} }`;

describe.each(databases())('GraphQL search cap on %s', (_engine, kind) => {
  const capped = counting(kind);
  const control = counting(kind);
  let servers: TestServer[] = [];

  beforeAll(async () => {
    servers = [
      await startTestServer(capped.kind, { GRAPHQL_MAX_CONCURRENT_SEARCHES: '2' }),
      await startTestServer(control.kind, { GRAPHQL_MAX_CONCURRENT_SEARCHES: '100' }),
    ];
    for (const server of servers) {
      for (let i = 0; i < FAMILIES; i++) {
        const response = await fetch(`${server.fhirUrl}Patient`, {
          method: 'POST',
          headers: { 'content-type': 'application/fhir+json' },
          body: JSON.stringify({ resourceType: 'Patient', name: [{ family: `Cap${i}` }] }),
        });
        expect(response.status).toBe(201);
      }
      // Built before the document runs: the schema's one-time build is not what is measured here.
      await fetch(`${server.fhirUrl}$graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
    }
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  /** Runs the document while polling /healthcheck every 50 ms; the answer and the slowest poll. */
  async function runDocument(server: TestServer) {
    let worst = 0;
    let polls = 0;
    let done = false;
    const poller = (async () => {
      while (!done) {
        const started = performance.now();
        const response = await fetch(`${server.baseUrl}healthcheck`, { signal: AbortSignal.timeout(5000) });
        await response.text();
        worst = Math.max(worst, response.ok ? performance.now() - started : Infinity);
        polls++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const response = await fetch(`${server.fhirUrl}$graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: DOCUMENT }),
    });
    const body = (await response.json()) as {
      data?: Record<string, { name: { family: string }[] }[]>;
      errors?: unknown[];
    };
    done = true;
    await poller;
    return { status: response.status, body, worst, polls };
  }

  it('100 aliased lists answer correctly with at most 2 searches in flight, the health check answered', async () => {
    capped.seen.most = 0;
    const { status, body, worst, polls } = await runDocument(servers[0]);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    for (let i = 0; i < ALIASES; i++) {
      expect(body.data?.[`a${i}`]?.map((patient) => patient.name[0].family)).toEqual([`Cap${i % FAMILIES}`]);
    }
    console.log(
      `search cap on ${kind.engine}: ${ALIASES} lists, at most ${capped.seen.most} searches in flight (cap 2); ` +
        `worst /healthcheck ${Math.round(worst)} ms over ${polls} polls`,
    );
    expect(capped.seen.most).toBeGreaterThan(0);
    expect(capped.seen.most).toBeLessThanOrEqual(2);
    expect(polls).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1000);
  });

  it('the control: with a cap of 100 the same document puts more than 2 searches in flight', async () => {
    control.seen.most = 0;
    const { status, body } = await runDocument(servers[1]);
    expect(status).toBe(200);
    expect(Object.keys(body.data ?? {})).toHaveLength(ALIASES);
    console.log(
      `search cap control on ${kind.engine}: at most ${control.seen.most} searches in flight (cap 100)`,
    );
    expect(control.seen.most).toBeGreaterThan(2);
  });
});
