// The search index's storage. Design, and why:
//
// One narrow table per search parameter TYPE (token, string, date, number, quantity, reference,
// uri, composite), shared by all resource types, each row (resource_type, resource_id, code,
// typed value columns) — the layout of HAPI's HFJ_SPIDX_* tables, with Medplum's lookup-table idea
// for names and identifiers (every HumanName/Address part is a folded string row). Chosen over
// per-resource-type tables with one column per parameter (Medplum's layout) because:
//  - the definitions hold ~2,900 parameters over ~150 types; per-type tables need DDL on every
//    definition change, while here a definition change is only a reindex (scripts/reindex.ts);
//  - every hot query of the app starts from one selective condition (a patient, a schedule, a
//    name prefix) that a btree (resource_type, code, value…) answers in a few pages; the other
//    conditions and the sort key are probed per candidate through the (resource_id) index, which
//    stays cheap because a patient has hundreds, not millions, of rows;
//  - the same SQL runs on PGlite and PostgreSQL with plain btrees (no GIN opclass or extension
//    that PGlite lacks); only _text/_content use GIN, over built-in full-text search, which both have.
// Values are typed (timestamptz ranges [low, high), numeric, folded text) so prefixes compare in
// SQL and use the indexes. _id and _lastUpdated are the resource table's own columns.
// The exception, measured: "a patient's Observations with a code, newest first" probes every one
// of the patient's Observations (79 in the 1M bench) for its code and date; a per-type table with
// those columns and a composite index answers it in one index range, 4× faster (typed-tables.ts).
import type { Queryable } from '../db';
import type { IndexRows } from './index-rows';
import { createTypedTable, TYPED_TABLES } from './typed-tables';

/** The text search configuration of _text and _content: English stemming over folded text. */
export const TEXT_SEARCH_CONFIG = 'english';

export type IndexKind = keyof IndexRows;

interface TableSpec {
  table: string;
  /** Typed value columns after (resource_type, resource_id, code). */
  columns: [name: string, sqlType: string][];
  /** Indexes over (resource_type, code, …) for finding resources by value. */
  valueIndexes: string[];
}

export const INDEX_TABLES: Record<IndexKind, TableSpec> = {
  token: {
    table: 'search_token',
    columns: [
      ['system', 'text'],
      ['value', 'text'],
      ['text', 'text'],
    ],
    valueIndexes: ['(resource_type, code, value, system, resource_id)'],
  },
  string: {
    table: 'search_string',
    columns: [
      ['value', 'text'],
      ['exact', 'text'],
    ],
    valueIndexes: ['(resource_type, code, value text_pattern_ops, resource_id)'],
  },
  date: {
    table: 'search_date',
    columns: [
      ['low', 'timestamptz'],
      ['high', 'timestamptz'],
    ],
    valueIndexes: ['(resource_type, code, low, high)', '(resource_type, code, high)'],
  },
  number: {
    table: 'search_number',
    columns: [['value', 'numeric']],
    valueIndexes: ['(resource_type, code, value)'],
  },
  quantity: {
    table: 'search_quantity',
    columns: [
      ['value', 'numeric'],
      ['system', 'text'],
      ['unit', 'text'],
      ['unit_text', 'text'],
    ],
    valueIndexes: ['(resource_type, code, value)'],
  },
  reference: {
    table: 'search_reference',
    columns: [
      ['target_type', 'text'],
      ['target_id', 'text'],
      ['reference', 'text'],
    ],
    valueIndexes: [
      '(resource_type, code, target_id, target_type, resource_id)',
      '(resource_type, code, reference)',
    ],
  },
  uri: {
    table: 'search_uri',
    columns: [['value', 'text']],
    valueIndexes: ['(resource_type, code, value text_pattern_ops)'],
  },
  composite: {
    table: 'search_composite',
    columns: [
      ['system1', 'text'],
      ['value1', 'text'],
      ['system2', 'text'],
      ['value2', 'text'],
      ['number2', 'numeric'],
      ['low2', 'timestamptz'],
      ['high2', 'timestamptz'],
    ],
    valueIndexes: ['(resource_type, code, value1)'],
  },
  // _text / _content (migration 16): folded text; the GIN index is over its tsvector (text-index.ts).
  text: {
    table: 'search_text',
    columns: [['value', 'text']],
    valueIndexes: [`USING gin (to_tsvector('${TEXT_SEARCH_CONFIG}', value))`],
  },
};

export const INDEX_KINDS = Object.keys(INDEX_TABLES) as IndexKind[];

/**
 * Migration 10: the index tables (every kind known today, and the per-type tables of
 * typed-tables.ts: on a database older than a later table's migration, that migration finds its
 * table made already), their indexes, and the _lastUpdated index.
 */
export async function createSearchTables(tx: Queryable): Promise<void> {
  for (const kind of INDEX_KINDS) {
    await createIndexTable(tx, kind);
  }
  for (const spec of TYPED_TABLES) {
    await createTypedTable(tx, spec);
  }
  // Sorting by _lastUpdated within a type, and the revinclude/include fan-out by target.
  await tx.query(
    'CREATE INDEX resource_last_updated_idx ON resource (resource_type, last_updated) WHERE NOT deleted',
  );
}

/** One index table with its per-resource index and value indexes (later migrations add kinds). */
export async function createIndexTable(tx: Queryable, kind: IndexKind): Promise<void> {
  const spec = INDEX_TABLES[kind];
  const columns = spec.columns.map(([name, type]) => `${name} ${type}`).join(', ');
  await tx.query(
    `CREATE TABLE ${spec.table} (resource_type text NOT NULL, resource_id text NOT NULL, code text NOT NULL, ${columns})`,
  );
  await tx.query(
    `CREATE INDEX ${spec.table}_resource_idx ON ${spec.table} (resource_id, resource_type, code)`,
  );
  for (const [i, definition] of spec.valueIndexes.entries()) {
    await tx.query(`CREATE INDEX ${spec.table}_value${i}_idx ON ${spec.table} ${definition}`);
  }
}
