// Sign-in throttling is not a lockout switch: whoever fails waits, per (account, address) pair and
// per address, with a wait that doubles; the right password from an address that has not been
// failing always signs in; an account's large budget of failures, when reached, asks for an emailed
// link instead of refusing, or, for a user with MFA, the MFA step (wrong codes throttled by the
// same rules, so that branch is no lockout either). Every request is real HTTP from its own loopback source address
// (127.0.x.y), and X-Forwarded-For counts only from a TRUST_PROXY proxy. SPEC §7 (auth/login).
import type { Login } from '@medplum/fhirtypes';
import {
  ACCOUNT_BUDGET,
  ADDRESS_RULE,
  createAuthThrottles,
  MFA_USER_BUDGET,
  PAIR_RULE,
} from '../../../src/server/auth/throttle';
import { STEP_UP_MESSAGE } from '../../../src/server/auth/step-up';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { Repository, systemContext } from '../../../src/server/repo';
import { keepCodeVerifier, medplumClient } from '../../conformance/medplum-sdk/support/medplum-client';
import { databases } from '../support/test-databases';
import { startTestServer, startTestServerInTempDir, outboxEmails } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  addMembership,
  createProject,
  createUser,
  outcomeText,
  PASSWORD,
  pkce,
  practitionerAccount,
  postForm,
  setPasswordLink,
} from './support/auth-fixtures';
import { loopback, postJsonFrom } from './support/loopback-http';
import { codeAt, enrolMfa, wrongCode } from './support/totp-fixtures';

const WRONG = 'not-the-password-9';
const INVALID = 'Email or password is invalid';

interface LoginAnswer {
  login?: string;
  code?: string;
}

