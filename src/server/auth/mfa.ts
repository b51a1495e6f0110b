// Time-based one-time passwords (RFC 6238) with otpauth: enrolment for a signed-in user, and the
// MFA step of a sign-in. Wrong codes are throttled per user.
import type { Login, User } from '@medplum/fhirtypes';
import { Secret, TOTP } from 'otpauth';
import { badRequest, OperationOutcomeError } from '../../fhir';
import type { ServerServices } from '../services';
import { systemRepo } from '../services';
import type { LoginResponse } from './logins';
import { nextLoginStep, readPendingLogin } from './logins';
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

async function checkToken(deps: ServerServices, user: User, token: string): Promise<void> {
  const key = `User/${user.id}`;
  await deps.throttles.mfa.check(deps.db, key, 'MFA');
  const valid = !!user.mfaSecret && totpFor(user, user.mfaSecret).validate({ token, window: 1 }) !== null;
  if (!valid) {
    await deps.throttles.mfa.recordFailure(deps.db, key);
    throw fieldError('Invalid MFA token', 'token');
  }
  await deps.throttles.mfa.reset(deps.db, key);
}

function readToken(fields: Fields): string {
  const token = requiredString(fields, 'token', 'MFA code', 16);
  if (!/^\d{6}$/.test(token)) {
    throw fieldError('MFA code must be 6 digits', 'token');
  }
  return token;
}

/** POST auth/mfa/enroll: without a token, the pending secret; with one, verifies it and enrols. */
export async function mfaEnroll(deps: ServerServices, user: User, fields: Fields): Promise<MfaStatus> {
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
  await checkToken(deps, user, token);
  await systemRepo(deps.db).updateResource<User>(
    { ...user, mfaEnrolled: true },
    { ifMatch: user.meta?.versionId },
  );
  return { enrolled: true };
}

/** POST auth/mfa/verify {login, token}: the MFA step of a sign-in. */
export async function mfaVerify(deps: ServerServices, fields: Fields): Promise<LoginResponse> {
  const login = await readPendingLogin(deps.db, requiredString(fields, 'login', 'Login', 64));
  const token = readToken(fields);
  const repo = systemRepo(deps.db);
  const user = await repo.readResource<User>('User', login.user.reference?.split('/')[1] as string);
  if (!user.mfaEnrolled) {
    throw new OperationOutcomeError(badRequest('MFA is not enrolled for this user'));
  }
  await checkToken(deps, user, token);
  const { resource } = await repo.updateResource<Login>(
    { ...login, mfaVerified: true },
    { ifMatch: login.meta?.versionId },
  );
  return nextLoginStep(deps.db, resource, user);
}
