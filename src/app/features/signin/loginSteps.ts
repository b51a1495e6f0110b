// Which sign-in screen a login response leads to (SPEC §4 "Password accepted: the response may require an
// MFA code, profile selection, project creation, scope choice, or return a code").
import type { ProjectMembership } from '@medplum/fhirtypes';
import type { LoginAuthenticationResponse } from '../../../client';

export type SignInStep =
  | { readonly kind: 'email' }
  | { readonly kind: 'password'; readonly email: string }
  | { readonly kind: 'mfa'; readonly login: string }
  | { readonly kind: 'profile'; readonly login: string; readonly memberships: readonly ProjectMembership[] }
  | { readonly kind: 'scope'; readonly login: string }
  | { readonly kind: 'project'; readonly login: string }
  | { readonly kind: 'success'; readonly code: string };

/**
 * The next step for a login response. `scopeToChoose` is true while the user still has to pick scopes
 * (scope choice enabled and not done yet): then a code waits until Set scope.
 */
export function nextStep(response: LoginAuthenticationResponse, scopeToChoose: boolean): SignInStep {
  if (response.mfaRequired) return { kind: 'mfa', login: response.login };
  if (response.code) {
    return scopeToChoose
      ? { kind: 'scope', login: response.login }
      : { kind: 'success', code: response.code };
  }
  if (response.memberships && response.memberships.length > 0) {
    return { kind: 'profile', login: response.login, memberships: response.memberships };
  }
  return { kind: 'project', login: response.login };
}
