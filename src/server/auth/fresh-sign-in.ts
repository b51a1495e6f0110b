// Whether a session began with the person proving who they are (password or identity provider)
// recently enough that a credential change may ride on it without asking for the password again.
import type { Login } from '@medplum/fhirtypes';

/** How recent a sign-in counts as fresh: long enough to finish a settings change, short for a thief. */
export const FRESH_SIGN_IN_MS = 5 * 60_000;

/** What a credential change answers when it needs the password or a fresh sign-in. */
export const RECENT_AUTH_REQUIRED = 'Enter your current password (or sign in again) to make this change';

const INTERACTIVE_METHODS = new Set(['password', 'google', 'external']);

export function isFreshSignIn(login: Login | undefined, now = Date.now()): boolean {
  return (
    !!login &&
    INTERACTIVE_METHODS.has(login.authMethod ?? '') &&
    now - Date.parse(login.authTime) <= FRESH_SIGN_IN_MS
  );
}
