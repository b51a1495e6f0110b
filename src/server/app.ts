// The API server: security headers and CORS, error handling, then one plugin per route group.
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from './config';
import type { ServerServices } from './services';
import { contextFromRequest, decorateAuth, registerFhirAuthentication } from './auth/authenticate';
import { createMailer } from './auth/mailer';
import { authRoutes } from './auth/routes';
import { SigningKeys } from './auth/signing-key';
import { createAuthThrottles } from './auth/throttle';
import type { AuthThrottles } from './auth/throttle';
import type { Database } from './db';
import { fhirRoutes, registerErrorHandlers } from './fhir';
import { graphqlRoutes } from './graphql/routes';
import { healthcheckRoutes } from './healthcheck';
import { registerIdempotency } from './idempotency/plugin';
import { keyValueRoutes } from './keyvalue/routes';
import { registerLoadShedding } from './load-shedding';
import { liveRoutes } from './live/routes';
import { fhircastRoutes } from './fhircast/routes';
import { WebSocketPaths } from './websocket-paths';
import { createBinaryUrlSigner, storedAttachmentUrlRewriter } from './binary/attachment-urls';
import { binaryRoutes } from './binary/routes';
import { botRoutes } from './bots/routes';
import { cdsRoutes } from './cds/routes';
import { agentRoutes } from './agents/routes';
import { registerBotWriteGuard } from './bots/write-guard';
import { BotSubscriptionTrigger } from './bots/subscription-trigger';
import type { BotTriggerSettings } from './bots/subscription-trigger';
import { FileBinaryStorage } from './binary/storage';
import { adminRoutes } from './admin/routes';
import { emailRoutes } from './email/routes';
import { exportRoutes } from './export/routes';
import type { ExportSettings } from './export/runner';
import { rotateSecretRoutes } from './operations/client-rotate-secret';
import { fhirOperationRoutes } from './operations/routes';
import { oauthRoutes } from './oauth/routes';
import { wellKnownRoutes } from './oauth/well-known';
import type { RepositoryContext, RepositorySettings } from './repo';
import { registerRequestBodies } from './request-bodies';
import { registerApiSecurity } from './security';
import { registerApiDelivery, type ApiCompression } from './api-delivery';
import { shareResourceCache } from './repo/shared-cache';

export interface BuildServerOptions {
  config: ServerConfig;
  db: Database;
  /**
   * Tests only: every FHIR request acts as this context and needs no token. Without it (as in
   * `npm start`) FHIR requests must carry a valid access token or client credentials.
   */
  getContext?: (request: FastifyRequest) => RepositoryContext;
  /** Tests and the benchmark only: bulk export page and file sizes and lease. */
  exportSettings?: Partial<ExportSettings>;
  /** Tests only: Subscription → Bot retry delays and attempts. */
  botTriggerSettings?: Partial<BotTriggerSettings>;
  /** Tests only: sign-in throttles with smaller budgets than production's. */
  throttles?: AuthThrottles;
  /** The benchmark only: other compression threshold and levels (bench/api-compression.ts). */
  compression?: ApiCompression;
}

export const FHIR_PATH = 'fhir/R4/';

