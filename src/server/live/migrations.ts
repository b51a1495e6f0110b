// Migration 40: every committed write announces itself. A trigger on resource_history
// (one row per create, update or delete) sends NOTIFY with the version's seq, type, id and whether
// it is a delete. PostgreSQL delivers a NOTIFY only when its transaction commits, so listeners never
// hear of a rolled-back write, and every instance listening on the database hears every write.
// The channel carries the schema name, so databases sharing one server (test schemas) stay apart.
import type { Migration } from '../db';

export const LIVE_CHANNEL_PREFIX = 'bloom_live_';

export const liveNotifyMigration: Migration = {
  version: 40,
  name: 'live write notifications',
  async up(tx) {
    await tx.query(`
      CREATE FUNCTION bloom_live_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(
          '${LIVE_CHANNEL_PREFIX}' || current_schema(),
          NEW.seq::text || '|' || NEW.resource_type || '|' || NEW.id || '|' || CASE WHEN NEW.deleted THEN 'd' ELSE 'w' END);
        RETURN NULL;
      END $$`);
    await tx.query(`
      CREATE TRIGGER resource_history_live_notify AFTER INSERT ON resource_history
      FOR EACH ROW EXECUTE FUNCTION bloom_live_notify()`);
  },
};

/** Live updates' migrations, collected by src/server/migrations.ts. */
export const liveMigrations: readonly Migration[] = [liveNotifyMigration];
