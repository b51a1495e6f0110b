// The API server: security headers and CORS, error handling, then one plugin per route group.
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from './config';
import type { Database } from './db';
import { fhirRoutes, registerErrorHandlers } from './fhir';
import { healthcheckRoutes } from './healthcheck';
import type { RepositoryContext } from './repo';
import { registerApiSecurity } from './security';

export interface BuildServerOptions {
  config: ServerConfig;
  db: Database;
  getContext?: (request: FastifyRequest) => RepositoryContext;
}

export const FHIR_PATH = 'fhir/R4/';

export async function buildServer({ config, db, getContext }: BuildServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    // Per-request logs only at debug and below, so `npm start` stays readable.
    logController: new LogController({
      disableRequestLogging: !['debug', 'trace'].includes(config.logLevel),
    }),
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
  });
  registerErrorHandlers(app, config.bodyLimit);
  await registerApiSecurity(app, config.appOrigins);
  await app.register(healthcheckRoutes, { db });
  await app.register(fhirRoutes, {
    prefix: '/fhir/R4',
    db,
    fhirBase: config.baseUrl + FHIR_PATH,
    bodyLimit: config.bodyLimit,
    getContext,
  });
  return app;
}
