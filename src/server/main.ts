// Starts Bloom: configuration, database (migrated, demo clinic seeded on first run), the API on
// PORT and the app host on APP_PORT; stops cleanly on Ctrl-C / SIGTERM.
// This entry loads only what opening the database needs: PGlite opens in its worker thread while
// this thread loads the rest of the server (start-server.ts, a chunk of its own in the bundle).
import { ConfigError, isSet, loadConfig, withActualPort } from './config';
import type { ServerConfig } from './config';
import { DataDirInUseError, openDatabase } from './db';
import { findFreePort } from './free-port';
import { startTimer } from './start-timing';

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
  startPhase('config read');
  const opening = openDatabase(config);
  const loading = import('./start-server');
  // Both settle before either failure is reported, so a database that opened is never left behind.
  const [db, server] = await Promise.allSettled([opening, loading]);
  if (db.status === 'rejected') throw db.reason;
  if (server.status === 'rejected') {
    await db.value.close();
    throw server.reason;
  }
  startPhase('database open, server loaded');
  await server.value.startServer(config, db.value, startPhase);
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
