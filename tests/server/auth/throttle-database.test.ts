// Sign-in throttling counts live in the database, not in the server's memory (the architecture's
// rule "no state but the database"): FailureThrottle on a real database with a controlled
// clock, and two server instances on one database sharing the per-account and per-address counts.
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import type { Database } from '../../../src/server/db';
import { findFreePort } from '../../../src/server/free-port';
import { FailureThrottle } from '../../../src/server/auth/throttle';
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
  function throttle(maxFailures = 3, windowMs = 15 * MINUTE): FailureThrottle {
    scopeSeq += 1;
    return new FailureThrottle(`test-${scopeSeq}`, { maxFailures, windowMs }, () => clock);
  }

  test('counts failures per key and refuses with 429 once the limit is reached', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) {
      await t.check(db, 'a@example.org', 'login');
      await t.recordFailure(db, 'a@example.org');
    }
    const refused = await refusal(t.check(db, 'a@example.org', 'login'));
    expect(refused).toEqual({
      status: 'too-many-requests',
      text: 'Too many failed login attempts; try again in 15 minutes',
    });
    // Another key, and the same key in another scope, are untouched.
    await expect(t.check(db, 'b@example.org', 'login')).resolves.toBeUndefined();
    await expect(throttle().check(db, 'a@example.org', 'login')).resolves.toBeUndefined();
  });

  test('the refusal says the minutes left and ends when the window does', async () => {
    const t = throttle(2, 10 * MINUTE);
    await t.recordFailure(db, 'k');
    clock += 4 * MINUTE;
    await t.recordFailure(db, 'k');
    // The window started at the first failure: 10 min from it, 6 min left now.
    expect((await refusal(t.check(db, 'k', 'MFA'))).text).toBe(
      'Too many failed MFA attempts; try again in 6 minutes',
    );
    clock += 5 * MINUTE + 30_000;
    expect((await refusal(t.check(db, 'k', 'MFA'))).text).toBe(
      'Too many failed MFA attempts; try again in 1 minute',
    );
    clock += MINUTE;
    await expect(t.check(db, 'k', 'MFA')).resolves.toBeUndefined();
    // After the window a failure starts a new count at 1.
    await t.recordFailure(db, 'k');
    await expect(t.check(db, 'k', 'MFA')).resolves.toBeUndefined();
  });

  test('reset clears one key only', async () => {
    const t = throttle(1);
    await t.recordFailure(db, 'x');
    await t.recordFailure(db, 'y');
    await t.reset(db, 'x');
    await expect(t.check(db, 'x', 'login')).resolves.toBeUndefined();
    expect((await refusal(t.check(db, 'y', 'login'))).status).toBe('too-many-requests');
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
      const port = await findFreePort('localhost');
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

    test('per account: failures on one instance block the account on the other (429)', async () => {
      const email = await account();
      for (let i = 0; i < 5; i++) {
        const url = i % 2 === 0 ? server.baseUrl : otherUrl;
        expect((await postJson(`${url}auth/login`, { email, password: 'wrong-password' })).status).toBe(400);
      }
      for (const url of [server.baseUrl, otherUrl]) {
        const blocked = await postJson(`${url}auth/login`, { email, password: PASSWORD });
        expect(blocked.status).toBe(429);
        expect(outcomeText(blocked.body)).toBe('Too many failed login attempts; try again in 15 minutes');
        // RFC 9110 Retry-After in seconds, so clients wait rather than retry at once.
        const retryAfter = Number(blocked.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(14 * 60);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      }
    });

    test('per address: failures spread over both instances add up to the address limit', async () => {
      // The address counter is shared with the test above (same loopback address): start clean.
      await db.query("DELETE FROM auth_failure WHERE scope = 'address'");
      const email = await account();
      for (let i = 0; i < 20; i++) {
        const url = i % 2 === 0 ? server.baseUrl : otherUrl;
        const wrong = await postJson(`${url}auth/login`, {
          email: uniqueEmail('spray'),
          password: 'x'.repeat(9),
        });
        expect(wrong.status).toBe(400);
      }
      const blocked = await postJson(`${otherUrl}auth/login`, { email, password: PASSWORD });
      expect(blocked.status).toBe(429);
      // The first instance sees the same count.
      expect((await postJson(`${server.baseUrl}auth/login`, { email, password: PASSWORD })).status).toBe(429);
      await db.query("DELETE FROM auth_failure WHERE scope = 'address'");
      expect((await signIn(server.baseUrl, email)).access_token).toEqual(expect.any(String));
    });
  });
});
