// GET auth/me (SPEC §3 "Session details") and POST auth/changepassword for a signed-in user.
import type { Project, Resource, User, UserConfiguration } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { AuthState } from './authenticate';
import { effectivePolicy } from '../access/access-control';
import { withNewPassword } from './credentials';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords';
import { forgetFailedGuesses } from './throttle';
import type { Fields } from './request-fields';
import { fieldError, requiredPassword } from './request-fields';

/** Only what a member may see of the project: never its secrets or system settings. */
function publicProject(project: Project): Project {
  const {
    resourceType,
    id,
    meta,
    name,
    description,
    superAdmin,
    strictMode,
    features,
    defaultPatientAccessPolicy,
  } = project;
  return {
    resourceType,
    id,
    meta,
    name,
    description,
    superAdmin,
    strictMode,
    features,
    defaultPatientAccessPolicy,
  };
}

export interface SessionDetails {
  user?: Pick<User, 'resourceType' | 'id' | 'email' | 'firstName' | 'lastName' | 'mfaEnrolled'>;
  profile: Resource;
  project: Project;
  membership: AuthState['membership'];
  config: UserConfiguration;
  accessPolicy?: AuthState['accessPolicy'];
}

export async function sessionDetails(deps: ServerServices, auth: AuthState): Promise<SessionDetails> {
  const repo = systemRepo(deps.db);
  const [type, id] = (auth.profile.reference ?? '').split('/');
  const profile = await repo.readResource<Resource>(type, id);
  const configRef = auth.membership.userConfiguration?.reference?.split('/')[1];
  const config = configRef
    ? await repo.readResource<UserConfiguration>('UserConfiguration', configRef)
    : { resourceType: 'UserConfiguration' as const, name: 'Default' };
  const details: SessionDetails = {
    profile,
    project: publicProject(auth.project),
    membership: auth.membership,
    config,
    // As Medplum's /auth/me: the policy the caller acts under, every grant combined.
    accessPolicy: auth.context.access ? effectivePolicy(auth.context.access) : auth.accessPolicy,
  };
  if (auth.user) {
    const { resourceType, id: userId, email, firstName, lastName, mfaEnrolled } = auth.user;
    details.user = {
      resourceType,
      id: userId,
      email,
      firstName,
      lastName,
      mfaEnrolled: mfaEnrolled ?? false,
    };
  }
  return details;
}

export async function changePassword(deps: ServerServices, user: User, fields: Fields): Promise<void> {
  const oldPassword = requiredPassword(fields, 'oldPassword');
  const newPassword = requiredPassword(fields, 'newPassword');
  const problem = checkNewPassword(newPassword);
  if (problem) {
    throw fieldError(problem, 'newPassword');
  }
  if (!(await verifyPassword(oldPassword, user.passwordHash))) {
    throw fieldError('Incorrect password', 'oldPassword');
  }
  if (oldPassword === newPassword) {
    throw new OperationOutcomeError(
      badRequest('The new password must differ from the old one', 'newPassword'),
    );
  }
  // Every sign-in of this user so far, this one included, ends here (credentials.ts).
  const { resource } = await systemRepo(deps.db).updateResource<User>(
    withNewPassword(user, await hashPassword(newPassword)),
    { ifMatch: user.meta?.versionId },
  );
  await forgetFailedGuesses(deps.db, deps.throttles, resource);
}
