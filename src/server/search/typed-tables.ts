// Per-type tables for the app's hottest search shape, "this patient's resources with this code,
// newest first" (Observation?patient=X&code=Y&_sort=-date, the vitals charts). The
// generic tables (schema.ts) answer it by walking every resource of the patient (79 Observations in
// the 1M bench) and probing each one's code and date: about 680 buffer reads. A per-type table with
// one narrow row per resource and patient, typed columns, and the composite index (patient, date,
// id) INCLUDE (codes) gives the same page from one index range, then only the rows returned.
//
// The generic tables stay complete: these tables are a second copy of three parameters, written by
// the same statement (index-writer.ts), and a search uses one only when its filters map onto it
// exactly (typed-table-plan.ts); everything else runs the generic SQL as before.
import type { Queryable } from '../db';
import type { IndexRows } from './index-rows';

export interface TypedTable {
  resourceType: string;
  table: string;
  /** A reference parameter to the Patient: one row per distinct Patient id it names. */
  patientParam: string;
  /**
   * The reference parameter patientParam narrows to Patients (its expression is this one's with
   * `.where(resolve() is Patient)`): its references to one Patient are that Patient's rows too.
   */
  subjectParam?: string;
  /** A token parameter: its system|value pairs and bare values, as codeKeys. */
  codeParam: string;
  /**
   * The CodeableConcept element the code parameter reads (its expression is `{type}.{element}`):
   * a policy's code criteria on a row with no joined typed row test its codings in the content.
   */
  codeElement: string;
  /** A date parameter: the smallest low and the largest high, the engine's sort keys. */
  dateParam: string;
}

/**
 * A type added here needs the three parameters, and a new migration that creates and backfills its
 * table on existing databases as migration 87 does (87 will not run again where it has run).
 */
export const TYPED_TABLES: readonly TypedTable[] = [
  {
    resourceType: 'Observation',
    table: 'search_observation',
    patientParam: 'patient',
    subjectParam: 'subject',
    codeParam: 'code',
    codeElement: 'code',
    dateParam: 'date',
  },
];

export function typedTableOf(resourceType: string): TypedTable | undefined {
  return TYPED_TABLES.find((spec) => spec.resourceType === resourceType);
}

/**
 * The keys a token is found by in the `codes` column: `{length}:{system}{value}` for system|value
 * (the length keeps 'a|b' + 'c' apart from 'a' + 'b|c') and `:{value}` for a bare value, matching
 * tokenCondition's forms. Lengths count code points, as PostgreSQL's char_length does (backfillSql).
 */
export function systemCodeKey(system: string, value: string): string {
  return `${[...system].length}:${system}${value}`;
}

export function bareCodeKey(value: string): string {
  return `:${value}`;
}

export interface TypedRow {
  patient_id: string;
  codes: string[];
  date_low: string | null;
  date_high: string | null;
}

/** A date row's bound as a number: ISO instants, or '±infinity' for an open Period (date-range.ts). */
function instant(bound: string): number {
  if (bound === 'infinity') return Infinity;
  if (bound === '-infinity') return -Infinity;
  return Date.parse(bound);
}

/** A resource's rows in its type's table, from the rows it has in the generic tables. */
export function typedRowsOf(spec: TypedTable, rows: IndexRows): TypedRow[] {
  const patients = new Set<string>();
  for (const row of rows.reference) {
    if (row.code === spec.patientParam && row.targetType === 'Patient' && row.targetId) {
      patients.add(row.targetId);
    }
  }
  if (patients.size === 0) return [];
  const codes = new Set<string>();
  for (const row of rows.token) {
    if (row.code !== spec.codeParam || row.value === null) continue;
    codes.add(bareCodeKey(row.value));
    if (row.system !== null) codes.add(systemCodeKey(row.system, row.value));
  }
  let low: string | null = null;
  let high: string | null = null;
  for (const row of rows.date) {
    if (row.code !== spec.dateParam) continue;
    if (low === null || instant(row.low) < instant(low)) low = row.low;
    if (high === null || instant(row.high) > instant(high)) high = row.high;
  }
  return [...patients].map((patient) => ({
    patient_id: patient,
    codes: [...codes],
    date_low: low,
    date_high: high,
  }));
}

/** The table and its index: ordered by date both ways within a patient, codes carried along. */
export async function createTypedTable(tx: Queryable, spec: TypedTable): Promise<void> {
  await tx.query(
    `CREATE TABLE ${spec.table} (resource_id text NOT NULL, patient_id text NOT NULL, codes text[] NOT NULL,
       date_low timestamptz, date_high timestamptz)`,
  );
  await tx.query(`CREATE INDEX ${spec.table}_resource_idx ON ${spec.table} (resource_id)`);
  await tx.query(
    `CREATE INDEX ${spec.table}_patient_date_idx ON ${spec.table}
       (patient_id, date_high DESC NULLS LAST, resource_id) INCLUDE (codes, date_low)`,
  );
}

/**
 * Fills the table from the generic index tables (the same rows typedRowsOf derives), for a
 * database whose resources were indexed before the table existed.
 */
export async function backfillTypedTable(tx: Queryable, spec: TypedTable): Promise<void> {
  await tx.query(
    `INSERT INTO ${spec.table} (resource_id, patient_id, codes, date_low, date_high)
     SELECT p.resource_id, p.target_id,
       ARRAY(SELECT DISTINCT k FROM search_token t,
               LATERAL (VALUES (':' || t.value),
                               (char_length(t.system)::text || ':' || t.system || t.value)) AS keys(k)
             WHERE t.resource_id = p.resource_id AND t.resource_type = $1 AND t.code = $3
               AND t.value IS NOT NULL AND k IS NOT NULL),
       (SELECT min(d.low) FROM search_date d
         WHERE d.resource_id = p.resource_id AND d.resource_type = $1 AND d.code = $4),
       (SELECT max(d.high) FROM search_date d
         WHERE d.resource_id = p.resource_id AND d.resource_type = $1 AND d.code = $4)
     FROM (SELECT DISTINCT resource_id, target_id FROM search_reference
           WHERE resource_type = $1 AND code = $2 AND target_type = 'Patient' AND target_id IS NOT NULL) p`,
    [spec.resourceType, spec.patientParam, spec.codeParam, spec.dateParam],
  );
}
