// Fresh, migrated databases for server tests: always PGlite (from the global template), and also
// PostgreSQL when TEST_DATABASE_URL is set, each test file in its own schema so parallel jest
// workers never see each other's rows.
import crypto from 'node:crypto';
import pg from 'pg';
import { openPGlite, openPostgres } from '../../../src/server/db';
import { migrateServer } from '../../../src/server/migrations';
import type { Database, DatabaseEngine, Queryable, SqlValue } from '../../../src/server/db';
import { migratedTemplate } from './pglite-template';

export interface TestDatabaseKind {
  engine: DatabaseEngine;
  open(): Promise<Database>;
}

/** The engines to run a suite against: `describe.each(databases())('... on %s', ...)`. */
export function databases(): [DatabaseEngine, TestDatabaseKind][] {
  const kinds: [DatabaseEngine, TestDatabaseKind][] = [
    ['pglite', { engine: 'pglite', open: openTestPGlite }],
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    kinds.push(['postgres', { engine: 'postgres', open: () => openTestPostgres(url) }]);
  }
  return kinds;
}

export async function openTestPGlite(): Promise<Database> {
  const template = migratedTemplate();
  if (!template) {
    throw new Error(
      'The PGlite template is missing: run server tests through jest (tests/setup/node-global-setup.ts)',
    );
  }
  const db = await openPGlite({ loadDataDir: template });
  // The template is already migrated; this proves migrateServer() is idempotent on every open.
  await migrateServer(db);
  return db;
}

export async function openTestPostgres(connectionString: string): Promise<Database> {
  const schema = `test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const db = await openPostgres({ connectionString, schema, maxConnections: 4 });
  await migrateServer(db);
  return {
    engine: db.engine,
    query<Row>(sql: string, params?: readonly SqlValue[]) {
      return db.query<Row>(sql, params);
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(fn);
    },
    // Live updates LISTEN on the same schema.
    listen(
      channel: string,
      onNotify: (payload: string) => void,
      onReconnect?: () => void,
      onConnectionLost?: () => void,
    ) {
      return db.listen(channel, onNotify, onReconnect, onConnectionLost);
    },
    async close() {
      await db.close();
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
