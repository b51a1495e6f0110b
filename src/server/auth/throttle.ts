// Throttling of failed attempts (passwords, MFA codes). Two kinds, on one table:
// - FailureThrottle: per (account, address) pair or per address, a wait that doubles with each
//   failure beyond a few free ones. It slows whoever is failing; it never shuts out someone else.
// - FailureBudget: a large count per account across all addresses, to cap slow distributed
//   guessing. Reaching it never refuses the right credentials: the sign-in asks for more proof.
// The counts live in the database (table auth_failure, auth/migrations.ts), not in this process, so
// every server instance behind a load balancer sees the same count (ARCHITECTURE: no state but the
// database).
import { tooManyRequests } from '../../fhir';
import type { Queryable } from '../db';
import { RetryAfterError } from '../retry-after';

export interface DelayRule {
  /** Failures allowed before any wait. */
  freeFailures: number;
  /** The wait after the first failure beyond the free ones; each further failure doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** A key's failures are forgotten after this long without a new one. */
  forgetAfterMs: number;
}

interface CountRow {
  failures: number;
  reset_at: Date | string;
}

async function readCount(
  db: Queryable,
  scope: string,
  key: string,
  now: Date,
): Promise<CountRow | undefined> {
  const { rows } = await db.query<CountRow>(
    'SELECT failures, reset_at FROM auth_failure WHERE scope = $1 AND key = $2 AND reset_at > $3',
    [scope, key, now],
  );
  return rows[0];
}

// Bound the table under a spray of addresses: expired counts go (an index range scan).
async function dropExpired(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM auth_failure WHERE reset_at <= $1', [now]);
}

async function deleteKey(db: Queryable, scope: string, key: string): Promise<void> {
  await db.query('DELETE FROM auth_failure WHERE scope = $1 AND key = $2', [scope, key]);
}

