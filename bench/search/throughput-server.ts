// Child process of the throughput bench (throughput.ts): serves one build of Bloom's API
// (THROUGHPUT_ROOT, a checkout of any commit) with real token authentication over the bench
// clinic on PostgreSQL or on its own copy of the PGlite directory, or a bare Fastify route doing one
// primary-key SELECT on the same database (THROUGHPUT_MODE=bare), the floor a read of Patient/{id}
// is compared with. Prints its URL as one JSON line; answers 'stats' with the statements it sent
// to PostgreSQL so far (PGlite's are not counted).
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';

interface ServerModules {
  app: typeof import('../../src/server/app');
  config: typeof import('../../src/server/config');
  db: typeof import('../../src/server/db');
}

/** Every statement any pg client of this process sends (pooled queries go through Client.query). */
let statements = 0;
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]): unknown {
  statements++;
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

async function load(root: string): Promise<ServerModules> {
  const [app, config, db] = await Promise.all([
    import(path.join(root, 'src/server/app.ts')) as Promise<ServerModules['app']>,
    import(path.join(root, 'src/server/config.ts')) as Promise<ServerModules['config']>,
    import(path.join(root, 'src/server/db/index.ts')) as Promise<ServerModules['db']>,
  ]);
  return { app, config, db };
}

async function main(): Promise<void> {
  const root = process.env.THROUGHPUT_ROOT ?? process.cwd();
  const { engine, connectionString, schema, dataDir } = JSON.parse(
    process.env.THROUGHPUT_LOCATION ?? '{}',
  ) as {
    engine?: 'postgres' | 'pglite';
    connectionString?: string;
    schema?: string;
    dataDir?: string;
  };
  const modules = await load(root);
  const db =
    engine === 'pglite'
      ? await modules.db.openPGlite({ dataDir })
      : await modules.db.openPostgres({
          connectionString: connectionString as string,
          schema,
          maxConnections: 8,
        });
  let close: () => Promise<void>;
  let url: string;
  if (process.env.THROUGHPUT_MODE === 'bare') {
    const app = Fastify({ logger: false });
    app.get<{ Params: { id: string } }>('/fhir/R4/Patient/:id', async (request, reply) => {
      const { rows } = await db.query<{ json: string }>(
        "SELECT content::text AS json FROM resource WHERE resource_type = 'Patient' AND id = $1",
        [request.params.id],
      );
      if (!rows[0]) {
        return reply.code(404).send({ resourceType: 'OperationOutcome' });
      }
      return reply.type('application/fhir+json').send(rows[0].json);
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  } else {
    const config = { ...modules.config.loadConfig({ LOG_LEVEL: 'warn' }), port: 0 };
    const app = await modules.app.buildServer({ config, db });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  }
  process.on('message', (message) => {
    if (message === 'stats') {
      process.send?.({ statements });
    }
  });
  process.on('SIGTERM', () => {
    void close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  });
  console.log(JSON.stringify({ url }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
