// Starts Bloom: configuration, database (migrated, demo clinic seeded on first run), the API on
// PORT and the app host on APP_PORT; stops cleanly on Ctrl-C / SIGTERM.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildAppHost } from './app-host';
import { buildServer, FHIR_PATH } from './app';
import { ConfigError, isSet, loadConfig, withActualPort } from './config';
import type { ServerConfig } from './config';
import { DataDirInUseError, openDatabase } from './db';
import { migrateServer } from './migrations';
import { startTimer } from './start-timing';
import { findFreePort } from './free-port';
import { installProcessGuards } from './process-guards';
import type { Database } from './db';
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

async function resolvePorts(config: ServerConfig): Promise<ServerConfig> {
  let resolved = config;
  if (config.port === 0) {
    resolved = withActualPort(resolved, process.env, await findFreePort(config.host));
  }
  if (config.appPort === 0) {
    const appPort = await findFreePort(config.host);
    resolved = { ...resolved, appPort };
    if (!isSet(process.env, 'APP_ORIGINS')) {
      resolved.appOrigins.splice(
        0,
        resolved.appOrigins.length,
        `http://localhost:${appPort}`,
        `http://127.0.0.1:${appPort}`,
      );
    }
  }
  return resolved;
}

async function start(): Promise<void> {
  const config = await resolvePorts(loadConfig());
  const startPhase = startTimer(config.startTiming);
  startPhase('modules loaded, config read');
  const db: Database = await openDatabase(config);
  startPhase('database open');
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

start().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`);
  } else if (err instanceof DataDirInUseError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