function waitText(seconds: number): string {
  if (seconds < 120) {
    return `${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export class FailureThrottle {
  constructor(
    /** Keeps this throttle's keys apart from the others' in the one table. */
    readonly scope: string,
    readonly rule: DelayRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** The wait after the last of `failures` failures (0 while they are free). */
  delayAfter(failures: number): number {
    const beyond = failures - this.rule.freeFailures;
    if (beyond <= 0) {
      return 0;
    }
    // 2^beyond overflows to Infinity long after the cap, so Math.min keeps it finite.
    return Math.min(this.rule.maxDelayMs, this.rule.firstDelayMs * 2 ** (beyond - 1));
  }

  /** Throws 429 with Retry-After while `key` is waiting; `what` names the attempts in the message. */
  async check(db: Queryable, key: string, what: string): Promise<void> {
    const now = new Date(this.now());
    const count = await readCount(db, this.scope, key, now);
    if (!count) {
      return;
    }
    // reset_at slides with each failure, so the last failure was forgetAfterMs before it.
    const lastFailure = new Date(count.reset_at).getTime() - this.rule.forgetAfterMs;
    const remainingMs = lastFailure + this.delayAfter(count.failures) - now.getTime();
    if (remainingMs > 0) {
      const seconds = Math.max(1, Math.ceil(remainingMs / 1000));
      throw new RetryAfterError(
        tooManyRequests(`Too many failed ${what}; try again in ${waitText(seconds)}`),
        seconds,
      );
    }
  }

  /** One more failure for `key`, in one statement, so concurrent failures are all counted. */
  async recordFailure(db: Queryable, key: string): Promise<void> {
    const now = new Date(this.now());
    const resetAt = new Date(now.getTime() + this.rule.forgetAfterMs);
    await db.query(
      `INSERT INTO auth_failure AS f (scope, key, failures, reset_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (scope, key) DO UPDATE SET
         failures = CASE WHEN f.reset_at <= $4 THEN 1 ELSE f.failures + 1 END,
         reset_at = EXCLUDED.reset_at`,
      [this.scope, key, resetAt, now],
    );
    await dropExpired(db, now);
  }

  async reset(db: Queryable, key: string): Promise<void> {
    await deleteKey(db, this.scope, key);
  }
}

export interface BudgetRule {
  maxFailures: number;
  /** The count starts at the first failure and ends this long after it. */
  windowMs: number;
}

export class FailureBudget {
  constructor(
    readonly scope: string,
    readonly rule: BudgetRule,
    private readonly now: () => number = Date.now,
  ) {}

  async exhausted(db: Queryable, key: string): Promise<boolean> {
    const count = await readCount(db, this.scope, key, new Date(this.now()));
    return !!count && count.failures >= this.rule.maxFailures;
  }

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
    await dropExpired(db, now);
  }

  async reset(db: Queryable, key: string): Promise<void> {
    await deleteKey(db, this.scope, key);
  }
}

/** The throttles of the sign-in flows. */
export interface AuthThrottles {
  /** Failed passwords per (account, address): the one place an attacker's guesses slow down. */
  loginPair: FailureThrottle;
  /** Failed passwords per address, over every account (spraying from one place). */
  loginAddress: FailureThrottle;
  /** Failed passwords per account over all addresses: reached, the sign-in needs more proof. */
  loginAccount: FailureBudget;
  /** Failed MFA codes per (user, address). */
  mfaPair: FailureThrottle;
  /** Failed MFA codes per address. */
  mfaAddress: FailureThrottle;
  /** Failed MFA codes per user over all addresses: reached, the sign-in needs the emailed link. */
  mfaUser: FailureBudget;
  /** Sign-in link emails per user (the step-up when a budget is reached), so nobody floods a mailbox. */
  stepUpMail: FailureBudget;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Pair and address rules: a few free failures, then 1 s, 2 s, 4 s, ... up to 15 minutes. */
export const PAIR_RULE: DelayRule = {
  freeFailures: 5,
  firstDelayMs: SECOND,
  maxDelayMs: 15 * MINUTE,
  forgetAfterMs: HOUR,
};
export const ADDRESS_RULE: DelayRule = {
  freeFailures: 20,
  firstDelayMs: SECOND,
  maxDelayMs: 15 * MINUTE,
  forgetAfterMs: HOUR,
};
/** Per account across all addresses, per day. */
export const ACCOUNT_BUDGET: BudgetRule = { maxFailures: 100, windowMs: DAY };
export const MFA_USER_BUDGET: BudgetRule = { maxFailures: 50, windowMs: DAY };
export const STEP_UP_MAIL_BUDGET: BudgetRule = { maxFailures: 3, windowMs: HOUR };

export interface ThrottleBudgets {
  account: BudgetRule;
  mfaUser: BudgetRule;
}

/** The production rules; tests may pass smaller budgets so that reaching one takes few requests. */
export function createAuthThrottles(
  now?: () => number,
  budgets: ThrottleBudgets = { account: ACCOUNT_BUDGET, mfaUser: MFA_USER_BUDGET },
): AuthThrottles {
  return {
    loginPair: new FailureThrottle('login-pair', PAIR_RULE, now),
    loginAddress: new FailureThrottle('login-address', ADDRESS_RULE, now),
    loginAccount: new FailureBudget('login-account', budgets.account, now),
    mfaPair: new FailureThrottle('mfa-pair', PAIR_RULE, now),
    mfaAddress: new FailureThrottle('mfa-address', ADDRESS_RULE, now),
    mfaUser: new FailureBudget('mfa-user', budgets.mfaUser, now),
    stepUpMail: new FailureBudget('step-up-mail', STEP_UP_MAIL_BUDGET, now),
  };
}

/** The key of one (account or user, address) pair. */
export function pairKey(account: string, address: string): string {
  return `${account} ${address}`;
}

/**
 * After a new password the guesses against the old one are moot: the account's budgets start again
 * (the pair and address waits stay: they slow whoever was failing, whatever they guess next).
 */
export async function forgetFailedGuesses(
  db: Queryable,
  throttles: AuthThrottles,
  user: { id?: string; email?: string },
): Promise<void> {
  if (user.email) {
    await throttles.loginAccount.reset(db, user.email.toLowerCase());
  }
  await throttles.mfaUser.reset(db, `User/${user.id}`);
}
