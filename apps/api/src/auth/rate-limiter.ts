export type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const ALLOWED: LimitResult = { allowed: true };

function refusedUntil(resetAt: number, now: number): LimitResult {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
}

/**
 * Fixed-window counters keyed by a string (an IP, an address, an IP and an address). Kept in memory:
 * one portal process guards its own traffic (decision 004).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one attempt for the key; answers the seconds to wait when the limit is passed. */
  hit(key: string, limit: number, windowMs: number): LimitResult {
    const window = this.current(key, windowMs);
    window.count += 1;
    return window.count > limit ? refusedUntil(window.resetAt, this.now()) : ALLOWED;
  }

  /** Whether one more attempt fits, without counting it (for limits that count only failures). */
  check(key: string, limit: number): LimitResult {
    const window = this.windows.get(key);
    const now = this.now();
    if (!window || window.resetAt <= now || window.count < limit) return ALLOWED;
    return refusedUntil(window.resetAt, now);
  }

  /** Counts an attempt without deciding anything; answers the count in the window so far. */
  record(key: string, windowMs: number): number {
    const window = this.current(key, windowMs);
    window.count += 1;
    return window.count;
  }

  private current(key: string, windowMs: number) {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 50_000) this.sweep(now);
    }
    return window;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * The slow, per-account brake on password guessing from many addresses. Once an account has had
 * `after` failed sign-ins within the window, attempts on it, from anywhere, are spaced at least
 * `spacingMs` apart. It never refuses for longer than the spacing, so the owner signing in from a new
 * address waits a few seconds at most, while guesses spread over a botnet slow to one per spacing.
 */
export class AccountBackoff {
  private readonly failures: RateLimiter;
  private readonly lastAttemptAt = new Map<string, number>();

  constructor(
    private readonly options: { after: number; windowMs: number; spacingMs: number },
    private readonly now: () => number = Date.now,
  ) {
    this.failures = new RateLimiter(now);
  }

  /** Takes the account's next slot when it is braked; refuses with the wait when the slot is not free yet. */
  admit(account: string): LimitResult {
    if (this.failures.check(account, this.options.after).allowed) return ALLOWED;
    const now = this.now();
    const last = this.lastAttemptAt.get(account);
    if (last !== undefined && now - last < this.options.spacingMs) return refusedUntil(last + this.options.spacingMs, now);
    this.lastAttemptAt.set(account, now);
    if (this.lastAttemptAt.size > 50_000) this.sweep(now);
    return ALLOWED;
  }

  recordFailure(account: string) {
    this.failures.record(account, this.options.windowMs);
  }

  private sweep(now: number) {
    for (const [account, at] of this.lastAttemptAt) if (now - at >= this.options.spacingMs) this.lastAttemptAt.delete(account);
  }
}
