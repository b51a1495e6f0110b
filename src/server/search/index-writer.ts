// Writes a resource's index rows in the same statement (or transaction) as the resource itself:
// data-modifying CTEs appended to the Repository's INSERT, so a create, update or patch stays one
// round trip and the index can never disagree with the stored version.
import type { Queryable, SqlValue } from '../db';
import type { IndexRows } from './index-rows';
import { INDEX_KINDS, INDEX_TABLES } from './schema';
import type { IndexKind } from './schema';

export interface IndexWriteSql {
  /** `name AS (…)` fragments to put after the statement's other CTEs. */
  ctes: string[];
  params: SqlValue[];
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function records(rows: readonly object[]): string {
  return JSON.stringify(
    rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [snakeCase(key), value]))),
  );
}

/**
 * CTEs replacing the index rows of resource ($typeParam, $idParam) with `rows`. `replace` false
 * (a brand-new resource) skips the deletes. Parameters are numbered from `firstParam`.
 */
export function indexWriteCtes(
  rows: IndexRows,
  typeParam: string,
  idParam: string,
  firstParam: number,
  replace: boolean,
): IndexWriteSql {
  const ctes: string[] = [];
  const params: SqlValue[] = [];
  for (const kind of INDEX_KINDS) {
    const spec = INDEX_TABLES[kind];
    if (replace) {
      ctes.push(
        `del_${kind} AS (DELETE FROM ${spec.table} WHERE resource_id = ${idParam} AND resource_type = ${typeParam})`,
      );
    }
    const list = rows[kind] as readonly object[];
    if (list.length === 0) {
      continue;
    }
    params.push(records(list));
    const names = ['code', ...spec.columns.map(([name]) => name)];
    const definition = [['code', 'text'], ...spec.columns]
      .map(([name, type]) => `${name} ${type}`)
      .join(', ');
    ctes.push(
      `ins_${kind} AS (INSERT INTO ${spec.table} (resource_type, resource_id, ${names.join(', ')})
        SELECT ${typeParam}, ${idParam}, ${names.map((n) => `x.${n}`).join(', ')}
        FROM jsonb_to_recordset($${firstParam + params.length - 1}::jsonb) AS x(${definition}))`,
    );
  }
  return { ctes, params };
}

/** Removes every index row of one resource (a delete: deleted resources match no search). */
export async function deleteIndexRows(tx: Queryable, resourceType: string, id: string): Promise<void> {
  const ctes = INDEX_KINDS.map(
    (kind: IndexKind) =>
      `del_${kind} AS (DELETE FROM ${INDEX_TABLES[kind].table} WHERE resource_id = $2 AND resource_type = $1)`,
  );
  await tx.query(`WITH ${ctes.join(', ')} SELECT 1`, [resourceType, id]);
}
