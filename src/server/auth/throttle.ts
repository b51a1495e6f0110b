// Throttling of failed attempts (passwords, MFA codes) per key: per account and per remote address.
// Counted in this process's memory: enough for one server; several instances each keep their own count.
import { OperationOutcomeError, tooManyRequests } from '../../fhir';

export interface ThrottleRule {
  /** Failures allowed within the window before further attempts are refused. */
  maxFailures: number;
  windowMs: number;
}

interface Bucket {
  failures: number;
  resetAt: number;
}

export class FailureThrottle {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly now: () => number = Date.now,
  ) {}

  private live(key: string): Bucket | undefined {
    const bucket = this.buckets.get(key);
    if (bucket && bucket.resetAt <= this.now()) {
      this.buckets.delete(key);
      return undefined;
    }
    return bucket;
  }

  /** Throws 429 when `key` has used up its failures; `what` names them in the message. */
  check(key: string, what: string): void {
    const bucket = this.live(key);
    if (bucket && bucket.failures >= this.rule.maxFailures) {
      const minutes = Math.max(1, Math.ceil((bucket.resetAt - this.now()) / 60_000));
      throw new OperationOutcomeError(
        tooManyRequests(
          `Too many failed ${what} attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
        ),
      );
    }
  }

  recordFailure(key: string): void {
    const bucket = this.live(key);
    if (bucket) {
      bucket.failures += 1;
    } else {
      this.buckets.set(key, { failures: 1, resetAt: this.now() + this.rule.windowMs });
    }
    // Bound memory under a spray of addresses: drop expired buckets now and then.
    if (this.buckets.size > 10_000) {
      for (const [k] of this.buckets) {
        this.live(k);
      }
    }
  }

  reset(key: string): void {
    this.buckets.delete(key);
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
    account: new FailureThrottle({ maxFailures: 5, windowMs: FIFTEEN_MINUTES }, now),
    address: new FailureThrottle({ maxFailures: 20, windowMs: FIFTEEN_MINUTES }, now),
    mfa: new FailureThrottle({ maxFailures: 5, windowMs: FIFTEEN_MINUTES }, now),
  };
}
