// Where the search benchmark keeps its clinic: a PGlite directory under the OS temp folder, or a
// PostgreSQL schema of TEST_DATABASE_URL, named by size so a loaded clinic is reused across runs
// (SEARCH_BENCH_RELOAD=1 starts afresh).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/server/db';
import { openPGlite, openPostgres } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';

export type BenchEngine = 'pglite' | 'postgres';

export interface BenchDatabaseLocation {
  engine: BenchEngine;
  /** PGlite: the data directory. */
  dataDir?: string;
  /** PostgreSQL: connection string and schema. */
  connectionString?: string;
  schema?: string;
}

export function benchLocation(engine: BenchEngine, total: number): BenchDatabaseLocation {
  if (engine === 'pglite') {
    return { engine, dataDir: path.join(os.tmpdir(), `bloom-search-bench-${total}`) };
  }
  const connectionString = process.env.TEST_DATABASE_URL;
  if (!connectionString) {
    throw new Error('The PostgreSQL search benchmark needs TEST_DATABASE_URL');
  }
  return { engine, connectionString, schema: `bench_search_${total}` };
}

/** The application_name of the HTTP bench server's connections, so its backends can be told apart. */
export const BENCH_SERVER_APPLICATION = 'bloom-search-bench-server';

export async function openBenchDatabase(
  location: BenchDatabaseLocation,
  options: { applicationName?: string } = {},
): Promise<Database> {
  const connectionString = new URL(location.connectionString ?? 'postgres://unused');
  if (options.applicationName) {
    connectionString.searchParams.set('application_name', options.applicationName);
  }
  const db =
    location.engine === 'pglite'
      ? await openPGlite({ dataDir: location.dataDir })
      : await openPostgres({
          connectionString: connectionString.toString(),
          schema: location.schema,
          maxConnections: 8,
        });
  await migrateServer(db);
  return db;
}

/** Drops what a previous run loaded at this location. */
export async function resetBenchDatabase(location: BenchDatabaseLocation): Promise<void> {
  if (location.engine === 'pglite') {
    fs.rmSync(location.dataDir as string, { recursive: true, force: true });
    return;
  }
  const client = new pg.Client({ connectionString: location.connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${location.schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** How many live resources the location holds (0 when it was never loaded). */
export async function countResources(db: Database): Promise<number> {
  const result = await db.query<{ n: string }>('SELECT count(*) AS n FROM resource WHERE NOT deleted');
  return Number(result.rows[0].n);
}

export interface CacheState {
  /** PostgreSQL's own buffer cache (SHOW shared_buffers); absent on PGlite. */
  sharedBuffers?: string;
  /** Relations read into the caches before timing (pg_prewarm), 0 when it is not installed. */
  prewarmed: number;
}

/**
 * A server in steady use has its search tables and indexes in memory; right after a load, or on
 * a fresh boot, most of them are on disk, and random patients would time the disk, not the
 * engine. Reads them once with pg_prewarm (a contrib extension that ships with PostgreSQL) into
 * PostgreSQL's buffers and the OS cache. History and the full-text index are left out: no hot
 * search reads them. Engine and floor queries are timed after it alike.
 */
export async function warmCaches(db: Database): Promise<CacheState> {
  if (db.engine !== 'postgres') {
    return { prewarmed: 0 };
  }
  const sharedBuffers = (await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]
    .shared_buffers;
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  } catch {
    return { sharedBuffers, prewarmed: 0 };
  }
  // The extension may live in another schema than the bench's (search_path holds only that one).
  const { rows: ext } = await db.query<{ schema: string }>(
    "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_prewarm'",
  );
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(${ext[0].schema}.pg_prewarm(c.oid)) AS n FROM pg_class c
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'i')
       AND c.relname NOT LIKE 'resource_history%' AND c.relname NOT LIKE 'search_text%'`,
  );
  return { sharedBuffers, prewarmed: Number(rows[0].n) };
}
