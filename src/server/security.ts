// Security headers (helmet) and CORS for the API. The API serves JSON only, so its
// Content-Security-Policy forbids everything; the app host has its own policy (app-host.ts).
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export const API_CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
  },
};

export async function registerApiSecurity(
  app: FastifyInstance,
  allowedOrigins: readonly string[],
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: API_CONTENT_SECURITY_POLICY,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The app (another origin, same site) may embed API content such as attachments.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  await app.register(cors, {
    // Read at request time: when the app host gets its port from the OS (APP_PORT=0), main adds it.
    origin: (origin, callback) => callback(null, origin !== undefined && allowedOrigins.includes(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['ETag', 'Location', 'Last-Modified', 'Content-Location'],
    maxAge: 600,
  });
}
