// Migration 87: the per-type tables of typed-tables.ts, filled from the generic index
// tables of the resources already stored. A database whose migration 10 ran after a table existed
// has it (and its rows) already.
import type { Migration } from '../db/migrations';
import { backfillTypedTable, createTypedTable, TYPED_TABLES } from './typed-tables';

export const typedTableMigration: Migration = {
  version: 87,
  name: 'per-type search tables (patient, code, date)',
  async up(tx) {
    for (const spec of TYPED_TABLES) {
      const { rows } = await tx.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
        spec.table,
      ]);
      if (rows[0]?.found) continue;
      await createTypedTable(tx, spec);
      await backfillTypedTable(tx, spec);
      // Statistics now, so the first searches are planned on the filled table.
      await tx.query(`ANALYZE ${spec.table}`);
    }
  },
};
