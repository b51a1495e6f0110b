// The search module's tables: the typed index tables (migration 10), the full-text index
// (migration 16, text-migration.ts) and the per-type tables (migration 87, typed-table-migration.ts).
import type { Migration } from '../db';
import { reindexAll } from './reindex';
import { createSearchTables } from './schema';
import { textSearchMigration } from './text-migration';
import { typedTableMigration } from './typed-table-migration';

export const searchIndexMigration: Migration = {
  version: 10,
  name: 'search index tables',
  async up(tx) {
    // Typed index tables (src/server/search/schema.ts explains the layout), filled
    // from the resources already stored.
    await createSearchTables(tx);
    await reindexAll(tx);
  },
};

/** The search module's migrations, collected by src/server/migrations.ts. */
export const searchMigrations: readonly Migration[] = [
  searchIndexMigration,
  textSearchMigration,
  typedTableMigration,
];
