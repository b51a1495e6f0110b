// Throttling of failed attempts (passwords, MFA codes) per key: per account and per remote address.
// The counts live in the database (table auth_failure, auth/migrations.ts), not in this process, so
// every server instance behind a load balancer sees the same count (ARCHITECTURE: no state but the
// database).
import { tooManyRequests } from '../../fhir';
import type { Queryable } from '../db';
import { RetryAfterError } from '../retry-after';

export interface ThrottleRule {
  /** Failures allowed within the window before further attempts are refused. */
  maxFailures: number;
  windowMs: number;
}

interface CountRow {
  failures: number;
  reset_at: Date | string;
}

export class FailureThrottle {
  constructor(
    /** Keeps this throttle's keys apart from the others' in the one table. */
    private readonly scope: string,
    private readonly rule: ThrottleRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 when `key` has used up its failures; `what` names them in the message. */
  async check(db: Queryable, key: string, what: string): Promise<void> {
    const now = new Date(this.now());
    const { rows } = await db.query<CountRow>(
      'SELECT failures, reset_at FROM auth_failure WHERE scope = $1 AND key = $2 AND reset_at > $3',
      [this.scope, key, now],
    );
    const count = rows[0];
    if (count && count.failures >= this.rule.maxFailures) {
      const remainingMs = new Date(count.reset_at).getTime() - now.getTime();
      const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
      throw new RetryAfterError(
        tooManyRequests(
          `Too many failed ${what} attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
        ),
        Math.max(1, Math.ceil(remainingMs / 1000)),
      );
    }
  }

  /** One more failure for `key`, in one statement, so concurrent failures are all counted. */
  async recordFailure(db: Queryable, key: string): Promise<void> {
    const now = new Date(this.now());
    const resetAt = new Date(now.getTime() + this.rule.windowMs);
    await db.query(
      `INSERT INTO auth_failure AS f (scope, key, failures, reset_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (scope, key) DO UPDATE SET
         failures = CASE WHEN f.reset_at <= $4 THEN 1 ELSE f.failures + 1 END,
         reset_at = CASE WHEN f.reset_at <= $4 THEN EXCLUDED.reset_at ELSE f.reset_at END`,
      [this.scope, key, resetAt, now],
    );
    // Bound the table under a spray of addresses: expired counts go (an index range scan).
    await db.query('DELETE FROM auth_failure WHERE reset_at <= $1', [now]);
  }

  async reset(db: Queryable, key: string): Promise<void> {
    await db.query('DELETE FROM auth_failure WHERE scope = $1 AND key = $2', [this.scope, key]);
  }
}

/** The throttles of the sign-in flows. */
export interface AuthThrottles {
  /** Failed passwords per account (email, lower-cased). */
  account: FailureThrottle;
  /** Failed passwords per remote address (many accounts from one place). */
  address: FailureThrottle;
  /** Failed MFA codes per user. */
  mfa: FailureThrottle;
}

const FIFTEEN_MINUTES = 15 * 60_000;

export function createAuthThrottles(now?: () => number): AuthThrottles {
  return {
    account: new FailureThrottle('account', { maxFailures: 5, windowMs: FIFTEEN_MINUTES }, now),
    address: new FailureThrottle('address', { maxFailures: 20, windowMs: FIFTEEN_MINUTES }, now),
    mfa: new FailureThrottle('mfa', { maxFailures: 5, windowMs: FIFTEEN_MINUTES }, now),
  };
}
