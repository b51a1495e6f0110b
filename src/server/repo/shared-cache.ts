// The read cache on PostgreSQL, where several server instances write to the same data: a server
// keeps one only while it hears every committed write, of every instance, through the notification
// each new version sends (live/migrations.ts). The cache is put in place once LISTEN works, each
// notified write drops its key, a lost connection drops the whole cache until LISTEN is back (the
// notifications sent meanwhile are lost), and stopping takes it away. PGlite needs none of this:
// one process owns its data and the Repository invalidates as it writes.
import type { Database } from '../db';
import { LIVE_CHANNEL_PREFIX } from '../live/migrations';
import { ResourceCache, setSharedResourceCache } from './resource-cache';

/** `seq|type|id|w-or-d` (the trigger's payload): the cache key it names, or undefined. */
export function notifiedKey(payload: string): string | undefined {
  const [, resourceType, id] = payload.split('|');
  return resourceType && id ? `${resourceType}/${id}` : undefined;
}

/**
 * Starts the shared read cache of a PostgreSQL database; resolves to the function that stops it.
 * Does nothing on PGlite or on a database without LISTEN.
 */
export async function shareResourceCache(db: Database): Promise<() => Promise<void>> {
  if (db.engine !== 'postgres' || !db.listen) {
    return async () => undefined;
  }
  let cache: ResourceCache | undefined;
  const drop = (): void => {
    cache?.close();
    cache = undefined;
    setSharedResourceCache(db, undefined);
  };
  const start = (): void => {
    drop();
    cache = new ResourceCache();
    setSharedResourceCache(db, cache);
  };
  const { rows } = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
  const stopListening = await db.listen(
    LIVE_CHANNEL_PREFIX + rows[0].schema,
    (payload) => {
      const key = notifiedKey(payload);
      if (key) {
        cache?.invalidate(key);
      } else {
        cache?.clear();
      }
    },
    start,
    drop,
  );
  start();
  return async () => {
    drop();
    await stopListening();
  };
}