describe.each(databases())('sign-in throttling is not a lockout on %s', (_engine, kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServerInTempDir(kind, { requireAuth: true });
  });

  afterAll(async () => {
    await server.close();
  });

  const account = (): Promise<string> => practitionerAccount(server.db);

  function login(source: string, email: string, password: string, headers: Record<string, string> = {}) {
    const { challenge } = pkce();
    return postJsonFrom<LoginAnswer>(
      source,
      `${server.baseUrl}auth/login`,
      { email, password, codeChallenge: challenge, codeChallengeMethod: 'S256' },
      headers,
    );
  }

  test('many failing addresses against one account: the user from a clean address signs in', async () => {
    const email = await account();
    for (let n = 1; n <= 12; n++) {
      const wrong = await login(loopback(1, n), email, WRONG);
      expect(wrong.status).toBe(400);
      expect(outcomeText(wrong.body)).toBe(INVALID);
    }
    const user = await login(loopback(1, 200), email, PASSWORD);
    expect(user.status).toBe(200);
    expect(user.body.code).toEqual(expect.any(String));
    // An address that failed fewer times than the free ones is no worse off.
    expect((await login(loopback(1, 7), email, PASSWORD)).body.code).toEqual(expect.any(String));
  });

  test('one (account, address) pair waits, growing; the account and the address stay open', async () => {
    const email = await account();
    const other = await account();
    const attacker = loopback(3, 1);
    for (let i = 0; i < PAIR_RULE.freeFailures + 1; i++) {
      expect((await login(attacker, email, WRONG)).status).toBe(400);
    }
    const waiting = await login(attacker, email, PASSWORD);
    expect(waiting.status).toBe(429);
    expect(waiting.retryAfter).toBe('1');
    expect(outcomeText(waiting.body)).toBe(
      'Too many failed login attempts for this account from your address; try again in 1 second',
    );
    // Another account from the same address, and the same account from another address: open.
    expect((await login(attacker, other, PASSWORD)).body.code).toEqual(expect.any(String));
    expect((await login(loopback(3, 2), email, PASSWORD)).body.code).toEqual(expect.any(String));
    // The wait doubles with the next failure...
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await login(attacker, email, WRONG)).status).toBe(400);
    expect((await login(attacker, email, PASSWORD)).retryAfter).toBe('2');
    // ...and ends: a delay, not a wall.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await login(attacker, email, PASSWORD)).body.code).toEqual(expect.any(String));
  });

  test('one address against many accounts: that address waits, the real user elsewhere signs in', async () => {
    const email = await account();
    const sprayer = loopback(2, 1);
    for (let i = 0; i < ADDRESS_RULE.freeFailures + 1; i++) {
      expect((await login(sprayer, await account(), WRONG)).status).toBe(400);
    }
    const waiting = await login(sprayer, email, PASSWORD);
    expect(waiting.status).toBe(429);
    expect(outcomeText(waiting.body)).toBe(
      'Too many failed login attempts from your address; try again in 1 second',
    );
    expect(waiting.retryAfter).toBe('1');
    expect((await login(loopback(2, 2), email, PASSWORD)).body.code).toEqual(expect.any(String));
    // 22 accounts and 21 sign-ins, each a password hash: the same allowance as the tests below.
  }, 120_000);

  test.each([5, 50, 500])(
    "an attacker's %i bad requests from 2 addresses at once cannot keep the user out",
    async (requests) => {
      const email = await account();
      const answers: Record<number, number> = {};
      const block = 40 + String(requests).length;
      // Two addresses at once, each sending its share as fast as it can (each wrong password costs
      // the server a password hash, so the test keeps the addresses few; many addresses: above).
      await Promise.all(
        Array.from({ length: 2 }, async (_, n) => {
          for (let i = n; i < requests; i += 2) {
            const { status } = await login(loopback(block, n + 1), email, WRONG);
            answers[status] = (answers[status] ?? 0) + 1;
          }
        }),
      );
      const total = Object.values(answers).reduce((a, b) => a + b, 0);
      expect(total).toBe(requests);
      // Every refused one was 400 (a wrong password checked) or 429 (that address waiting).
      expect(Object.keys(answers).every((status) => status === '400' || status === '429')).toBe(true);
      console.log(`${requests} bad requests: ${JSON.stringify(answers)} (status: count)`);
      const user = await login(loopback(4, 250), email, PASSWORD);
      expect(user.status).toBe(200);
      expect(user.body.code).toEqual(expect.any(String));
    },
    120_000,
  );

  test('without TRUST_PROXY a spoofed X-Forwarded-For is ignored: the peer address is the client', async () => {
    const email = await account();
    const peer = loopback(5, 1);
    for (let i = 0; i < PAIR_RULE.freeFailures + 1; i++) {
      const wrong = await login(peer, email, WRONG, { 'x-forwarded-for': `10.20.30.${i + 1}` });
      expect(wrong.status).toBe(400);
    }
    const waiting = await login(peer, email, PASSWORD, { 'x-forwarded-for': '10.20.30.99' });
    expect(waiting.status).toBe(429);
    const clean = await login(loopback(5, 2), email, PASSWORD, { 'x-forwarded-for': '10.20.30.1' });
    expect(clean.body.code).toEqual(expect.any(String));
    const repo = new Repository(server.db, systemContext());
    const recorded = await repo.readResource<Login>('Login', clean.body.login as string);
    expect(recorded.remoteAddress).toBe(loopback(5, 2));
  });
});

