import type { CounterWindow, RateLimitStore } from './rate-limit-stores.ts';

export type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const ALLOWED: LimitResult = { allowed: true };

function refusedUntilEndOf(window: CounterWindow): LimitResult {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(window.endsInMs / 1000)) };
}

/**
 * Fixed-window limits keyed by a string (an IP, an address, an IP and an address), counted in a
 * store every portal instance shares (decision 033), so a limit holds however many instances answer.
 */
export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /** Counts one attempt for the key; answers the seconds to wait when the limit is passed. */
  async hit(key: string, limit: number, windowMs: number): Promise<LimitResult> {
    const window = await this.store.hit(key, windowMs);
    return window.hits > limit ? refusedUntilEndOf(window) : ALLOWED;
  }

  /** Whether one more attempt fits, without counting it (for limits that count only failures). */
  async check(key: string, limit: number): Promise<LimitResult> {
    const window = await this.store.peek(key);
    return !window || window.hits < limit ? ALLOWED : refusedUntilEndOf(window);
  }

  /** Counts an attempt without deciding anything. */
  async record(key: string, windowMs: number): Promise<void> {
    await this.store.hit(key, windowMs);
  }
}

/**
 * The slow, per-account brake on password guessing from many addresses. Once an account has had
 * `after` failed sign-ins within the window, attempts on it, from anywhere, are spaced at least
 * `spacingMs` apart. It never refuses for longer than the spacing, so the owner signing in from a new
 * address waits a few seconds at most, while guesses spread over a botnet slow to one per spacing.
 */
export class AccountBackoff {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly options: { after: number; windowMs: number; spacingMs: number },
  ) {}

  /**
   * Takes the account's next slot when it is braked; refuses with the wait when the slot is not free
   * yet. A slot is a window of one spacing that admits one attempt: the first attempt opens it, the
   * ones after it are refused until it ends.
   */
  async admit(account: string): Promise<LimitResult> {
    if ((await this.limiter.check(`sign-in-account-failures:${account}`, this.options.after)).allowed)
      return ALLOWED;
    return this.limiter.hit(`sign-in-account-slot:${account}`, 1, this.options.spacingMs);
  }

  async recordFailure(account: string) {
    await this.limiter.record(`sign-in-account-failures:${account}`, this.options.windowMs);
  }
}
