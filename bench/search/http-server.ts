// Child process of the search benchmark's HTTP load: serves Bloom's API over the loaded clinic
// (as the system: the token check is not what is measured), prints its URL as one JSON line, and
// answers a 'cpu' message with its own CPU time so the parent can compute requests/s per core.
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { systemContext } from '../../src/server/repo';
import type { BenchDatabaseLocation } from './database';
import { BENCH_SERVER_APPLICATION, openBenchDatabase } from './database';

async function main(): Promise<void> {
  const location = JSON.parse(process.env.SEARCH_BENCH_LOCATION ?? '{}') as BenchDatabaseLocation;
  const db = await openBenchDatabase(location, { applicationName: BENCH_SERVER_APPLICATION });
  const config = { ...loadConfig({ LOG_LEVEL: 'warn' }), port: 0 };
  const app = await buildServer({ config, db, getContext: () => systemContext() });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (message) => {
    if (message === 'cpu') {
      process.send?.({ cpu: process.cpuUsage() });
    }
  });
  const stop = async (): Promise<void> => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  console.log(JSON.stringify({ url: address }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
