// Bulk search data for the EXPLAIN test and measurements: Patients, Observations of
// vitals and labs per patient, DiagnosticReports, Communications and Slots, written straight into
// the resource and index tables in SQL (generate_series), shaped as the index writer writes them.
import type { Database } from '../../../src/server/db';
import { backfillTypedTable, TYPED_TABLES } from '../../../src/server/search/typed-tables';

export interface BulkSizes {
  patients: number;
  observationsPerPatient: number;
  slots: number;
  project: string;
}

/** Bulk rows shaped as the index writer writes them, generated in SQL for speed. */
export async function bulkFill(db: Database, sizes: BulkSizes): Promise<void> {
  const PATIENTS = sizes.patients;
  const OBSERVATIONS_PER_PATIENT = sizes.observationsPerPatient;
  const SLOTS = sizes.slots;
  const PROJECT = sizes.project;
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
    SELECT 'Observation', id, gen_random_uuid(), ${content('Observation', ", 'subject', jsonb_build_object('reference', 'Patient/p' || p), 'code', jsonb_build_object('coding', jsonb_build_array(jsonb_build_object('system', 'http://loinc.org', 'code', (ARRAY['8867-4','29463-7','85354-9','8310-5','2339-0'])[1 + (100000 + n) % 5])))")},
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
  // The per-type tables are filled from the generic rows, as migration 87 fills them.
  for (const spec of TYPED_TABLES) {
    await backfillTypedTable(db, spec);
  }
  for (const table of [
    ...TYPED_TABLES.map((spec) => spec.table),
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
