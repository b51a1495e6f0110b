// The $get-ws-binding-token token: a short-lived JWT signed with the server's
// key, naming the Subscription and the membership whose access rules apply. It is not an access
// token (no login_id or username, verifyAccessToken refuses it) and an access token is not a
// binding token (no purpose claim). Any instance on the database can verify it: the key is shared.
import type { ProjectMembership } from '@medplum/fhirtypes';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { buildAuthState } from '../auth/authenticate';
import type { RepositoryContext } from '../repo';
import { systemContext } from '../repo';

const PURPOSE = 'ws-binding';

export interface BindingClaims {
  subscriptionId: string;
  context: RepositoryContext;
}

export async function issueBindingToken(
  deps: ServerServices,
  subscriptionId: string,
  context: RepositoryContext,
  lifetimeSeconds: number,
): Promise<{ token: string; expiration: Date }> {
  const membership = context.access?.membership.reference?.split('/')[1];
  const token = await deps.keys.sign(
    {
      purpose: PURPOSE,
      subscription_id: subscriptionId,
      // Unrestricted contexts exist only for the server's own work and the no-auth test servers.
      ...(membership ? { membership_id: membership } : { project: context.project ?? null, system: true }),
    },
    lifetimeSeconds,
  );
  return { token, expiration: new Date(Date.now() + lifetimeSeconds * 1000) };
}

/** The token's subscription and caller, rebuilt from the database; throws a plain Error when invalid. */
export async function verifyBindingToken(deps: ServerServices, token: string): Promise<BindingClaims> {
  let payload: Record<string, unknown>;
  try {
    payload = (await deps.keys.verify(token)).payload;
  } catch {
    throw new Error('Invalid or expired binding token');
  }
  if (payload.purpose !== PURPOSE || typeof payload.subscription_id !== 'string') {
    throw new Error('Not a binding token');
  }
  if (typeof payload.membership_id === 'string') {
    let membership: ProjectMembership;
    try {
      membership = await systemRepo(deps.db).readResource<ProjectMembership>(
        'ProjectMembership',
        payload.membership_id,
      );
    } catch {
      throw new Error('The binding token’s membership no longer exists');
    }
    const state = await buildAuthState(deps.db, membership, {}).catch(() => {
      throw new Error('The binding token’s membership is no longer active');
    });
    return { subscriptionId: payload.subscription_id, context: state.context };
  }
  if (payload.system === true) {
    return {
      subscriptionId: payload.subscription_id,
      context: systemContext(typeof payload.project === 'string' ? payload.project : undefined),
    };
  }
  throw new Error('Not a binding token');
}