describe.each(databases())('the account budget on %s', (_engine, kind) => {
  // Production's budget is ACCOUNT_BUDGET failures a day; reaching it here takes SMALL_BUDGET, so
  // the test costs seconds (each wrong password is a real password hash).
  const SMALL_BUDGET = 6;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServerInTempDir(kind, {
      requireAuth: true,
      build: {
        throttles: createAuthThrottles(undefined, {
          account: { ...ACCOUNT_BUDGET, maxFailures: SMALL_BUDGET },
          mfaUser: MFA_USER_BUDGET,
        }),
      },
    });
  });

  afterAll(async () => {
    await server.close();
  });

  const account = (): Promise<string> => practitionerAccount(server.db);

  function login(source: string, email: string, password: string) {
    return postJsonFrom<LoginAnswer>(source, `${server.baseUrl}auth/login`, {
      email,
      password,
      codeChallenge: pkce().challenge,
      codeChallengeMethod: 'S256',
    });
  }

  test('the account budget reached: the right password gets an emailed link, not a refusal; the link lets the user in', async () => {
    const email = await account();
    // One failure from each of many addresses: no pair or address ever waits.
    for (let n = 0; n < SMALL_BUDGET; n++) {
      const wrong = await login(loopback(10, n + 1), email, WRONG);
      expect(wrong.status).toBe(400);
    }
    const stepUp = await login(loopback(9, 1), email, PASSWORD);
    expect(stepUp.status).toBe(400);
    expect(outcomeText(stepUp.body)).toBe(STEP_UP_MESSAGE);
    const mail = outboxEmails(server).find((text) => text.includes(`To: ${email}`)) as string;
    expect(mail).toContain('Someone tried many wrong passwords on your Bloom account');
    const { id, secret } = setPasswordLink(mail);
    const set = await postJsonFrom(loopback(9, 1), `${server.baseUrl}auth/setpassword`, {
      id,
      secret,
      password: 'Fresh-Harbor-Lane-42',
    });
    expect(set.status).toBe(200);
    // A new password starts the budget again: the user signs in with it.
    expect((await login(loopback(9, 1), email, 'Fresh-Harbor-Lane-42')).body.code).toEqual(
      expect.any(String),
    );
  }, 120_000);

  describe('a user with MFA', () => {
    /** A user enrolled with the previous step's code, so the current and next steps sign in later. */
    async function enrolledAccount(): Promise<{ email: string; secret: string }> {
      const email = await account();
      return { email, secret: await enrolMfa(server.baseUrl, email) };
    }

    /** Fails the account's whole budget, one wrong password from each of many addresses. */
    async function spendBudget(email: string, block: number): Promise<void> {
      for (let n = 0; n < SMALL_BUDGET; n++) {
        expect((await login(loopback(block, n + 1), email, WRONG)).status).toBe(400);
      }
    }

    function verify(source: string, loginId: string, token: string) {
      return postJsonFrom<LoginAnswer>(source, `${server.baseUrl}auth/mfa/verify`, { login: loginId, token });
    }

    test('the budget reached: the right password leads to the MFA step, not a refusal; the right code signs in', async () => {
      const { email, secret } = await enrolledAccount();
      await spendBudget(email, 13);
      const mailsBefore = outboxEmails(server).filter((text) => text.includes(`To: ${email}`)).length;
      const user = loopback(14, 1);
      const { verifier, challenge } = pkce();
      const step = await postJsonFrom<LoginAnswer & { mfaRequired?: boolean }>(
        user,
        `${server.baseUrl}auth/login`,
        { email, password: PASSWORD, codeChallenge: challenge, codeChallengeMethod: 'S256' },
      );
      expect(step.status).toBe(200);
      expect(step.body).toEqual({ login: expect.any(String), mfaRequired: true });
      const verified = await verify(user, step.body.login as string, codeAt(secret));
      expect(verified.status).toBe(200);
      const token = await postForm(`${server.baseUrl}oauth2/token`, {
        grant_type: 'authorization_code',
        code: verified.body.code as string,
        code_verifier: verifier,
      });
      expect(token.status).toBe(200);
      // The second factor was the step-up: no emailed link was needed, none was sent.
      expect(outboxEmails(server).filter((text) => text.includes(`To: ${email}`))).toHaveLength(mailsBefore);
    }, 120_000);

    test('past the budget, wrong codes make their address wait; they cannot keep the user out', async () => {
      const { email, secret } = await enrolledAccount();
      await spendBudget(email, 15);
      // Whoever has the password (and so reaches the MFA step) tries codes from one address.
      const guesser = loopback(16, 1);
      const guessed = await login(guesser, email, PASSWORD);
      expect(guessed.body).toEqual({ login: expect.any(String), mfaRequired: true });
      for (let i = 0; i < PAIR_RULE.freeFailures + 1; i++) {
        const wrong = await verify(guesser, guessed.body.login as string, wrongCode(secret));
        expect(wrong.status).toBe(400);
        expect(outcomeText(wrong.body)).toBe('Invalid MFA token');
      }
      const waiting = await verify(guesser, guessed.body.login as string, codeAt(secret));
      expect(waiting.status).toBe(429);
      expect(waiting.retryAfter).toBe('1');
      expect(outcomeText(waiting.body)).toBe(
        'Too many failed MFA attempts for this account from your address; try again in 1 second',
      );
      // More wrong passwords from yet more addresses change nothing for the user at her address.
      await spendBudget(email, 17);
      const user = loopback(18, 1);
      const own = await login(user, email, PASSWORD);
      expect(own.body).toEqual({ login: expect.any(String), mfaRequired: true });
      const verified = await verify(user, own.body.login as string, codeAt(secret, 30_000));
      expect(verified.status).toBe(200);
      expect(verified.body.code).toEqual(expect.any(String));
    }, 120_000);

    test("Medplum's MedplumClient past the budget: startLogin, the MFA step, processCode", async () => {
      const { email, secret } = await enrolledAccount();
      await spendBudget(email, 19);
      const medplum = await medplumClient(server.baseUrl);
      const { verifier, challenge } = pkce();
      const started = (await medplum.startLogin({
        email,
        password: PASSWORD,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      })) as LoginAnswer & { mfaRequired?: boolean };
      expect(started).toEqual({ login: expect.any(String), mfaRequired: true });
      // As Medplum's MfaForm does: auth/mfa/verify, then the code exchanged by processCode.
      const verified = (await medplum.post('auth/mfa/verify', {
        login: started.login,
        token: codeAt(secret),
      })) as LoginAnswer;
      keepCodeVerifier(medplum, verifier);
      await medplum.processCode(verified.code as string);
      expect(medplum.getProfile()?.resourceType).toBe('Practitioner');
    }, 120_000);
  });
});

