// A real Bloom for the browser: the API (buildServer) on an in-memory PGlite and the app host serving the
// built app, both on free ports, wired together as `npm start` wires them (config.json, CORS, CSP).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildAppHost } from '../../../src/server/app-host';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { openPGlite, type Database } from '../../../src/server/db';
import { migrateServer } from '../../../src/server/migrations';
import { findTestPort } from '../../support/test-port';
import { Repository, systemContext } from '../../../src/server/repo';
import { FileBinaryStorage } from '../../../src/server/binary/storage';
import {
  findAppClientId,
  seedCarePlanBot,
  seedDemoClinic,
  seedEpdsScreening,
  topUpDemoSlots,
} from '../../../src/server/seed';
import { migratedTemplate } from '../../server/support/pglite-template';
import { appDistDir, ensureAppBuilt } from './app-build';

export interface RunningBloom {
  /** The app's origin with a trailing slash, e.g. http://localhost:40123/ */
  readonly appUrl: string;
  /** The API's base URL, as config.json gives it to the app. */
  readonly apiBaseUrl: string;
  /** The demo clinic's Project id when started with `seed` (the demo sign-ins). */
  readonly clinicProjectId: string | undefined;
  /** The server's own repository on the e2e database, for test setup. */
  readonly systemRepo: Repository;
  /** The e2e database itself, for the server's lookups in test setup. */
  readonly db: Database;
  /** The server's DATA_DIR (emails go to its outbox/). */
  readonly dataDir: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Seed the demo clinic and its sign-ins (seedDemoClinic), as `npm start` does. */
  readonly seed?: boolean;
  /** More origins allowed by the API's CORS, besides the app's (a test page served elsewhere). */
  readonly extraOrigins?: readonly string[];
  /** Opens the server's database (default: a copy of the migrated PGlite template). */
  readonly openDatabase?: () => Promise<Database>;
}

const host = 'localhost';

export async function startBloom(options: StartOptions = {}): Promise<RunningBloom> {
  ensureAppBuilt();
  const [apiPort, appPort] = [await findTestPort(host), await findTestPort(host)];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-e2e-data-'));
  const config = loadConfig({
    PORT: String(apiPort),
    APP_PORT: String(appPort),
    HOST: host,
    // Its own directory per run: the password-reset emails land in DATA_DIR/outbox/ (no SMTP in tests).
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    // Load shedding off (10 min), as in the API tests: a busy CI machine is no failure of a screen.
    PGLITE_MAX_QUEUE_WAIT: '600000',
  });
  config.appOrigins.push(...(options.extraOrigins ?? []));
  // Under jest a copy of the global setup's migrated template (initdb costs seconds a database);
  // outside it (bench/app) a fresh one. Either way this server's own database.
  const db: Database = options.openDatabase
    ? await options.openDatabase()
    : await openPGlite({ loadDataDir: migratedTemplate() });
  const servers: FastifyInstance[] = [];
  const stop = async () => {
    for (const server of servers.reverse()) await server.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const systemRepo = new Repository(db, systemContext());
  let clinicProjectId: string | undefined;
  let appClientId: string | undefined;
  try {
    await migrateServer(db);
    if (options.seed) {
      const seeded = await seedDemoClinic(systemRepo, { appOrigins: config.appOrigins });
      // As npm start: the EPDS with its scoring bot and Subscription.
      await seedEpdsScreening(systemRepo, new FileBinaryStorage(config.binaryDir));
      // As npm start: the care-plan bot and its Subscription on pregnancy registrations.
      await seedCarePlanBot(systemRepo, new FileBinaryStorage(config.binaryDir));
      // As npm start: the demo's free slots are topped up to 45 days ahead after seeding.
      await topUpDemoSlots(systemRepo);
      clinicProjectId = seeded.projectId;
      // As npm start: the app signs in as the clinic's 'Bloom app' ClientApplication (config.json clientId).
      appClientId = await findAppClientId(db, seeded.projectId);
    }
    const api = await buildServer({ config, db });
    servers.push(api);
    await api.listen({ port: config.port, host });
    const appHost = await buildAppHost({
      appDir: appDistDir,
      apiBaseUrl: config.baseUrl,
      clientId: appClientId,
      logLevel: 'warn',
    });
    servers.push(appHost);
    await appHost.listen({ port: config.appPort, host });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    appUrl: `http://localhost:${config.appPort}/`,
    apiBaseUrl: config.baseUrl,
    clinicProjectId,
    systemRepo,
    db,
    dataDir,
    stop,
  };
}
