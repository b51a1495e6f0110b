// Two server instances on one database, as two processes behind one load balancer would run (live
// updates and FHIRcast fan out through the database and LISTEN/NOTIFY). With
// TEST_DATABASE_URL: two PostgreSQL pools on a schema of their own (dropped on stop); otherwise one
// PGlite shared by two servers.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildServer, type BuildServerOptions } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { openPostgres } from '../../../src/server/db';
import { migrateServer } from '../../../src/server/migrations';
import type { Database } from '../../../src/server/db';
import { findTestPort } from '../../support/test-port';
import { openTestPGlite } from './test-databases';

export interface TwoInstancesOptions {
  /** Prefix of the PostgreSQL schema name (the process id and random bytes follow). */
  readonly schemaPrefix: string;
  /** Who every request acts as. */
  readonly getContext: NonNullable<BuildServerOptions['getContext']>;
  /** More configuration (environment names, as loadConfig reads them). */
  readonly env?: Record<string, string>;
}

export interface TwoInstances {
  /** Each instance's own base URL ('http://localhost:PORT/'). */
  readonly bases: [string, string];
  stop(): Promise<void>;
}

export async function startTwoInstances(options: TwoInstancesOptions): Promise<TwoInstances> {
  const url = process.env.TEST_DATABASE_URL;
  const schema = `${options.schemaPrefix}_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const opened: Database[] = [];
  const apps: FastifyInstance[] = [];
  const bases: string[] = [];
  let publicBase: string | undefined;

  const startOn = async (db: Database): Promise<void> => {
    const port = await findTestPort('localhost');
    // Instances behind one load balancer share BASE_URL (the tokens' issuer).
    publicBase ??= `http://localhost:${port}/`;
    const config = loadConfig({
      PORT: String(port),
      LOG_LEVEL: 'silent',
      BASE_URL: publicBase,
      ...options.env,
    });
    const app = await buildServer({ config, db, getContext: options.getContext });
    apps.push(app);
    await app.listen({ port, host: 'localhost' });
    bases.push(`http://localhost:${port}/`);
  };

  const stop = async (): Promise<void> => {
    for (const app of apps) await app.close();
    for (const db of opened) await db.close();
    if (url) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  };

  try {
    if (url) {
      // Two pools as two processes would have, on one schema.
      for (let i = 0; i < 2; i++) {
        const db = await openPostgres({ connectionString: url, schema, maxConnections: 4 });
        opened.push(db);
        await migrateServer(db);
        await startOn(db);
      }
    } else {
      const db = await openTestPGlite();
      opened.push(db);
      await startOn(db);
      await startOn(db);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { bases: [bases[0], bases[1]], stop };
}
