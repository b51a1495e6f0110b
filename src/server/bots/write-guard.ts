// Only project admins create, change or delete Bot resources over REST, directly or inside a
// batch or transaction (bot code is code the server runs). $execute is open to whoever
// may read the bot; $deploy checks itself.
import type { FastifyInstance } from 'fastify';
import { requireBotAdmin } from './routes';

const BOT_WRITE = /^(?:\/fhir\/R4\/)?\/?Bot(\/[^/$?][^/?]*)?\/?(\?.*)?$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface BundleBody {
  resourceType?: unknown;
  entry?: { request?: { method?: unknown; url?: unknown } }[];
}

/** True when a batch or transaction body has an entry writing a Bot. */
function bundleWritesBot(body: unknown): boolean {
  const bundle = body as BundleBody | undefined;
  if (!bundle || bundle.resourceType !== 'Bundle' || !Array.isArray(bundle.entry)) {
    return false;
  }
  return bundle.entry.some(
    (entry) =>
      WRITE_METHODS.has(String(entry?.request?.method ?? '').toUpperCase()) &&
      BOT_WRITE.test(String(entry?.request?.url ?? '')),
  );
}

export function registerBotWriteGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (!request.bloomAuth || !WRITE_METHODS.has(request.method)) {
      return;
    }
    const path = request.url.split('?')[0].replace(/\/+$/, '');
    if (BOT_WRITE.test(path) || (path === '/fhir/R4' && bundleWritesBot(request.body))) {
      requireBotAdmin(request.bloomAuth.context);
    }
  });
}
