// The local check of a 6-digit code from an authenticator app (SPEC §5 MFA code required), shared by
// enrolment and turning two-step sign-in off.
export function validateMfaCode(code: string): { token?: string } {
  const trimmed = code.trim();
  if (trimmed === '') return { token: 'MFA code is required' };
  if (!/^\d{6}$/.test(trimmed)) return { token: 'MFA code must be 6 digits' };
  return {};
}
