// What a User's credential changes leave behind, kept on the User itself (two extensions), so that
// one compare-and-set write of the User changes the credential and its consequences together:
// - credentials changed at: every Login (access token, refresh token, authorization code) and every
//   reset link issued before that instant stops working;
// - last TOTP step: a code completes one sign-in only.
// User is readable by super admins only (platform-guard.ts), so neither leaks to a project.
import type { Extension, User } from '@medplum/fhirtypes';

export const CREDENTIALS_CHANGED_URL =
  'https://bloom.example/fhir/StructureDefinition/credentials-changed-at';
export const TOTP_LAST_STEP_URL = 'https://bloom.example/fhir/StructureDefinition/totp-last-step';

function findExtension(user: User, url: string): Extension | undefined {
  return user.extension?.find((extension) => extension.url === url);
}

function withExtension(user: User, extension: Extension): User {
  const others = (user.extension ?? []).filter((existing) => existing.url !== extension.url);
  return { ...user, extension: [...others, extension] };
}

/** The instant (ms) of the user's last password change, or undefined when it never changed. */
export function credentialsChangedAt(user: User): number | undefined {
  const value = findExtension(user, CREDENTIALS_CHANGED_URL)?.valueInstant;
  return value ? Date.parse(value) : undefined;
}

/** The user with a new password hash: everything issued before now is void. */
export function withNewPassword(user: User, passwordHash: string, now = new Date()): User {
  return withExtension(
    { ...user, passwordHash },
    { url: CREDENTIALS_CHANGED_URL, valueInstant: now.toISOString() },
  );
}

/** Whether something issued at `issuedAt` (ISO time) predates the user's last credential change. */
export function issuedBeforeCredentialsChange(user: User, issuedAt: string | undefined): boolean {
  const changedAt = credentialsChangedAt(user);
  if (changedAt === undefined) {
    return false;
  }
  const issued = Date.parse(issuedAt ?? '');
  return !Number.isFinite(issued) || issued < changedAt;
}

/** The TOTP time step of the last code accepted for the user (-1 when none was). */
export function lastTotpStep(user: User): number {
  return findExtension(user, TOTP_LAST_STEP_URL)?.valueInteger ?? -1;
}

export function withTotpStep(user: User, step: number): User {
  return withExtension(user, { url: TOTP_LAST_STEP_URL, valueInteger: step });
}
