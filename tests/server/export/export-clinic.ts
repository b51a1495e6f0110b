// The demo clinic behind a real server whose bulk export runs with small pages and files (so a
// handful of resources spans several pages, files and checkpoints), and which can be stopped and
// started again on the same database and port: the export tests' restart checks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import type { ServerConfig } from '../../../src/server/config';
import type { Database } from '../../../src/server/db';
import type { ExportSettings } from '../../../src/server/export/runner';
import { findTestPort } from '../../support/test-port';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedDemoClinic } from '../../../src/server/seed';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import type { TestDatabaseKind } from '../support/test-databases';

export const DEMO_PASSWORD = 'bloom-demo';

export interface ExportServer {
  app: FastifyInstance;
  config: ServerConfig;
  fhirUrl: string;
  /** Stops the HTTP server only: the database stays open for the next start. */
  stop(): Promise<void>;
}

export async function startExportServer(
  db: Database,
  config: ServerConfig,
  settings: Partial<ExportSettings>,
): Promise<ExportServer> {
  const app = await buildServer({ config, db, exportSettings: settings });
  await app.listen({ port: config.port, host: 'localhost' });
  return {
    app,
    config,
    fhirUrl: `${config.baseUrl}fhir/R4/`,
    async stop() {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    },
  };
}

export interface ExportClinic {
  db: Database;
  config: ServerConfig;
  server: ExportServer;
  binaryDir: string;
  maria: Tokens;
  aisha: Tokens;
  chen: Tokens;
  admin: Tokens;
  otherAdmin: Tokens;
  close(): Promise<void>;
}

export async function startExportClinic(
  kind: TestDatabaseKind,
  settings: Partial<ExportSettings>,
): Promise<ExportClinic> {
  const binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-export-'));
  const port = await findTestPort('localhost');
  const config = loadConfig({
    PORT: String(port),
    LOG_LEVEL: 'silent',
    APP_PORT: '3000',
    BINARY_DIR: binaryDir,
  });
  const db = await kind.open();
  const server = await startExportServer(db, config, settings);
  await seedDemoClinic(new Repository(db, systemContext()), { demoPassword: DEMO_PASSWORD });
  const [maria, aisha, chen, admin] = await Promise.all(
    ['maria', 'aisha', 'dr.chen', 'admin'].map((name) =>
      signIn(config.baseUrl, `${name}@bloom.example`, DEMO_PASSWORD),
    ),
  );
  const otherProject = await createProject(db, 'Other Clinic');
  const otherUser = await createUser(db);
  await addMembership(db, otherUser, otherProject, 'Practitioner', { admin: true });
  const otherAdmin = await signIn(config.baseUrl, otherUser.email as string);
  const clinic: ExportClinic = {
    db,
    config,
    server,
    binaryDir,
    maria,
    aisha,
    chen,
    admin,
    otherAdmin,
    async close() {
      await clinic.server.stop();
      await db.close();
      fs.rmSync(binaryDir, { recursive: true, force: true });
    },
  };
  return clinic;
}
