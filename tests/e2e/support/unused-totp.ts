// TOTP codes the server has not seen yet: each time step completes one enrolment or sign-in
// (SPEC §4), so a step already used for this secret is skipped; the server accepts one step ahead
// for clock drift, and past that the code waits for the next step.
import { Secret, TOTP } from 'otpauth';

const STEP_MS = 30_000;
const lastStepBySecret = new Map<string, number>();

export async function unusedTotp(secret: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(now, (lastStepBySecret.get(secret) ?? -1) + 1);
    if (step <= now + 1) {
      lastStepBySecret.set(secret, step);
      return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * STEP_MS });
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