export async function buildServer({
  config,
  db,
  getContext,
  exportSettings,
  botTriggerSettings,
  throttles,
  compression,
}: BuildServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    // Per-request logs only at debug and below, so `npm start` stays readable.
    logController: new LogController({
      disableRequestLogging: !['debug', 'trace'].includes(config.logLevel),
    }),
    bodyLimit: config.bodyLimit,
    // A client that trickles a request in gets 408 instead of holding a connection.
    requestTimeout: config.limits.requestTimeout,
    // Node reads requestTimeout only when the server is created (Fastify's own setting, applied
    // after, never fires) and checks it every 30 s by default: both go to the constructor.
    http: {
      requestTimeout: config.limits.requestTimeout,
      connectionsCheckingInterval: Math.min(1000, config.limits.requestTimeout),
    },
    routerOptions: { ignoreTrailingSlash: true },
    // request.ip is X-Forwarded-For's client only when the peer is one of these proxies.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
  });
  registerErrorHandlers(app, config.bodyLimit);
  // Which bodies every route takes is decided once, before any route group registers.
  registerRequestBodies(app, config.limits);
  await registerApiSecurity(app, config.appOrigins);
  await registerApiDelivery(app, compression);
  // PGlite answers one query at a time: past a bounded wait, new requests get 503 before any work.
  registerLoadShedding(app, db, config.pgliteMaxQueueWait);
  await app.register(healthcheckRoutes, { db });
  // What the plugins share; the signing key is created on first use and shared by every instance.
  const services: ServerServices = {
    db,
    config,
    keys: new SigningKeys(db, config.baseUrl),
    throttles: throttles ?? createAuthThrottles(),
    mailer: createMailer(config, app.log),
  };
  decorateAuth(app);
  // On PostgreSQL, reads and auth state are cached while every instance's writes are heard.
  const stopSharedCache = await shareResourceCache(db);
  app.addHook('onClose', stopSharedCache);
  const requestContext = getContext ?? contextFromRequest;
  const fhirBase = config.baseUrl + FHIR_PATH;
  // Every WebSocket path (live updates, graphql-ws, FHIRcast, agents) on one upgrade listener,
  // which guards every socket: a bad frame closes that socket only, never the process.
  const websockets = new WebSocketPaths(app.log, { pingInterval: config.websocketPingInterval });
  app.server.on('upgrade', websockets.listener);
  app.decorate('websockets', websockets);
  app.addHook('onClose', async () => {
    app.server.off('upgrade', websockets.listener);
    websockets.close();
  });
  // One store for uploads, downloads and bot code: all under BINARY_DIR.
  const binaryStorage = new FileBinaryStorage(config.binaryDir);
  // Attachment URLs of readable Binaries are answered signed by REST, $graphql, graphql-ws and
  // /ws/subscriptions-r4 notifications alike.
  const binaryUrls = createBinaryUrlSigner(services, fhirBase);
  // Writes through the API (REST, $graphql, graphql-ws) store this server's signed URLs as
  // Binary/{id}, which never expires; the Repository itself knows nothing of Binary.
  const repositorySettings: RepositorySettings = {
    rewriteStoredUrls: storedAttachmentUrlRewriter(binaryUrls.storageBase),
    maxIndexValues: config.limits.maxIndexValues,
  };
  if (!getContext) {
    registerFhirAuthentication(app, services);
  }
  // A repeated POST with the same Idempotency-Key gets the first response (after auth).
  registerIdempotency(app, { deps: services, windowSeconds: config.idempotencyWindow });
  // Bot resources are written by project admins only.
  registerBotWriteGuard(app);
  await app.register(authRoutes, { prefix: '/auth', deps: services });
  await app.register(oauthRoutes, { prefix: '/oauth2', deps: services });
  await app.register(wellKnownRoutes, { prefix: '/.well-known', deps: services });
  await app.register(fhirRoutes, {
    prefix: '/fhir/R4',
    db,
    fhirBase,
    bodyLimit: config.bodyLimit,
    limits: config.limits,
    getContext: requestContext,
    binaryUrls,
    repositorySettings,
  });
  // $graphql and $graph, same base and same caller context as the REST API.
  await app.register(graphqlRoutes, {
    prefix: '/fhir/R4',
    db,
    getContext: requestContext,
    binaryUrls,
    repositorySettings,
    introspection: config.graphqlIntrospection,
    maxCost: config.graphqlMaxCost,
    maxConcurrentSearches: config.graphqlMaxConcurrentSearches,
    buildSchemaAtStart: config.graphqlSchemaAtStart,
  });
  await app.register(rotateSecretRoutes, { prefix: '/fhir/R4', deps: services });
  await app.register(fhirOperationRoutes, {
    prefix: '/fhir/R4',
    db,
    fhirBase,
    getContext: requestContext,
    binaryUrls,
  });
  // Live updates: $get-ws-binding-token, /ws/subscriptions-r4 and graphql-ws at /ws/graphql.
  // Subscriptions to Bot/{id} run the bot on the same engine.
  const botTrigger = new BotSubscriptionTrigger(
    { db, storage: binaryStorage, fhirBase, logger: app.log },
    botTriggerSettings,
  );
  await app.register(liveRoutes, {
    deps: services,
    fhirBase,
    getContext: requestContext,
    websockets,
    binaryUrls,
    repositorySettings,
    engineUsers: [(engine) => botTrigger.start(engine)],
  });
  // FHIRcast hub at /fhircast/STU3 and /ws/fhircast/{endpoint id}.
  await app.register(fhircastRoutes, { deps: services, websockets, getContext });
  // Binary upload and download, and signed storage URLs for attachments.
  await app.register(binaryRoutes, {
    deps: services,
    storage: binaryStorage,
    fhirBase,
    getContext: requestContext,
  });
  // Bot $deploy and $execute in the QuickJS sandbox.
  await app.register(botRoutes, {
    prefix: '/fhir/R4',
    db,
    storage: binaryStorage,
    fhirBase,
    bodyLimit: config.bodyLimit,
    getContext: requestContext,
  });
  // CDS Hooks: /cds-services discovery and calls, answered by Bots with a cdsService.
  await app.register(cdsRoutes, {
    prefix: '/cds-services',
    deps: services,
    db,
    storage: binaryStorage,
    fhirBase,
    bodyLimit: config.bodyLimit,
    getContext,
  });
  // Bulk $export: jobs in the database, NDJSON files in the Binary store.
  await app.register(exportRoutes, {
    prefix: '/fhir/R4',
    db,
    storage: binaryStorage,
    fhirBase,
    getContext: requestContext,
    settings: exportSettings,
  });
  // Agents: /ws/agent and Agent $push.
  await app.register(agentRoutes, {
    deps: services,
    websockets,
    bots: { db, storage: binaryStorage, fhirBase },
    getContext: requestContext,
  });
  await app.register(keyValueRoutes, { prefix: '/keyvalue/v1', deps: services });
  await app.register(adminRoutes, { prefix: '/admin', deps: services });
  await app.register(emailRoutes, { prefix: '/email/v1', deps: services });
  return app;
}
