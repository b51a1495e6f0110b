// The per-address MFA throttle on its own, over HTTP from distinct loopback source addresses: one
// address sending wrong codes for several accounts (each pair kept under its own free failures)
// waits, with a wait that doubles and then ends; another address completing MFA for one of those
// accounts, and an account's owner from a clean address, do not wait. SPEC §7 (auth/mfa/verify).
import { ADDRESS_RULE, PAIR_RULE } from '../../../src/server/auth/throttle';
import { databases } from '../support/test-databases';
import { startTestServerInTempDir } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { outcomeText, PASSWORD, pkce, postForm, practitionerAccount } from './support/auth-fixtures';
import { loopback, postJsonFrom } from './support/loopback-http';
import { codeAt, enrolMfa, wrongCode } from './support/totp-fixtures';

interface LoginAnswer {
  login?: string;
  code?: string;
  mfaRequired?: boolean;
}

interface MfaAccount {
  email: string;
  secret: string;
}

// Enough failures to pass the address's free ones, spread so that no (user, address) pair reaches
// its own: whatever waits below waits by the address rule alone.
const FAILURES = ADDRESS_RULE.freeFailures + 1;
const PER_ACCOUNT = PAIR_RULE.freeFailures - 1;
const ACCOUNTS = Math.ceil(FAILURES / PER_ACCOUNT);
const ADDRESS_WAIT = 'Too many failed MFA attempts from your address; try again in';

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe.each(databases())('the per-address MFA throttle on %s', (_engine, kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServerInTempDir(kind, { requireAuth: true });
  });

  afterAll(async () => {
    await server.close();
  });

  async function mfaAccount(): Promise<MfaAccount> {
    const email = await practitionerAccount(server.db);
    return { email, secret: await enrolMfa(server.baseUrl, email) };
  }

  /** The right password from `source`: the pending login that waits for its MFA code. */
  async function passwordStep(source: string, email: string, challenge = pkce().challenge): Promise<string> {
    const step = await postJsonFrom<LoginAnswer>(source, `${server.baseUrl}auth/login`, {
      email,
      password: PASSWORD,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(step.body).toEqual({ login: expect.any(String), mfaRequired: true });
    return step.body.login as string;
  }

  function verify(source: string, login: string, token: string) {
    return postJsonFrom<LoginAnswer>(source, `${server.baseUrl}auth/mfa/verify`, { login, token });
  }

  test('one address with wrong codes for several accounts waits, growing; others complete MFA', async () => {
    const accounts: MfaAccount[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      accounts.push(await mfaAccount());
    }
    // Someone with these passwords tries codes from one address, round-robin over the accounts.
    const attacker = loopback(30, 1);
    const pending: string[] = [];
    for (const { email } of accounts) {
      pending.push(await passwordStep(attacker, email));
    }
    for (let n = 0; n < FAILURES; n++) {
      const i = n % ACCOUNTS;
      const wrong = await verify(attacker, pending[i], wrongCode(accounts[i].secret));
      expect(wrong.status).toBe(400);
      expect(outcomeText(wrong.body)).toBe('Invalid MFA token');
    }
    // The address waits, the right code notwithstanding (and that code is not spent).
    const waiting = await verify(attacker, pending[0], codeAt(accounts[0].secret));
    expect(waiting.status).toBe(429);
    expect(waiting.retryAfter).toBe('1');
    expect(outcomeText(waiting.body)).toBe(`${ADDRESS_WAIT} 1 second`);

    // Another address completing MFA for one of those accounts does not wait.
    const other = await verify(
      loopback(30, 2),
      await passwordStep(loopback(30, 2), accounts[1].email),
      codeAt(accounts[1].secret),
    );
    expect(other.status).toBe(200);
    expect(other.body.code).toEqual(expect.any(String));

    // The owner of the first account, from a clean address, signs in to the end: a session.
    const owner = loopback(30, 3);
    const { verifier, challenge } = pkce();
    const ownLogin = await passwordStep(owner, accounts[0].email, challenge);
    const verified = await verify(owner, ownLogin, codeAt(accounts[0].secret));
    expect(verified.status).toBe(200);
    const token = await postForm(`${server.baseUrl}oauth2/token`, {
      grant_type: 'authorization_code',
      code: verified.body.code as string,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    expect(token.body.access_token).toEqual(expect.any(String));

    // The wait doubles with the attacker's next failure...
    await pause(1100);
    expect((await verify(attacker, pending[2], wrongCode(accounts[2].secret))).status).toBe(400);
    const longer = await verify(attacker, pending[3], codeAt(accounts[3].secret));
    expect(longer.status).toBe(429);
    expect(longer.retryAfter).toBe('2');
    expect(outcomeText(longer.body)).toBe(`${ADDRESS_WAIT} 2 seconds`);
    // ...and ends: a delay, not a wall.
    await pause(2100);
    const after = await verify(attacker, pending[3], codeAt(accounts[3].secret));
    expect(after.status).toBe(200);
    expect(after.body.code).toEqual(expect.any(String));
  }, 120_000);
});
