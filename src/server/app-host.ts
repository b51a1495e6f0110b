// The second, small server: serves the built app (dist/app) with an SPA fallback, and tells the
// app where the API is through /config.json, so the app works whatever port the API got.
import fs from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { LogLevel } from './config';

export interface AppHostOptions {
  /** The built app: index.html plus assets. */
  appDir: string;
  /** The API's base URL, ending in '/'. */
  apiBaseUrl: string;
  /** The project new patients register into (the demo clinic's), told to the app by /config.json. */
  registrationProjectId?: string;
  /** The app's ClientApplication (the seeded 'Bloom app'), told to the app by /config.json as clientId. */
  clientId?: string;
  /** reCAPTCHA site key for registration; when set, the CSP also lets Google's reCAPTCHA in. */
  recaptchaSiteKey?: string;
  logLevel: LogLevel;
}

/** Google's reCAPTCHA script and frames, per Google's CSP guidance; only allowed when a site key is set. */
const RECAPTCHA_SCRIPT_SOURCES = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAME_SOURCES = [
  'https://www.google.com/recaptcha/',
  'https://recaptcha.google.com/recaptcha/',
];

/**
 * The app's Content-Security-Policy: scripts only from this origin (no inline script); inline
 * styles are allowed because MUI's emotion injects <style> elements at run time; the API's origin
 * for data, images and framed attachments.
 */
export function appContentSecurityPolicy(
  apiBaseUrl: string,
  options: { recaptcha?: boolean } = {},
): Record<string, string[]> {
  const api = new URL(apiBaseUrl);
  const socket = `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}`;
  const recaptchaScripts = options.recaptcha ? RECAPTCHA_SCRIPT_SOURCES : [];
  const recaptchaFrames = options.recaptcha ? RECAPTCHA_FRAME_SOURCES : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...recaptchaScripts],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', api.origin],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", api.origin, socket, ...recaptchaScripts],
    frameSrc: ["'self'", 'blob:', 'data:', api.origin, ...recaptchaFrames],
    mediaSrc: ["'self'", 'blob:', 'data:', api.origin],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

/** A year, never revalidated: the caching of hashed assets. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Vite names built assets `name-HASH.ext` under assets/: a new build gives a changed file a new name. */
const HASHED_ASSET = /\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9.]+$/;

/**
 * Hashed assets never change under their name, so browsers keep them for a year without asking;
 * everything else (index.html, which names the current build's assets, icons, the manifest and the
 * service worker, whose updates browsers must see) is revalidated.
 */
export function appCacheControl(filePath: string): string {
  return HASHED_ASSET.test(filePath.split(path.sep).join('/')) ? IMMUTABLE : 'no-cache';
}

/**
 * Validators and range support on a file that is never revalidated and is read whole (a hashed
 * script, style sheet or image): about 100 bytes on every such response for nothing.
 */
const IMMUTABLE_NEEDLESS_HEADERS = ['etag', 'last-modified', 'accept-ranges'];

/**
 * Headers that only act on a document (or a frame): a script or a style sheet loaded by the page is
 * governed by the page's own policy, so on hashed assets they are bytes on every request for nothing
 * (about 650 bytes a file, paid once per chunk). nosniff, CORP and HSTS stay on every response.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * Script and style chunks: never a document. The service worker (sw.js) is a script too, but a worker
 * runs under the policy of its own response, so it keeps the document headers.
 */
const SUBRESOURCE = /\.(js|mjs|css|map)(\.br|\.gz)?$/;
const SERVICE_WORKER = /(^|[\\/])sw\.js(\.br|\.gz)?$/;

/** A path whose last segment has no dot is a client-side route; anything else is a missing file. */
function isClientRoute(url: string): boolean {
  const pathname = url.split('?')[0];
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.');
}

export async function buildAppHost(options: AppHostOptions): Promise<FastifyInstance> {
  const appDir = path.resolve(options.appDir);
  if (!fs.existsSync(path.join(appDir, 'index.html'))) {
    throw new Error(
      `The app is not built: ${path.join(appDir, 'index.html')} is missing (run npm run build)`,
    );
  }
  const app = Fastify({
    logger: { level: options.logLevel },
    logController: new LogController({ disableRequestLogging: true }),
  });
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: appContentSecurityPolicy(options.apiBaseUrl, { recaptcha: !!options.recaptchaSiteKey }),
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  app.get('/config.json', async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send({
      baseUrl: options.apiBaseUrl,
      ...(options.clientId ? { clientId: options.clientId } : {}),
      ...(options.registrationProjectId ? { projectId: options.registrationProjectId } : {}),
      ...(options.recaptchaSiteKey ? { recaptchaSiteKey: options.recaptchaSiteKey } : {}),
    }),
  );
  await app.register(fastifyStatic, {
    root: appDir,
    // One route per file, listed at start-up: the wildcard route lists the folder (525 files) again
    // on every request to check the path's spelling. The build is done before the host starts.
    wildcard: false,
    index: ['index.html'],
    // The build's .br/.gz copies (scripts/compress-assets.mjs), chosen by Accept-Encoding, with Vary.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const cacheControl = appCacheControl(filePath);
      reply.header('Cache-Control', cacheControl);
      if (cacheControl === IMMUTABLE) {
        for (const name of IMMUTABLE_NEEDLESS_HEADERS) reply.removeHeader(name);
      }
      if (SUBRESOURCE.test(filePath) && !SERVICE_WORKER.test(filePath)) {
        // helmet writes its headers on the raw response, so they are removed there.
        for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
      }
    },
  });
  app.setNotFoundHandler(async (request, reply) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && isClientRoute(request.url)) {
      // index.html must not be cached: it names the hashed assets of the current build.
      return reply.sendFile('index.html');
    }
    return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
  });
  return app;
}
