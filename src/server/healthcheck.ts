// GET /healthcheck: the process answers and the database answers a query (PGlite: or its worker is
// busy with one; the check never waits behind a slow search).
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from './db';

export const healthcheckRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  app.get('/healthcheck', async (request, reply) => {
    try {
      if (db.healthy ? !(await db.healthy()) : !(await db.query('SELECT 1'))) {
        return reply.status(503).send({ ok: false, database: db.engine });
      }
      return reply.send({ ok: true, database: db.engine });
    } catch (err) {
      request.log.error({ err }, 'Healthcheck: database query failed');
      return reply.status(503).send({ ok: false, database: db.engine });
    }
  });
};
