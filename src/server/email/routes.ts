// The email API under /email/v1.
import type { FastifyPluginAsync } from 'fastify';
import type { AuthDeps } from '../auth/auth-deps';
import { requireAuth } from '../auth/authenticate';
import { readFields } from '../auth/request-fields';
import { checkMaySendEmail, sendEmail } from './send';

export interface EmailRoutesOptions {
  deps: AuthDeps;
}

export const emailRoutes: FastifyPluginAsync<EmailRoutesOptions> = async (app, { deps }) => {
  app.post('/send', async (request) => {
    const auth = await requireAuth(deps, request);
    checkMaySendEmail(auth);
    return sendEmail(deps, auth, readFields(request.body));
  });
};
