// Rebuilds the search index rows of stored resources from their current content: run after the
// search parameter definitions change (npm run reindex), and by migrations 10 and 16 (the text
// index) for existing data.
import type { Resource } from '@medplum/fhirtypes';
import type { Database, Queryable } from '../db';
import type { IndexRows } from './index-rows';
import { indexWriteCtes } from './index-writer';
import type { IndexedResource, ResourceKey } from './index-writer';
import { indexedResources } from './stored-index-rows';

export interface ReindexOptions {
  /** Only these types (default: all). */
  resourceTypes?: readonly string[];
  /** Resources per transaction (default 500). */
  batchSize?: number;
  onProgress?: (done: number) => void;
  /** Writes these rows instead of replacing all of a resource's rows (a new index kind's backfill). */
  addRows?: (resource: Resource) => IndexRows;
}

/** Inserts index rows in one statement, after deleting every index row of `replaced`. */
async function writeIndexRows(
  tx: Queryable,
  indexed: readonly IndexedResource[],
  replaced: readonly ResourceKey[],
): Promise<void> {
  const index = indexWriteCtes(indexed, replaced, 1);
  if (index.ctes.length > 0) {
    await tx.query(`WITH ${index.ctes.join(', ')} SELECT 1`, index.params);
  }
}

/** Replaces the index rows of some resources in one statement. */
export async function reindexResources(tx: Queryable, resources: readonly Resource[]): Promise<void> {
  const indexed = indexedResources(resources);
  await writeIndexRows(tx, indexed, indexed);
}

interface Row {
  resource_type: string;
  id: string;
  content: Resource;
}

async function nextBatch(
  q: Queryable,
  after: [string, string],
  types: readonly string[] | undefined,
  limit: number,
): Promise<Row[]> {
  const typeFilter = types ? 'AND resource_type = ANY($4::text[])' : '';
  const { rows } = await q.query<Row>(
    `SELECT resource_type, id, content FROM resource
     WHERE NOT deleted AND (resource_type, id) > ($1, $2) ${typeFilter}
     ORDER BY resource_type, id LIMIT $3`,
    types ? [after[0], after[1], limit, types] : [after[0], after[1], limit],
  );
  return rows;
}

/**
 * Reindexes every live resource (or those of some types), in keyset-paged batches. Given a
 * Database, each batch is its own transaction; given an open transaction, all of it runs inside.
 */
export async function reindexAll(
  target: Database | Queryable,
  options: ReindexOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  let after: [string, string] = ['', ''];
  let done = 0;
  for (;;) {
    const rows = await nextBatch(target, after, options.resourceTypes, batchSize);
    if (rows.length === 0) {
      return done;
    }
    const resources = rows.map((row) => row.content);
    const { addRows } = options;
    const work = (tx: Queryable) =>
      addRows
        ? writeIndexRows(
            tx,
            resources.map((r) => ({ resourceType: r.resourceType, id: r.id as string, rows: addRows(r) })),
            [],
          )
        : reindexResources(tx, resources);
    await ('transaction' in target ? target.transaction(work) : work(target));
    done += rows.length;
    options.onProgress?.(done);
    const last = rows[rows.length - 1];
    after = [last.resource_type, last.id];
  }
}
