// Migration 20: the per-user key-value store behind keyvalue/v1/{key}.
import type { Migration } from '../db';

export const keyValueMigration: Migration = {
  version: 20,
  name: 'key-value store per user',
  async up(tx) {
    // owner is 'User/<id>' or 'ClientApplication/<id>': values belong to a person (or client), not
    // to a project membership, as in Medplum.
    await tx.query(`
      CREATE TABLE key_value (
        owner text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (owner, key)
      )`);
  },
};

/** The characters Medplum's key-value API allows in a key (store.ts checks the same). */
const REFUSED_KEY_CHARACTER = `'[^A-Za-z0-9_-]'`;
const VALID_KEY = `'^[A-Za-z0-9_-]{1,255}$'`;
/** The key a stored key becomes: each refused character replaced by '-', cut at 255 characters. */
const RENAMED_KEY = `left(regexp_replace(key, ${REFUSED_KEY_CHARACTER}, '-', 'g'), 255)`;

/**
 * Migration 22: keys now follow Medplum's rule, so values stored earlier
 * under a key it refuses (the app's 'bloom.share-context', 'bloom.search-table.<Type>') could no
 * longer be read. Each such key is renamed as the app now names it ('.' and every other refused
 * character becomes '-'), so users keep their preferences; where two keys of one owner meet on one
 * name, the most recently written value stays.
 */
export const keyValueMedplumKeysMigration: Migration = {
  version: 22,
  name: "key-value keys renamed to Medplum's key rule",
  async up(tx) {
    await tx.query(`
      DELETE FROM key_value AS k
      USING (
        SELECT owner, key,
               row_number() OVER (
                 PARTITION BY owner, ${RENAMED_KEY}
                 ORDER BY updated_at DESC, (key ~ ${VALID_KEY}) DESC, key
               ) AS rank
        FROM key_value
      ) AS ranked
      WHERE k.owner = ranked.owner AND k.key = ranked.key AND ranked.rank > 1`);
    await tx.query(`UPDATE key_value SET key = ${RENAMED_KEY} WHERE key !~ ${VALID_KEY}`);
  },
};

/** The key-value store's migrations, collected by src/server/migrations.ts. */
export const keyValueMigrations: readonly Migration[] = [keyValueMigration, keyValueMedplumKeysMigration];