describe.each(databases())('TRUST_PROXY on %s', (_engine, kind) => {
  let server: TestServer;
  const proxy = loopback(6, 1);

  beforeAll(async () => {
    server = await startTestServer(kind, { TRUST_PROXY: `${proxy}, 10.99.0.0/16` }, { requireAuth: true });
  });

  afterAll(async () => {
    await server.close();
  });

  function login(source: string, email: string, password: string, forwardedFor: string) {
    return postJsonFrom<LoginAnswer>(
      source,
      `${server.baseUrl}auth/login`,
      { email, password, codeChallenge: pkce().challenge, codeChallengeMethod: 'S256' },
      { 'x-forwarded-for': forwardedFor },
    );
  }

  test("from a trusted proxy, X-Forwarded-For's client is the address throttled and recorded", async () => {
    const project = await createProject(server.db);
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Practitioner');
    const email = user.email as string;
    for (let i = 0; i < PAIR_RULE.freeFailures + 1; i++) {
      expect((await login(proxy, email, WRONG, '192.0.2.10')).status).toBe(400);
    }
    expect((await login(proxy, email, PASSWORD, '192.0.2.10')).status).toBe(429);
    // Another client behind the same proxy is not the attacker.
    const other = await login(proxy, email, PASSWORD, '192.0.2.11');
    expect(other.body.code).toEqual(expect.any(String));
    const repo = new Repository(server.db, systemContext());
    expect((await repo.readResource<Login>('Login', other.body.login as string)).remoteAddress).toBe(
      '192.0.2.11',
    );
    // A peer that is not a trusted proxy cannot pick its address: its own is used.
    const untrusted = loopback(6, 2);
    const direct = await login(untrusted, email, PASSWORD, '192.0.2.10');
    expect(direct.body.code).toEqual(expect.any(String));
    expect((await repo.readResource<Login>('Login', direct.body.login as string)).remoteAddress).toBe(
      untrusted,
    );
  });
});

describe('TRUST_PROXY configuration', () => {
  test('off by default; addresses and CIDRs accepted; anything else fails at start-up naming it', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/2', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(`TRUST_PROXY must be a comma-separated list`);
    }
  });
});
