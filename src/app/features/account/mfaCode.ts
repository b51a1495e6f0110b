// The local check of a 6-digit code from an authenticator app (SPEC §5 MFA code required), shared by
// enrolment and turning two-step sign-in off.
import { translate } from '../../i18n/i18n';
import { accountStrings } from './strings';

export function validateMfaCode(code: string): { token?: string } {
  const trimmed = code.trim();
  if (trimmed === '') return { token: translate(accountStrings.codeRequired) };
  if (!/^\d{6}$/.test(trimmed)) return { token: translate(accountStrings.codeSixDigits) };
  return {};
}
