// The app's hot searches must use indexes, every one of them: a large table is filled in bulk, ANALYZEd, and
// every SQL statement a search runs is EXPLAINed; a sequential scan of a large table fails the test. Runs on
// each engine (the planner is PostgreSQL's in both).
import type { AccessPolicy, Resource } from '@medplum/fhirtypes';
import { parseSearchRequest } from '../../../src/fhir/search';
import { combinePolicies } from '../../../src/server/access/policy';
import type { Database, Queryable, SqlValue } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import type { RepositoryContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { bulkFill } from './bulk-fill';
import { patientContext } from './search-support';
import type { BulkSizes } from './bulk-fill';

const SIZES: BulkSizes = {
  patients: 2_000,
  observationsPerPatient: 40,
  slots: 20_000,
  project: 'explain-project',
};
const PROJECT = SIZES.project;
/** A table with more rows than this must never be read by a sequential scan. */
const LARGE_TABLE_ROWS = 5_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function indexesUsed(plan: PlanNode, out: string[] = []): string[] {
  if (plan['Index Name']) out.push(plan['Index Name']);
  for (const child of plan.Plans ?? []) indexesUsed(child, out);
  return out;
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

const HOT_QUERIES = [
  'Observation?patient=p17&code=http://loinc.org|29463-7&_sort=-date&_count=20',
  // The patient app's vitals query names the Patient in subject.
  'Observation?subject=Patient/p17&code=http://loinc.org|29463-7&_sort=-date&_count=20',
  'DiagnosticReport?subject=Patient/p17&_sort=-_lastUpdated',
  'Communication?subject=Patient/p17&_sort=-sent',
  'Slot?schedule=Schedule/s3&start=gt2025-01-05T00:00:00Z&start=lt2025-01-20T00:00:00Z&_count=720',
  'Patient?name=smi',
  'Observation?value-quantity=gt100',
  'Observation?patient=p17&_sort=-date&_include=Observation:patient',
  'Patient?_id=p17&_revinclude=DiagnosticReport:subject',
  'Patient?_id=p17&_revinclude=Observation:patient&_total=accurate',
];

/** A practitioner granted Observations of two codes, his ward's Patients, and the other types whole. */
function criteriaPractitioner(): RepositoryContext {
  const profile = { reference: 'Practitioner/criteria' };
  const policy: AccessPolicy = {
    resourceType: 'AccessPolicy',
    resource: [
      { resourceType: 'Observation', criteria: 'Observation?code=http://loinc.org|29463-7' },
      { resourceType: 'Observation', criteria: 'Observation?code=http://loinc.org|8867-4' },
      { resourceType: 'Patient', criteria: 'Patient?_compartment=%ward' },
      { resourceType: 'DiagnosticReport' },
      { resourceType: 'Communication' },
      { resourceType: 'Slot' },
    ],
  };
  const parameter = [{ name: 'ward', valueReference: { reference: 'Patient/p17' } }];
  return {
    project: PROJECT,
    author: profile,
    access: {
      superAdmin: false,
      projectAdmin: false,
      profile,
      membership: { reference: 'ProjectMembership/criteria' },
      policy: combinePolicies([{ policy, parameter }], profile),
    },
  };
}

describe.each(databases())('EXPLAIN of the hot searches on %s', (_engine, kind) => {
  let db: Database;
  const log: { sql: string; params: readonly SqlValue[] }[] = [];

  beforeAll(async () => {
    db = await kind.open();
    await bulkFill(db, SIZES);
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

  test.each([
    ['patient', HOT_QUERIES[0]],
    ['subject', HOT_QUERIES[1]],
  ])(
    "the vitals query by %s reads one range of the per-type table's (patient, date) index",
    async (_by, url) => {
      log.length = 0;
      const repo = new Repository(recording(db, log), systemContext(PROJECT));
      const result = await repo.search<Resource>(parseSearchRequest(url));
      expect(result.resources.length).toBeGreaterThan(0);
      const [search] = log.filter((entry) => /^\s*SELECT/i.test(entry.sql));
      const used = indexesUsed(await planOf(search.sql, search.params));
      expect(used).toContain('search_observation_patient_date_idx');
      // No probe of the generic reference, token and date tables per candidate: the table carries
      // the patient, code and date.
      expect(used.filter((name) => /^search_(reference|token|date)_/.test(name))).toEqual([]);
    },
  );

  const contexts: [string, RepositoryContext][] = [
    ['the server', systemContext(PROJECT)],
    // The demo clinic's patient policy: Slot is readable project-wide.
    ['a patient (access rules in the SQL)', patientContext(PROJECT, 'p17')],
    // A practitioner whose policy has criteria (two token entries OR-ed, a compartment).
    ['a criteria-restricted practitioner (policy criteria in the SQL)', criteriaPractitioner()],
  ];

  test.each(contexts)(
    'every hot query uses indexes, never a Seq Scan of a large table, as %s',
    async (_who, context) => {
      const large = await largeTables();
      expect(large.has('resource')).toBe(true);
      expect(large.has('search_reference')).toBe(true);
      expect(large.has('search_observation')).toBe(true);
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
