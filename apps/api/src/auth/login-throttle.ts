import { RateLimiter } from '../common/rate-limit';

/**
 * Sign-in guessing: after `free` failed tries for one key (an account's normalised login, or an
 * address), each further try must wait 2^(failures − free) seconds after the last failure
 * (1, 2, 4 … s, at most `maxDelaySeconds`). A try during the wait is refused without checking
 * the password, so guessing costs time however many requests are sent. A success clears the
 * account's failures (not the address's: one good account must not launder an address's
 * guesses); failures are forgotten `forgetSeconds` (a day) after the last one. In process, like RateLimiter.
 */
export class LoginThrottle {
  private failures = new Map<string, { count: number; last: number }>();

  constructor(
    readonly free: number,
    readonly maxDelaySeconds: number,
    readonly forgetSeconds = 86_400,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again (0: now). */
  wait(key: string): number {
    const f = this.current(key);
    if (!f || f.count < this.free) return 0;
    const delayMs = this.delaySeconds(f.count) * 1000;
    const left = f.last + delayMs - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  /** Wait after `count` failures, in seconds. */
  delaySeconds(count: number): number {
    if (count < this.free) return 0;
    return Math.min(this.maxDelaySeconds, 2 ** Math.min(30, count - this.free));
  }

  fail(key: string): void {
    const f = this.current(key);
    if (this.failures.size > 100_000) this.prune();
    this.failures.set(key, { count: (f?.count ?? 0) + 1, last: this.now() });
  }

  /** Takes back one counted failure (a try counted before its password was checked, that matched). */
  forgive(key: string): void {
    const f = this.failures.get(key);
    if (!f) return;
    if (f.count <= 1) this.failures.delete(key);
    else f.count--;
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }

  private current(key: string): { count: number; last: number } | undefined {
    const f = this.failures.get(key);
    if (f && this.now() - f.last >= this.forgetSeconds * 1000) {
      this.failures.delete(key);
      return undefined;
    }
    return f;
  }

  private prune(): void {
    const t = this.now();
    for (const [k, f] of this.failures) if (t - f.last >= this.forgetSeconds * 1000) this.failures.delete(k);
  }
}

/** The sign-in throttles of one API process: per account (the login as typed, normalised) and per address. */
export class SignInThrottles {
  constructor(
    readonly accounts: LoginThrottle,
    readonly addresses: LoginThrottle,
    /** Registrations per address and hour. */
    readonly registrations: RateLimiter,
  ) {}
}
