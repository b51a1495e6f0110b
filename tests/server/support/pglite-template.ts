// The environment variable through which the global setup hands the migrated PGlite template's
// path (a dumpDataDir tarball) to the test workers.
import fs from 'node:fs';

export const PGLITE_TEMPLATE_ENV = 'BLOOM_PGLITE_TEMPLATE';

/** The migrated template to open a database from, when the global setup made one (under jest). */
export function migratedTemplate(): Blob | undefined {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template || !fs.existsSync(template)) return undefined;
  return new Blob([fs.readFileSync(template)]);
}
