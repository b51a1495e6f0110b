// Changes that would let a session thief keep an account (disable MFA, change the email, create a
// client secret) need proof that the person is there now: the current password in the request, or
// a sign-in with the password (or an identity provider) that began within FRESH_SIGN_IN_MS.
import type { User } from '@medplum/fhirtypes';
import { OperationOutcomeError, unauthorized } from '../../fhir';
import type { ServerServices } from '../services';
import type { AuthState } from './authenticate';
import { verifyPassword } from './passwords';
import type { Fields } from './request-fields';
import { fieldError, optionalString } from './request-fields';
import { isFreshSignIn, RECENT_AUTH_REQUIRED } from './fresh-sign-in';
import { pairKey } from './throttle';

export { RECENT_AUTH_REQUIRED };

/** Throws unless `password` is the user's current one or the session is a fresh sign-in. */
export async function requireRecentAuth(
  deps: ServerServices,
  auth: AuthState,
  fields: Fields,
  address: string,
): Promise<User> {
  const user = auth.user;
  if (!user) {
    throw new OperationOutcomeError(unauthorized);
  }
  const password = optionalString(fields, 'password', 1024);
  if (password === undefined) {
    if (isFreshSignIn(auth.login)) {
      return user;
    }
    throw fieldError(RECENT_AUTH_REQUIRED, 'password');
  }
  // Wrong passwords here are guesses like any other: the same throttles as auth/login.
  const account = (user.email ?? `User/${user.id}`).toLowerCase();
  const pair = pairKey(account, address);
  const { loginPair, loginAddress, loginAccount } = deps.throttles;
  await loginPair.check(deps.db, pair, 'password attempts for this account from your address');
  await loginAddress.check(deps.db, address, 'password attempts from your address');
  if (!(await verifyPassword(password, user.passwordHash))) {
    await loginPair.recordFailure(deps.db, pair);
    await loginAddress.recordFailure(deps.db, address);
    await loginAccount.recordFailure(deps.db, account);
    throw fieldError('Incorrect password', 'password');
  }
  return user;
}
