// A real API server on a free port over a fresh test database, for tests that speak HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/server/app';
import type { BuildServerOptions } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import type { ServerConfig } from '../../../src/server/config';
import type { Database } from '../../../src/server/db';
import { findTestPort } from '../../support/test-port';
import { systemContext } from '../../../src/server/repo';
import type { TestDatabaseKind } from './test-databases';

export interface TestServer {
  app: FastifyInstance;
  db: Database;
  config: ServerConfig;
  /** e.g. http://localhost:41234/ */
  baseUrl: string;
  /** e.g. http://localhost:41234/fhir/R4/ */
  fhirUrl: string;
  close(): Promise<void>;
}

export const APP_ORIGIN = 'http://localhost:3000';

export interface TestServerOptions {
  /**
   * True: FHIR requests need an access token, as in `npm start` (the identity tests). False (the
   * default, for the foundation's REST tests): every FHIR request acts as the server itself.
   */
  requireAuth?: boolean;
  /** Test settings of server parts (e.g. Subscription → Bot retry delays). */
  build?: Pick<BuildServerOptions, 'exportSettings' | 'botTriggerSettings' | 'throttles'>;
}

export async function startTestServer(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const db = await kind.open();
  // The free port is found before the server listens, so a suite running beside this one may take
  // it in between: then build on another port.
  for (let attempt = 1; ; attempt++) {
    const port = await findTestPort('localhost');
    // The GraphQL schema's background build costs seconds of CPU per test file: built on first use
    // here, unless a test asks for the start-up build (GRAPHQL_SCHEMA_AT_START: 'true').
    const config = loadConfig({
      PORT: String(port),
      LOG_LEVEL: 'silent',
      APP_PORT: '3000',
      GRAPHQL_SCHEMA_AT_START: 'false',
      // Load shedding off (10 min): on a loaded CI machine a 1 s PGlite queue is no failure of the
      // test at hand; tests/hardening/pglite-load-shedding.test.ts sets its own bound.
      PGLITE_MAX_QUEUE_WAIT: '600000',
      ...env,
    });
    const app = await buildServer({
      config,
      db,
      getContext: options.requireAuth ? undefined : () => systemContext(),
      ...options.build,
    });
    try {
      await app.listen({ port, host: 'localhost' });
    } catch (error) {
      await app.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      await db.close();
      throw error;
    }
    return runningServer(app, db, config);
  }
}

function runningServer(app: FastifyInstance, db: Database, config: ServerConfig): TestServer {
  return {
    app,
    db,
    config,
    baseUrl: config.baseUrl,
    fhirUrl: `${config.baseUrl}fhir/R4/`,
    async close() {
      // Tests are over: a connection a test left mid-request (e.g. an upload refused with 413
      // before its body was read) must not keep the server open until jest's hook timeout.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await db.close();
    },
  };
}

/** A test server whose DATA_DIR is a new temporary folder (its outbox, its PGlite), removed on close. */
export async function startTestServerInTempDir(
  kind: TestDatabaseKind,
  options: TestServerOptions = {},
  env: Record<string, string> = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-test-server-'));
  const server = await startTestServer(kind, { ...env, DATA_DIR: dataDir }, options);
  return {
    ...server,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The emails the server wrote to DATA_DIR/outbox (no SMTP set), oldest first. */
export function outboxEmails(server: Pick<TestServer, 'config'>): string[] {
  const dir = path.join(server.config.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'));
}
