// The part of start-up after the database is open: migrations, the demo seed's checks, the API on
// PORT and the app host on APP_PORT, and a clean stop on Ctrl-C / SIGTERM. main.ts loads this module
// while the database opens, so its imports (most of the server) load in parallel with PGlite.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildAppHost } from './app-host';
import { buildServer, FHIR_PATH } from './app';
import { isSet } from './config';
import type { ServerConfig } from './config';
import type { Database } from './db';
import { migrateServer } from './migrations';
import { installProcessGuards } from './process-guards';
import { Repository, systemContext } from './repo';
import { FileBinaryStorage } from './binary/storage';
import {
  findAppClientId,
  seedCarePlanBot,
  seedDemoClinic,
  seedEpdsScreening,
  topUpDemoSlots,
  upgradeMessageThreads,
} from './seed';

const DEMO_ACCOUNTS = [
  ['Maria Garcia (patient)', 'maria@bloom.example'],
  ['Aisha Khan (patient)', 'aisha@bloom.example'],
  ['Dr. Lily Chen (practitioner)', 'dr.chen@bloom.example'],
  ['Project admin', 'admin@bloom.example'],
];

export async function startServer(
  config: ServerConfig,
  db: Database,
  startPhase: (phase: string) => void,
): Promise<void> {
  const servers: FastifyInstance[] = [];
  let stopping = false;
  const closeAll = async (): Promise<void> => {
    for (const server of servers.reverse()) {
      await server.close();
    }
    await db.close();
  };
  const stop = async (signal: string): Promise<void> => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`\n${signal}: stopping Bloom…`);
    await closeAll();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await migrateServer(db);
  startPhase('migrations checked');
  let registrationProjectId: string | undefined;
  let appClientId: string | undefined;
  if (config.seedDemo) {
    // New patients who register in the app join the demo clinic.
    const systemRepo = new Repository(db, systemContext());
    ({ projectId: registrationProjectId } = await seedDemoClinic(systemRepo, {
      demoPassword: config.demoPassword,
      appOrigins: config.appOrigins,
    }));
    startPhase('demo clinic checked');
    // The EPDS, its scoring bot and the bot's Subscription (also into a clinic seeded before them).
    await seedEpdsScreening(systemRepo, new FileBinaryStorage(config.binaryDir));
    startPhase('EPDS seed checked');
    // The bot that applies the clinic's care-plan template when a pregnancy is registered.
    await seedCarePlanBot(systemRepo, new FileBinaryStorage(config.binaryDir));
    startPhase('care-plan bot checked');
    // A clinic seeded weeks ago still has free slots 45 days ahead for Get Care.
    await topUpDemoSlots(systemRepo);
    startPhase('demo slots topped up');
    // The app signs in as the clinic's 'Bloom app' ClientApplication.
    appClientId = await findAppClientId(db, registrationProjectId);
  }
  startPhase('app client found');
  // Messages from before threads, in any project, join a thread of their patient's.
  const upgraded = await upgradeMessageThreads(new Repository(db, systemContext()));
  if (upgraded.messages > 0) {
    console.log(
      `Message threads: ${upgraded.messages} earlier messages joined ${upgraded.threads} new thread headers`,
    );
  }

  startPhase('message threads upgraded');
  const api = await buildServer({ config, db });
  startPhase('API built');
  servers.push(api);
  installProcessGuards({
    log: api.log,
    shutdown: async () => {
      stopping = true;
      await closeAll();
    },
  });
  await api.listen({ port: config.port, host: config.host });
  startPhase('API listening');

  const appHost = await buildAppHost({
    appDir: path.resolve('dist/app'),
    apiBaseUrl: config.baseUrl,
    registrationProjectId,
    clientId: appClientId,
    recaptchaSiteKey: config.recaptchaSiteKey,
    logLevel: config.logLevel,
  });
  servers.push(appHost);
  await appHost.listen({ port: config.appPort, host: config.host });
  startPhase('app host listening');

  const lines = [
    '',
    `Bloom is running (database: ${db.engine === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'})`,
    `  App:        http://localhost:${config.appPort}/`,
    `  FHIR API:   ${config.baseUrl}${FHIR_PATH}`,
  ];
  if (config.seedDemo) {
    const password = isSet(process.env, 'DEMO_PASSWORD')
      ? '(the DEMO_PASSWORD you set)'
      : config.demoPassword;
    lines.push('  Demo sign-ins (password ' + password + '):');
    for (const [who, email] of DEMO_ACCOUNTS) {
      lines.push(`    ${email.padEnd(24)} ${who}`);
    }
  }
  lines.push('Press Ctrl-C to stop.', '');
  console.log(lines.join('\n'));
}
