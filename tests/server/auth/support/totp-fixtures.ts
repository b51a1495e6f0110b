// TOTP codes for MFA tests, computed as an authenticator app would from the user's secret.
import { Secret, TOTP } from 'otpauth';
import { getJson, postJson, signIn } from './auth-fixtures';

function totp(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret) });
}

/** The code of the step `shift` ms from now (the server accepts one step of drift either way). */
export function codeAt(secret: string, shift = 0): string {
  return totp(secret).generate({ timestamp: Date.now() + shift });
}

/** A well-formed code that is none of the three the server would accept now. */
export function wrongCode(secret: string): string {
  const right = [-30_000, 0, 30_000].map((shift) => codeAt(secret, shift));
  return ['000000', '111111', '222222', '333333'].find((code) => !right.includes(code)) as string;
}

/**
 * Enrols `email` in MFA with the previous step's code, so that the current and the next steps
 * each sign in once later (a code is spent when used). Returns the TOTP secret.
 */
export async function enrolMfa(baseUrl: string, email: string): Promise<string> {
  const auth = { authorization: `Bearer ${(await signIn(baseUrl, email)).access_token}` };
  const status = await getJson<{ secret: string }>(`${baseUrl}auth/mfa/status`, auth);
  const enrolled = await postJson(
    `${baseUrl}auth/mfa/enroll`,
    { token: codeAt(status.body.secret, -30_000) },
    auth,
  );
  if (status.status !== 200 || enrolled.status !== 200) {
    throw new Error(`MFA enrolment failed: ${enrolled.status} ${JSON.stringify(enrolled.body)}`);
  }
  return status.body.secret;
}
