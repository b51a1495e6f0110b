// The email API under /email/v1.
import type { FastifyPluginAsync } from 'fastify';
import type { ServerServices } from '../services';
import { requireAuth } from '../auth/authenticate';
import { readFields } from '../auth/request-fields';
import { checkMaySendEmail, sendEmail } from './send';

export interface EmailRoutesOptions {
  deps: ServerServices;
}

export const emailRoutes: FastifyPluginAsync<EmailRoutesOptions> = async (app, { deps }) => {
  app.post('/send', async (request) => {
    const auth = await requireAuth(deps, request);
    checkMaySendEmail(auth);
    return sendEmail(deps, auth, readFields(request.body));
  });
};
