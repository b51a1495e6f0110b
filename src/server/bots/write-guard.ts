// Only project admins create, change or delete Bot resources over REST (issue #10: bot code is
// code the server runs). $execute is open to whoever may read the bot; $deploy checks itself.
import type { FastifyInstance } from 'fastify';
import { requireBotAdmin } from './routes';

const BOT_WRITE = /^\/fhir\/R4\/Bot(\/[^/$][^/]*)?\/?$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function registerBotWriteGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (!request.bloomAuth || !WRITE_METHODS.has(request.method)) {
      return;
    }
    if (BOT_WRITE.test(request.url.split('?')[0])) {
      requireBotAdmin(request.bloomAuth.context);
    }
  });
}
