// Migration 16: the search_text table of _text and _content, filled from the stored
// resources. A database whose migration 10 ran after this table existed has it already.
import type { Migration } from '../db/migrations';
import { emptyIndexRows } from './index-rows';
import { reindexAll } from './reindex';
import { createIndexTable } from './schema';
import { textRowsOf } from './text-index';

export const textSearchMigration: Migration = {
  version: 16,
  name: 'full-text search index (_text, _content)',
  async up(tx) {
    const { rows } = await tx.query<{ found: string | null }>(
      "SELECT to_regclass('search_text')::text AS found",
    );
    if (rows[0]?.found) {
      return;
    }
    await createIndexTable(tx, 'text');
    await reindexAll(tx, { addRows: (resource) => ({ ...emptyIndexRows(), text: textRowsOf(resource) }) });
  },
};
