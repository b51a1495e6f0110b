// Where the search benchmark keeps its clinic: a PGlite directory under the OS temp folder, or a
// PostgreSQL schema of TEST_DATABASE_URL, named by size so a loaded clinic is reused across runs
// (SEARCH_BENCH_RELOAD=1 starts afresh).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/server/db';
import { migrate, openPGlite, openPostgres } from '../../src/server/db';

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
  await migrate(db);
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
