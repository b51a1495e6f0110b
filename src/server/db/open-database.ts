// Chooses the engine from configuration: PostgreSQL when a URL is given, else PGlite on disk.
import fs from 'node:fs';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock';
import type { Database } from './database';
import { openPGlite } from './pglite-database';
import { openPostgres } from './postgres-database';

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres({ connectionString: options.databaseUrl });
  }
  const pgliteDir = path.join(options.dataDir, 'pglite');
  fs.mkdirSync(pgliteDir, { recursive: true });
  const release = lockDataDir(options.dataDir);
  try {
    return await openPGlite({ dataDir: pgliteDir, afterClose: release });
  } catch (err) {
    release();
    throw err;
  }
}
