// Security headers and CORS for the API. The API serves JSON only, so its Content-Security-Policy
// forbids everything; the app host has its own policy (app-host.ts).
//
// Both run on every request, so both are precomputed: @fastify/helmet rebuilds its middleware chain
// (and re-parses the CSP) per request, and @fastify/cors spreads its options and resolves the origin
// through callbacks per request. Here the helmet header set is captured once, from @fastify/helmet
// itself with the same options, and the CORS rules below are @fastify/cors's for these options.
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const API_CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
  },
};

export const API_HELMET_OPTIONS = {
  contentSecurityPolicy: API_CONTENT_SECURITY_POLICY,
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  // The app (another origin, same site) may embed API content such as attachments.
  crossOriginResourcePolicy: { policy: 'same-site' as const },
};

const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
// X-Progress: a bulk export's status read by the app from another origin.
const CORS_EXPOSED_HEADERS = 'ETag, Location, Last-Modified, Content-Location, X-Progress';
const CORS_MAX_AGE = '600';

/** The headers @fastify/helmet sets with `options` on a plain response, lower-cased names. */
export async function captureHelmetHeaders(options: object): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', (_request, reply) => reply.send());
  const response = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    // Only helmet's: the rest are Fastify's own or the connection's.
    if (!['content-length', 'content-type', 'date', 'connection', 'keep-alive'].includes(name)) {
      headers[name] = String(value);
    }
  }
  return headers;
}

/** Adds `name` to the Vary header, as @fastify/cors does. */
function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('vary', name);
    return;
  }
  const values = String(current)
    .split(',')
    .map((value) => value.trim().toLowerCase());
  if (!values.includes('*') && !values.includes(name.toLowerCase())) {
    reply.header('vary', `${String(current)}, ${name}`);
  }
}

export async function registerApiSecurity(
  app: FastifyInstance,
  allowedOrigins: readonly string[],
): Promise<void> {
  const securityHeaders = await captureHelmetHeaders(API_HELMET_OPTIONS);

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeaders);
    // CORS: the allowed origins are read at request time (main adds the app host's port when the
    // OS picks it). A request from no or another origin gets no CORS headers, only the Vary.
    addVary(reply, 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowedOrigins.includes(origin)) {
      done();
      return;
    }
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    // A preflight is answered here, before any route or authentication.
    const requestedHeaders = request.headers['access-control-request-headers'];
    if (!request.headers['access-control-request-method']) {
      reply.status(400).type('text/plain').send('Invalid Preflight Request');
      return;
    }
    reply.header('access-control-allow-methods', CORS_METHODS);
    addVary(reply, 'Access-Control-Request-Headers');
    if (requestedHeaders !== undefined) {
      reply.header('access-control-allow-headers', requestedHeaders);
    }
    reply.header('access-control-max-age', CORS_MAX_AGE);
    reply.code(204).header('content-length', '0').send();
  });

  // An OPTIONS request that is not an allowed preflight (those are answered above) has no route.
  app.options('*', (_request, reply) => {
    reply.callNotFound();
  });
}
