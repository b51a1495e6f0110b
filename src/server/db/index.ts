export type { Database, DatabaseEngine, QueryResult, Queryable, SqlValue } from './database';
export { migrate } from './migrations';
export type { Migration } from './migrations';
export { openDatabase } from './open-database';
export { PGliteDatabase, openPGlite } from './pglite-database';
export { PostgresDatabase, openPostgres } from './postgres-database';
export { DataDirInUseError, lockDataDir } from './data-dir-lock';
