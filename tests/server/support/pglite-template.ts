// The environment variable through which the global setup hands the migrated PGlite template's
// path (a dumpDataDir tarball) to the test workers.
export const PGLITE_TEMPLATE_ENV = 'BLOOM_PGLITE_TEMPLATE';
