// The admin API under /admin: invite a person to a project.
import type { FastifyPluginAsync } from 'fastify';
import type { ServerServices } from '../services';
import { requireAuth } from '../auth/authenticate';
import { readFields } from '../auth/request-fields';
import { checkMayInvite, inviteUser } from './invite';
import { readInviteRequest } from './invite-request';

export interface AdminRoutesOptions {
  deps: ServerServices;
}

export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, { deps }) => {
  app.post<{ Params: { projectId: string } }>('/projects/:projectId/invite', async (request) => {
    const auth = await requireAuth(deps, request);
    // Refuse non-admins before telling them anything about their request body.
    checkMayInvite(auth, request.params.projectId);
    return inviteUser(deps, auth, request.params.projectId, readInviteRequest(readFields(request.body)));
  });
};
