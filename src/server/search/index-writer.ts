// Writes resources' index rows in the same statement (or transaction) as the resources themselves:
// data-modifying CTEs appended to the Repository's INSERT, so a write stays one round trip and the
// index can never disagree with the stored version. Many resources share one statement (one
// DELETE and one INSERT per index table), which is what makes a transaction Bundle load fast.
import type { Queryable, SqlValue } from '../db';
import type { IndexRows } from './index-rows';
import { INDEX_KINDS, INDEX_TABLES } from './schema';
import { TYPED_TABLES, typedRowsOf } from './typed-tables';
import type { TypedTable } from './typed-tables';

export interface IndexWriteSql {
  /** `name AS (…)` fragments to put after the statement's other CTEs. */
  ctes: string[];
  params: SqlValue[];
}

export interface ResourceKey {
  resourceType: string;
  id: string;
}

export interface IndexedResource extends ResourceKey {
  rows: IndexRows;
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The index rows of one kind for every resource, as a JSON array of records with the owner in each. */
function records(resources: readonly IndexedResource[], kind: keyof IndexRows): string | undefined {
  const out: Record<string, unknown>[] = [];
  for (const { resourceType, id, rows } of resources) {
    for (const row of rows[kind] as readonly object[]) {
      const record: Record<string, unknown> = { resource_type: resourceType, resource_id: id };
      for (const [key, value] of Object.entries(row)) {
        record[snakeCase(key)] = value;
      }
      out.push(record);
    }
  }
  return out.length > 0 ? JSON.stringify(out) : undefined;
}

/**
 * CTEs that delete the index rows of `replaced` (resources that had a previous version) and insert
 * those of `resources`. Both lists may be empty. Parameters are numbered from `firstParam`.
 * The deletes cannot remove the rows inserted alongside: CTEs all see the statement's snapshot.
 */
export function indexWriteCtes(
  resources: readonly IndexedResource[],
  replaced: readonly ResourceKey[],
  firstParam: number,
): IndexWriteSql {
  const ctes: string[] = [];
  const params: SqlValue[] = [];
  if (replaced.length > 0) {
    params.push(
      replaced.map((key) => key.id),
      replaced.map((key) => `${key.resourceType}/${key.id}`),
    );
    ctes.push(...deleteCtes(`$${firstParam}::text[]`, `$${firstParam + 1}::text[]`));
  }
  for (const kind of INDEX_KINDS) {
    const json = records(resources, kind);
    if (json === undefined) {
      continue;
    }
    params.push(json);
    const spec = INDEX_TABLES[kind];
    const names = ['resource_type', 'resource_id', 'code', ...spec.columns.map(([name]) => name)];
    const definition = [['resource_type', 'text'], ['resource_id', 'text'], ['code', 'text'], ...spec.columns]
      .map(([name, type]) => `${name} ${type}`)
      .join(', ');
    ctes.push(
      `ins_${kind} AS (INSERT INTO ${spec.table} (${names.join(', ')})
        SELECT ${names.map((n) => `x.${n}`).join(', ')}
        FROM jsonb_to_recordset($${firstParam + params.length - 1}::jsonb) AS x(${definition}))`,
    );
  }
  for (const spec of TYPED_TABLES) {
    const json = typedRecords(resources, spec);
    if (json === undefined) {
      continue;
    }
    params.push(json);
    ctes.push(
      `ins_${spec.table} AS (INSERT INTO ${spec.table} (resource_id, patient_id, codes, date_low, date_high)
        SELECT x.resource_id, x.patient_id, x.codes, x.date_low, x.date_high
        FROM jsonb_to_recordset($${firstParam + params.length - 1}::jsonb)
          AS x(resource_id text, patient_id text, codes text[], date_low timestamptz, date_high timestamptz))`,
    );
  }
  return { ctes, params };
}

/** The per-type table rows (typed-tables.ts) of the resources of its type, as a JSON array. */
function typedRecords(resources: readonly IndexedResource[], spec: TypedTable): string | undefined {
  const out: Record<string, unknown>[] = [];
  for (const { resourceType, id, rows } of resources) {
    if (resourceType !== spec.resourceType) continue;
    for (const row of typedRowsOf(spec, rows)) {
      out.push({ resource_id: id, ...row });
    }
  }
  return out.length > 0 ? JSON.stringify(out) : undefined;
}

// By id through the (resource_id, …) index, then by type: a join against the key list could be
// planned as a hash join over the whole table.
function deleteCtes(idsParam: string, keysParam: string): string[] {
  return [
    ...INDEX_KINDS.map(
      (kind) =>
        `del_${kind} AS (DELETE FROM ${INDEX_TABLES[kind].table}
        WHERE resource_id = ANY(${idsParam}) AND resource_type || '/' || resource_id = ANY(${keysParam}))`,
    ),
    ...TYPED_TABLES.map(
      (spec) =>
        `del_${spec.table} AS (DELETE FROM ${spec.table}
        WHERE resource_id = ANY(${idsParam}) AND '${spec.resourceType}/' || resource_id = ANY(${keysParam}))`,
    ),
  ];
}

/** Removes every index row of one resource (a delete: deleted resources match no search). */
export async function deleteIndexRows(tx: Queryable, resourceType: string, id: string): Promise<void> {
  await tx.query(`WITH ${deleteCtes('$1::text[]', '$2::text[]').join(', ')} SELECT 1`, [
    [id],
    [`${resourceType}/${id}`],
  ]);
}
