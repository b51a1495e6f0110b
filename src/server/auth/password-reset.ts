// Password reset by email: auth/resetpassword creates a UserSecurityRequest and emails
// a link to the app's set-password screen; auth/setpassword checks the secret and sets the new
// password. The answer to resetpassword never tells whether the email exists.
import type { User, UserSecurityRequest } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import { findUserByEmail } from '../repo/lookups';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import { secretsEqual } from './authenticate';
import { randomSecret } from './logins';
import { issuedBeforeCredentialsChange, withNewPassword } from './credentials';
import { checkNewPassword, hashPassword } from './passwords';
import { forgetFailedGuesses } from './throttle';
import type { Fields } from './request-fields';
import { fieldError, requiredEmail, requiredPassword, requiredString } from './request-fields';

export const RESET_LIFETIME_MS = 60 * 60_000;

export async function requestPasswordReset(deps: ServerServices, fields: Fields): Promise<void> {
  const email = requiredEmail(fields);
  const user = await findUserByEmail(deps.db, email);
  if (!user?.email) {
    return;
  }
  await emailResetLink(deps, user, 'Someone asked to reset the password of your Bloom account.');
}

/** A new one-hour reset link, emailed to the user; `reason` opens the email. */
export async function emailResetLink(deps: ServerServices, user: User, reason: string): Promise<void> {
  if (!user.email) {
    return;
  }
  const request = await systemRepo(deps.db).createResource<UserSecurityRequest>({
    resourceType: 'UserSecurityRequest',
    type: 'reset',
    user: { reference: `User/${user.id}` },
    secret: randomSecret(),
    expiresAt: new Date(Date.now() + RESET_LIFETIME_MS).toISOString(),
  });
  const appOrigin = deps.config.appOrigins[0] ?? deps.config.baseUrl.replace(/\/$/, '');
  const link = `${appOrigin}/setpassword/${request.id}/${request.secret}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Reset your Bloom password',
    text: [
      `Hello ${user.firstName},`,
      '',
      `${reason} To choose a new password, open:`,
      link,
      '',
      'The link works once, for one hour. If you did not ask for this, ignore this email.',
    ].join('\n'),
  });
}

const INVALID_LINK = 'This password reset link is invalid or has expired';

export async function setPassword(deps: ServerServices, fields: Fields): Promise<void> {
  const id = requiredString(fields, 'id', 'Request id', 64);
  const secret = requiredString(fields, 'secret', 'Secret', 128);
  const password = requiredPassword(fields);
  const problem = checkNewPassword(password);
  if (problem) {
    throw fieldError(problem, 'password');
  }
  const passwordHash = await hashPassword(password);
  const user = await systemRepo(deps.db).withTransaction(async (repo) => {
    const request = await repo
      .readResource<UserSecurityRequest>('UserSecurityRequest', id)
      .catch(() => undefined);
    if (
      !request ||
      request.used ||
      !secretsEqual(request.secret, secret) ||
      Date.parse(request.expiresAt ?? '') < Date.now()
    ) {
      throw new OperationOutcomeError(badRequest(INVALID_LINK));
    }
    const current = await repo.readResource<User>('User', request.user.reference?.split('/')[1] as string);
    // A link older than the user's last password change was issued to whoever had the account then.
    if (issuedBeforeCredentialsChange(current, request.meta?.lastUpdated)) {
      throw new OperationOutcomeError(badRequest(INVALID_LINK));
    }
    // Compare-and-set: two uses of one link cannot both set a password.
    await repo.updateResource<UserSecurityRequest>(
      { ...request, used: true },
      { ifMatch: request.meta?.versionId },
    );
    const { resource } = await repo.updateResource<User>(withNewPassword(current, passwordHash), {
      ifMatch: current.meta?.versionId,
    });
    return resource;
  });
  await forgetFailedGuesses(deps.db, deps.throttles, user);
}
