// Sign-in throttling counts live in the database, not in the server's memory (the architecture's
// rule "no state but the database"): FailureThrottle and FailureBudget on a real database with a
// controlled clock, and two server instances on one database sharing the pair and address counts.
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import type { Database } from '../../../src/server/db';
import { findTestPort } from '../../support/test-port';
import { FailureBudget, FailureThrottle } from '../../../src/server/auth/throttle';
import { OperationOutcomeError } from '../../../src/fhir';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  addMembership,
  createProject,
  createUser,
  outcomeText,
  PASSWORD,
  postJson,
  signIn,
  uniqueEmail,
} from './support/auth-fixtures';

const MINUTE = 60_000;

async function refusal(promise: Promise<void>): Promise<{ status: string | undefined; text: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OperationOutcomeError) {
      return { status: err.outcome.id, text: err.outcome.issue?.[0]?.details?.text ?? '' };
    }
    throw err;
  }
  throw new Error('expected a refusal');
}

describe.each(databases())('throttle counts in the database on %s', (_engine, kind) => {
  let server: TestServer;
  let db: Database;
  let clock: number;
  let scopeSeq = 0;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    db = server.db;
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    clock = Date.parse('2026-03-01T10:00:00Z');
  });

  /** A throttle of its own scope, so tests never see each other's counts. */
  function throttle(freeFailures = 3, forgetAfterMs = 60 * MINUTE): FailureThrottle {
    scopeSeq += 1;
    return new FailureThrottle(
      `test-${scopeSeq}`,
      { freeFailures, firstDelayMs: 1000, maxDelayMs: 15 * MINUTE, forgetAfterMs },
      () => clock,
    );
  }

  function budget(maxFailures: number, windowMs = 60 * MINUTE): FailureBudget {
    scopeSeq += 1;
    return new FailureBudget(`test-${scopeSeq}`, { maxFailures, windowMs }, () => clock);
  }

  test('free failures, then a wait that doubles with each further failure, up to its cap', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) {
      await t.check(db, 'a@example.org', 'login attempts');
      await t.recordFailure(db, 'a@example.org');
    }
    // Three free failures: no wait yet.
    await expect(t.check(db, 'a@example.org', 'login attempts')).resolves.toBeUndefined();
    const waits: string[] = [];
    for (let i = 0; i < 5; i++) {
      await t.recordFailure(db, 'a@example.org');
      waits.push((await refusal(t.check(db, 'a@example.org', 'login attempts'))).text);
      clock += t.delayAfter(4 + i);
      await expect(t.check(db, 'a@example.org', 'login attempts')).resolves.toBeUndefined();
    }
    expect(waits).toEqual([
      'Too many failed login attempts; try again in 1 second',
      'Too many failed login attempts; try again in 2 seconds',
      'Too many failed login attempts; try again in 4 seconds',
      'Too many failed login attempts; try again in 8 seconds',
      'Too many failed login attempts; try again in 16 seconds',
    ]);
    expect(t.delayAfter(3)).toBe(0);
    expect(t.delayAfter(13)).toBe(512_000);
    expect(t.delayAfter(14)).toBe(15 * MINUTE);
    expect(t.delayAfter(5000)).toBe(15 * MINUTE);
    // Another key, and the same key in another scope, are untouched.
    await t.recordFailure(db, 'a@example.org');
    expect((await refusal(t.check(db, 'a@example.org', 'login attempts'))).status).toBe('too-many-requests');
    await expect(t.check(db, 'b@example.org', 'login attempts')).resolves.toBeUndefined();
    await expect(throttle().check(db, 'a@example.org', 'login attempts')).resolves.toBeUndefined();
  });

  test('long waits are said in minutes; the count is forgotten after a quiet period', async () => {
    const t = throttle(0, 30 * MINUTE);
    for (let i = 0; i < 12; i++) await t.recordFailure(db, 'k');
    // 2^11 s = 2048 s = 34.1 minutes, capped at 15.
    expect((await refusal(t.check(db, 'k', 'MFA attempts'))).text).toBe(
      'Too many failed MFA attempts; try again in 15 minutes',
    );
    clock += 29 * MINUTE;
    await expect(t.check(db, 'k', 'MFA attempts')).resolves.toBeUndefined();
    // Still remembered: one more failure waits the cap again.
    await t.recordFailure(db, 'k');
    expect((await refusal(t.check(db, 'k', 'MFA attempts'))).text).toMatch(/15 minutes$/);
    clock += 31 * MINUTE;
    // Forgotten: a failure starts over at 1, which is free... but this rule has none free.
    await t.recordFailure(db, 'k');
    expect((await refusal(t.check(db, 'k', 'MFA attempts'))).text).toMatch(/1 second$/);
  });

  test('reset clears one key only', async () => {
    const t = throttle(0);
    await t.recordFailure(db, 'x');
    await t.recordFailure(db, 'y');
    await t.reset(db, 'x');
    await expect(t.check(db, 'x', 'login attempts')).resolves.toBeUndefined();
    expect((await refusal(t.check(db, 'y', 'login attempts'))).status).toBe('too-many-requests');
  });

  test('a budget counts failures in a fixed window and is exhausted at its maximum', async () => {
    const b = budget(3, 10 * MINUTE);
    for (let i = 0; i < 2; i++) await b.recordFailure(db, 'acct');
    expect(await b.exhausted(db, 'acct')).toBe(false);
    clock += 9 * MINUTE;
    await b.recordFailure(db, 'acct');
    expect(await b.exhausted(db, 'acct')).toBe(true);
    expect(await b.exhausted(db, 'other')).toBe(false);
    // The window began at the first failure: it ends 10 minutes after it, not after the last.
    clock += 2 * MINUTE;
    expect(await b.exhausted(db, 'acct')).toBe(false);
  });

  test('concurrent failures are all counted (one upsert each, no lost updates)', async () => {
    const t = throttle(100);
    await Promise.all(Array.from({ length: 12 }, () => t.recordFailure(db, 'burst')));
    const { rows } = await db.query<{ failures: number }>(
      `SELECT failures FROM auth_failure WHERE scope = $1 AND key = 'burst'`,
      [`test-${scopeSeq}`],
    );
    expect(rows[0].failures).toBe(12);
  });

  test('expired counts are removed as new failures arrive (the table stays bounded)', async () => {
    const t = throttle(5, MINUTE);
    for (let i = 0; i < 5; i++) await t.recordFailure(db, `spray-${i}`);
    clock += 2 * MINUTE;
    await t.recordFailure(db, 'late');
    const { rows } = await db.query<{ key: string }>('SELECT key FROM auth_failure WHERE scope = $1', [
      `test-${scopeSeq}`,
    ]);
    expect(rows.map((r) => r.key)).toEqual(['late']);
  });

  describe('two server instances on one database', () => {
    let other: FastifyInstance;
    let otherUrl: string;

    beforeAll(async () => {
      const port = await findTestPort('localhost');
      const config = loadConfig({ PORT: String(port), LOG_LEVEL: 'silent', APP_PORT: '3000' });
      other = await buildServer({ config, db });
      await other.listen({ port, host: 'localhost' });
      otherUrl = config.baseUrl;
    });

    afterAll(async () => {
      await other.close();
    });

    async function account(): Promise<string> {
      const project = await createProject(db);
      const user = await createUser(db);
      await addMembership(db, user, project, 'Patient');
      return user.email as string;
    }

    test('per (account, address): failures on one instance make the pair wait on the other', async () => {
      const email = await account();
      for (let i = 0; i < 6; i++) {
        const url = i % 2 === 0 ? server.baseUrl : otherUrl;
        expect((await postJson(`${url}auth/login`, { email, password: 'wrong-password' })).status).toBe(400);
      }
      for (const url of [server.baseUrl, otherUrl]) {
        const waiting = await postJson(`${url}auth/login`, { email, password: PASSWORD });
        expect(waiting.status).toBe(429);
        expect(outcomeText(waiting.body)).toBe(
          'Too many failed login attempts for this account from your address; try again in 1 second',
        );
        // RFC 9110 Retry-After in seconds, so clients wait rather than retry at once.
        expect(waiting.headers.get('retry-after')).toBe('1');
      }
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await signIn(otherUrl, email)).access_token).toEqual(expect.any(String));
    });

    test('per address: failures spread over both instances add up to the address rule', async () => {
      // The address counter is shared with the test above (same loopback address): start clean.
      await db.query("DELETE FROM auth_failure WHERE scope = 'login-address'");
      const email = await account();
      for (let i = 0; i < 21; i++) {
        const url = i % 2 === 0 ? server.baseUrl : otherUrl;
        const wrong = await postJson(`${url}auth/login`, {
          email: uniqueEmail('spray'),
          password: 'x'.repeat(9),
        });
        expect(wrong.status).toBe(400);
      }
      const waiting = await postJson(`${otherUrl}auth/login`, { email, password: PASSWORD });
      expect(waiting.status).toBe(429);
      expect(outcomeText(waiting.body)).toMatch(
        /^Too many failed login attempts from your address; try again in 1 second$/,
      );
      // The first instance sees the same count.
      expect((await postJson(`${server.baseUrl}auth/login`, { email, password: PASSWORD })).status).toBe(429);
      await db.query("DELETE FROM auth_failure WHERE scope = 'login-address'");
      expect((await signIn(server.baseUrl, email)).access_token).toEqual(expect.any(String));
    });
  });
});
