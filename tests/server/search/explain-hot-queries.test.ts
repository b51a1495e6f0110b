// The app's hot searches must use indexes (issue #4 "every hot query of the app must use an
// index"): a large table is filled in bulk, ANALYZEd, and every SQL statement a search runs is
// EXPLAINed; a sequential scan of a large table fails the test. Runs on each engine (the planner is
// PostgreSQL's in both).
import type { Resource } from '@medplum/fhirtypes';
import { parseSearchRequest } from '../../../src/fhir/search';
import type { Database, Queryable, SqlValue } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { buildPatientAccessPolicy } from '../../../src/server/seed';
import type { RepositoryContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';

const PATIENTS = 2_000;
const OBSERVATIONS_PER_PATIENT = 40; // 80,000 Observations
const SLOTS = 20_000;
const PROJECT = 'explain-project';
/** A table with more rows than this must never be read by a sequential scan. */
const LARGE_TABLE_ROWS = 5_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScans(plan: PlanNode, out: string[] = []): string[] {
  if (plan['Node Type'] === 'Seq Scan' && plan['Relation Name']) {
    out.push(plan['Relation Name']);
  }
  for (const child of plan.Plans ?? []) seqScans(child, out);
  return out;
}

/** A Database that remembers every statement it runs (the search's own SQL, to EXPLAIN). */
function recording(db: Database, log: { sql: string; params: readonly SqlValue[] }[]): Database {
  const record = (target: Queryable): Queryable => ({
    query(sql, params) {
      log.push({ sql, params: params ?? [] });
      return target.query(sql, params);
    },
  });
  return {
    engine: db.engine,
    query: record(db).query,
    transaction: (fn) => db.transaction((tx) => fn(record(tx))),
    close: () => db.close(),
  };
}

/** Bulk rows shaped as the index writer writes them, generated in SQL for speed. */
async function fill(db: Database): Promise<void> {
  const content = (type: string, extra: string) =>
    `jsonb_build_object('resourceType', '${type}', 'id', id, 'meta', jsonb_build_object('project', '${PROJECT}', 'versionId', gen_random_uuid()::text, 'lastUpdated', now()::text)${extra})`;
  await db.query(`
    INSERT INTO resource (resource_type, id, version_id, content, last_updated, project, compartments, seq)
    SELECT 'Patient', id, gen_random_uuid(), ${content('Patient', ", 'name', jsonb_build_array(jsonb_build_object('family', family))")},
      now() - (n || ' minutes')::interval, '${PROJECT}', ARRAY['Patient/' || id], n
    FROM (SELECT n, 'p' || n AS id, (ARRAY['smith','jones','garcia','chen','okafor','novak','silva','kim'])[1 + n % 8] || n AS family
          FROM generate_series(1, ${PATIENTS}) n) s`);
  await db.query(`INSERT INTO search_string (resource_type, resource_id, code, value, exact)
    SELECT 'Patient', id, c, content->'name'->0->>'family', content->'name'->0->>'family'
    FROM resource, unnest(ARRAY['name','family']) c WHERE resource_type = 'Patient'`);
  await db.query(`
    INSERT INTO resource (resource_type, id, version_id, content, last_updated, project, compartments, seq)
    SELECT 'Observation', id, gen_random_uuid(), ${content('Observation', ", 'subject', jsonb_build_object('reference', 'Patient/p' || p)")},
      now() - (n || ' seconds')::interval, '${PROJECT}', ARRAY['Patient/p' || p], 100000 + n
    FROM (SELECT n, 'o' || n AS id, 1 + n % ${PATIENTS} AS p FROM generate_series(1, ${PATIENTS * OBSERVATIONS_PER_PATIENT}) n) s`);
  await db.query(`INSERT INTO search_reference (resource_type, resource_id, code, target_type, target_id, reference)
    SELECT 'Observation', id, c, 'Patient', substr(compartments[1], 9), compartments[1]
    FROM resource, unnest(ARRAY['subject','patient']) c WHERE resource_type = 'Observation'`);
  await db.query(`INSERT INTO search_token (resource_type, resource_id, code, system, value)
    SELECT 'Observation', id, c, CASE WHEN c = 'status' THEN NULL ELSE 'http://loinc.org' END,
      CASE WHEN c = 'status' THEN 'final' ELSE (ARRAY['8867-4','29463-7','85354-9','8310-5','2339-0'])[1 + seq % 5] END
    FROM resource, unnest(ARRAY['code','combo-code','status']) c WHERE resource_type = 'Observation'`);
  await db.query(`INSERT INTO search_date (resource_type, resource_id, code, low, high)
    SELECT 'Observation', id, 'date', last_updated - interval '1 day', last_updated - interval '1 day' + interval '1 second'
    FROM resource WHERE resource_type = 'Observation'`);
  await db.query(`INSERT INTO search_quantity (resource_type, resource_id, code, value, system, unit)
    SELECT 'Observation', id, c, 40 + seq % 120, 'http://unitsofmeasure.org', '/min'
    FROM resource, unnest(ARRAY['value-quantity','combo-value-quantity']) c WHERE resource_type = 'Observation'`);
  for (const [type, code, dateCode, per] of [
    ['DiagnosticReport', 'subject', 'date', 5],
    ['Communication', 'subject', 'sent', 10],
  ] as const) {
    await db.query(`
      INSERT INTO resource (resource_type, id, version_id, content, last_updated, project, compartments, seq)
      SELECT '${type}', id, gen_random_uuid(), ${content(type, ", 'subject', jsonb_build_object('reference', 'Patient/p' || p)")},
        now() - (n || ' seconds')::interval, '${PROJECT}', ARRAY['Patient/p' || p], 1000000 + n
      FROM (SELECT n, '${type.slice(0, 2).toLowerCase()}' || n AS id, 1 + n % ${PATIENTS} AS p
            FROM generate_series(1, ${PATIENTS * per}) n) s`);
    await db.query(`INSERT INTO search_reference (resource_type, resource_id, code, target_type, target_id, reference)
      SELECT '${type}', id, c, 'Patient', substr(compartments[1], 9), compartments[1]
      FROM resource, unnest(ARRAY['${code}','patient']) c WHERE resource_type = '${type}'`);
    await db.query(`INSERT INTO search_date (resource_type, resource_id, code, low, high)
      SELECT '${type}', id, '${dateCode}', last_updated, last_updated + interval '1 second'
      FROM resource WHERE resource_type = '${type}'`);
  }
  await db.query(`
    INSERT INTO resource (resource_type, id, version_id, content, last_updated, project, compartments, seq)
    SELECT 'Slot', id, gen_random_uuid(), ${content('Slot', ", 'schedule', jsonb_build_object('reference', 'Schedule/s' || (n % 20)), 'start', ts::text")},
      now(), '${PROJECT}', '{}', 2000000 + n
    FROM (SELECT n, 'sl' || n AS id, timestamptz '2025-01-01' + (n || ' minutes')::interval * 30 AS ts
          FROM generate_series(1, ${SLOTS}) n) s`);
  await db.query(`INSERT INTO search_reference (resource_type, resource_id, code, target_type, target_id, reference)
    SELECT 'Slot', id, 'schedule', 'Schedule', substr(content->'schedule'->>'reference', 10), content->'schedule'->>'reference'
    FROM resource WHERE resource_type = 'Slot'`);
  await db.query(`INSERT INTO search_date (resource_type, resource_id, code, low, high)
    SELECT 'Slot', id, 'start', (content->>'start')::timestamptz, (content->>'start')::timestamptz + interval '1 second'
    FROM resource WHERE resource_type = 'Slot'`);
  for (const table of [
    'resource',
    'search_token',
    'search_string',
    'search_date',
    'search_quantity',
    'search_reference',
  ]) {
    await db.query(`ANALYZE ${table}`);
  }
}

const HOT_QUERIES = [
  'Observation?patient=p17&code=http://loinc.org|29463-7&_sort=-date&_count=20',
  'DiagnosticReport?subject=Patient/p17&_sort=-_lastUpdated',
  'Communication?subject=Patient/p17&_sort=-sent',
  'Slot?schedule=Schedule/s3&start=gt2025-01-05T00:00:00Z&start=lt2025-01-20T00:00:00Z&_count=720',
  'Patient?name=smi',
  'Observation?value-quantity=gt100',
  'Observation?patient=p17&_sort=-date&_include=Observation:patient',
  'Patient?_id=p17&_revinclude=DiagnosticReport:subject',
  'Patient?_id=p17&_revinclude=Observation:patient&_total=accurate',
];

describe.each(databases())('EXPLAIN of the hot searches on %s', (_engine, kind) => {
  let db: Database;
  const log: { sql: string; params: readonly SqlValue[] }[] = [];

  beforeAll(async () => {
    db = await kind.open();
    await fill(db);
  }, 300_000);

  afterAll(async () => {
    await db.close();
  });

  async function planOf(sql: string, params: readonly SqlValue[]): Promise<PlanNode> {
    const { rows } = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const plan = rows[0]['QUERY PLAN'];
    return ((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0].Plan;
  }

  async function largeTables(): Promise<Set<string>> {
    const { rows } = await db.query<{ relname: string }>(
      `SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples > ${LARGE_TABLE_ROWS}`,
    );
    return new Set(rows.map((row) => row.relname));
  }

  test('the check itself sees a sequential scan of a large table (a query no index serves)', async () => {
    const large = await largeTables();
    const plan = await planOf("SELECT resource_id FROM search_token WHERE text LIKE '%heart%'", []);
    expect(seqScans(plan).filter((table) => large.has(table))).toEqual(['search_token']);
  });

  const contexts: [string, RepositoryContext][] = [
    ['the server', systemContext(PROJECT)],
    [
      'a patient (access rules in the SQL)',
      {
        project: PROJECT,
        author: { reference: 'Patient/p17' },
        access: {
          superAdmin: false,
          projectAdmin: false,
          profile: { reference: 'Patient/p17' },
          membership: { reference: 'ProjectMembership/m17' },
          patientCompartment: 'Patient/p17',
          // The demo clinic's patient policy: Slot is readable project-wide.
          accessPolicy: buildPatientAccessPolicy(),
        },
      },
    ],
  ];

  test.each(contexts)(
    'every hot query uses indexes, never a Seq Scan of a large table, as %s',
    async (_who, context) => {
      const large = await largeTables();
      expect(large.has('resource')).toBe(true);
      expect(large.has('search_reference')).toBe(true);
      const repo = new Repository(recording(db, log), context);
      for (const url of HOT_QUERIES) {
        log.length = 0;
        const result = await repo.search<Resource>(parseSearchRequest(url));
        // Each query finds something (a patient: never another patient's name), so the plans are real searches'.
        const mayBeEmpty = context.access !== undefined && url.startsWith('Patient?name');
        expect({ url, found: mayBeEmpty || result.resources.length > 0 }).toEqual({ url, found: true });
        for (const { sql, params } of log.filter((entry) => /^\s*SELECT/i.test(entry.sql))) {
          const scanned = seqScans(await planOf(sql, params)).filter((table) => large.has(table));
          expect({ url, sql, scanned }).toEqual({ url, sql, scanned: [] });
        }
      }
    },
    120_000,
  );
});
