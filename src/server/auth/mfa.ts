// Time-based one-time passwords (RFC 6238) with otpauth: enrolment for a signed-in user, and the
// MFA step of a sign-in, and disabling it. Wrong codes are throttled per (user, address) and per
// address; a code is spent when used (one sign-in per code).
import type { Login, User } from '@medplum/fhirtypes';
import { Secret, TOTP } from 'otpauth';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { LoginResponse } from './logins';
import { nextLoginStep, readPendingLogin } from './logins';
import type { AuthState } from './authenticate';
import { lastTotpStep, withTotpStep } from './credentials';
import { requireRecentAuth } from './recent-auth';
import { requireEmailedLink } from './step-up';
import { pairKey } from './throttle';
import type { Fields } from './request-fields';
import { fieldError, requiredString } from './request-fields';

const ISSUER = 'Bloom';

function totpFor(user: User, secret: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: user.email ?? user.id, secret: Secret.fromBase32(secret) });
}

export interface MfaStatus {
  enrolled: boolean;
  /** While not enrolled: the secret (base32) and its otpauth:// URL for an authenticator app's QR code. */
  secret?: string;
  enrollUri?: string;
}

/** The user's MFA state; a user not enrolled yet gets a pending secret (kept until enrolment). */
export async function mfaStatus(deps: ServerServices, user: User): Promise<MfaStatus> {
  if (user.mfaEnrolled) {
    return { enrolled: true };
  }
  let secret = user.mfaSecret;
  if (!secret) {
    secret = new Secret({ size: 20 }).base32;
    await systemRepo(deps.db).updateResource<User>(
      { ...user, mfaSecret: secret },
      { ifMatch: user.meta?.versionId },
    );
  }
  return { enrolled: false, secret, enrollUri: totpFor(user, secret).toString() };
}

/** The time step a code belongs to, or undefined when it is wrong now (one step either side allowed). */
function codeStep(user: User, token: string): number | undefined {
  if (!user.mfaSecret) {
    return undefined;
  }
  const totp = totpFor(user, user.mfaSecret);
  const timestamp = Date.now();
  const delta = totp.validate({ token, timestamp, window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp }) + delta;
}

const INVALID_TOKEN = 'Invalid MFA token';

/**
 * Checks a code and spends it: wrong codes are throttled per (user, address) and per address and
 * counted against the user's budget; a right one is remembered by its time step, so it completes
 * one sign-in only. Returns the User as written (its new version).
 */
async function spendToken(deps: ServerServices, user: User, token: string, address: string): Promise<User> {
  const { mfaPair, mfaAddress, mfaUser } = deps.throttles;
  const userKey = `User/${user.id}`;
  const pair = pairKey(userKey, address);
  await mfaPair.check(deps.db, pair, 'MFA attempts for this account from your address');
  await mfaAddress.check(deps.db, address, 'MFA attempts from your address');
  const step = codeStep(user, token);
  if (step === undefined) {
    await mfaPair.recordFailure(deps.db, pair);
    await mfaAddress.recordFailure(deps.db, address);
    await mfaUser.recordFailure(deps.db, userKey);
    throw fieldError(INVALID_TOKEN, 'token');
  }
  await mfaPair.reset(deps.db, pair);
  if (step <= lastTotpStep(user)) {
    throw fieldError('This MFA code was already used: wait for the next one', 'token');
  }
  try {
    // Compare-and-set: two requests with one code cannot both spend it.
    const { resource } = await systemRepo(deps.db).updateResource<User>(withTotpStep(user, step), {
      ifMatch: user.meta?.versionId,
    });
    return resource;
  } catch (err) {
    if (err instanceof OperationOutcomeError && err.outcome.id === 'precondition-failed') {
      throw fieldError('This MFA code was already used: wait for the next one', 'token');
    }
    throw err;
  }
}

function readToken(fields: Fields): string {
  const token = requiredString(fields, 'token', 'MFA code', 16);
  if (!/^\d{6}$/.test(token)) {
    throw fieldError('MFA code must be 6 digits', 'token');
  }
  return token;
}

/** POST auth/mfa/enroll: without a token, the pending secret; with one, verifies it and enrols. */
export async function mfaEnroll(
  deps: ServerServices,
  user: User,
  fields: Fields,
  address: string,
): Promise<MfaStatus> {
  if (user.mfaEnrolled) {
    throw new OperationOutcomeError(badRequest('MFA is already enrolled'));
  }
  if (fields.token === undefined) {
    return mfaStatus(deps, user);
  }
  const token = readToken(fields);
  if (!user.mfaSecret) {
    throw fieldError('Request an MFA secret first (auth/mfa/status)', 'token');
  }
  const spent = await spendToken(deps, user, token, address);
  await systemRepo(deps.db).updateResource<User>(
    { ...spent, mfaEnrolled: true },
    { ifMatch: spent.meta?.versionId },
  );
  return { enrolled: true };
}

/** POST auth/mfa/verify {login, token}: the MFA step of a sign-in. */
export async function mfaVerify(
  deps: ServerServices,
  fields: Fields,
  address: string,
): Promise<LoginResponse> {
  const login = await readPendingLogin(deps.db, requiredString(fields, 'login', 'Login', 64));
  const token = readToken(fields);
  const repo = systemRepo(deps.db);
  const user = await repo.readResource<User>('User', login.user.reference?.split('/')[1] as string);
  if (!user.mfaEnrolled) {
    throw new OperationOutcomeError(badRequest('MFA is not enrolled for this user'));
  }
  const spent = await spendToken(deps, user, token, address);
  // Past the user's budget of wrong codes a right one is not enough: whoever tries codes has the
  // password, so the emailed link (a new password) is the way in.
  if (await deps.throttles.mfaUser.exhausted(deps.db, `User/${user.id}`)) {
    await requireEmailedLink(deps, spent, 'MFA codes');
  }
  const { resource } = await repo.updateResource<Login>(
    { ...login, mfaVerified: true },
    { ifMatch: login.meta?.versionId },
  );
  return nextLoginStep(deps.db, resource, spent);
}

/**
 * POST auth/mfa/disable {token, password}: as Medplum, a current code; and the current password
 * unless the session is a fresh sign-in (recent-auth.ts). A new secret is kept for re-enrolment.
 */
export async function mfaDisable(
  deps: ServerServices,
  auth: AuthState,
  fields: Fields,
  address: string,
): Promise<void> {
  const user = await requireRecentAuth(deps, auth, fields, address);
  if (!user.mfaEnrolled) {
    throw new OperationOutcomeError(badRequest('MFA is not enrolled for this user'));
  }
  const token = readToken(fields);
  const spent = await spendToken(deps, user, token, address);
  await systemRepo(deps.db).updateResource<User>(
    { ...spent, mfaEnrolled: false, mfaSecret: new Secret({ size: 20 }).base32 },
    { ifMatch: spent.meta?.versionId },
  );
}
