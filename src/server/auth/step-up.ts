// When an account's failure budget is reached (throttle.ts), the right credentials alone no longer
// finish a sign-in, but they are never refused outright: a user with MFA takes the MFA step as
// always; otherwise (and when the MFA budget is reached) the sign-in needs a link emailed to the
// account's address, which sets a new password and so also ends every earlier sign-in.
import type { User } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { emailResetLink } from './password-reset';

export const STEP_UP_MESSAGE =
  'Too many failed sign-ins were tried on this account, so we have emailed you a link: open it to choose a new password, then sign in';

/** Emails the link (at most a few per hour, so nobody can flood the mailbox) and says so. */
export async function requireEmailedLink(deps: ServerServices, user: User, what: string): Promise<never> {
  const key = `User/${user.id}`;
  if (!(await deps.throttles.stepUpMail.exhausted(deps.db, key))) {
    await deps.throttles.stepUpMail.recordFailure(deps.db, key);
    await emailResetLink(
      deps,
      user,
      `Someone tried many wrong ${what} on your Bloom account, so signing in now needs this link.`,
    );
  }
  throw new OperationOutcomeError(badRequest(STEP_UP_MESSAGE));
}
