import type { SessionChangeListener } from '../db/session-changes.ts';

/** What a read through the cache found: the answer, and until when it may be used (the session's end). */
export interface CacheableAnswer<T> {
  value: T;
  usableUntil: number;
}

interface Entry<T> extends CacheableAnswer<T> {
  keptAt: number;
}

export interface SessionCacheLimits {
  /** Past this many answers the oldest is dropped. */
  maxEntries: number;
  /**
   * No answer is used longer than this, whatever the notices say: a bound on the harm of a change
   * that reached no notice (a listening connection lost before anyone could tell).
   */
  maxAgeMs: number;
}

const SESSION_CACHE_LIMITS: SessionCacheLimits = { maxEntries: 5000, maxAgeMs: 30_000 };

/**
 * The session lookup's answers, kept in memory so a signed-in request need not ask the database
 * (decision 027). Every change the database reports to what the lookup reads (a session ended, a
 * member deleted or given another role, an organisation's settings, a user's second factor) empties
 * it at once, and an answer read while a change came in is not kept; while the change feed is not
 * live nothing is kept or used. Answers found nothing are not kept.
 */
export class SessionCache<T> implements SessionChangeListener {
  private readonly entries = new Map<string, Entry<T>>();
  /** Counts changes: an answer is kept only if no change came in while it was read. */
  private generation = 0;
  private isLive = false;
  /** Reads answered from memory and from the database since the server started (the metrics). */
  readonly lookups = { hits: 0, misses: 0 };

  constructor(
    private readonly limits: SessionCacheLimits = SESSION_CACHE_LIMITS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  changed(): void {
    this.generation += 1;
    this.entries.clear();
  }

  live(isLive: boolean): void {
    this.isLive = isLive;
    this.changed();
  }

  /** The kept answer for `key`, or `read()`'s, kept when nothing changed while it was read. */
  async read(key: string, read: () => Promise<CacheableAnswer<T> | undefined>): Promise<T | undefined> {
    const kept = this.usable(key);
    if (kept) {
      this.lookups.hits += 1;
      return kept.value;
    }
    this.lookups.misses += 1;
    const generation = this.generation;
    const found = await read();
    if (found && this.isLive && generation === this.generation && found.usableUntil > this.now()) {
      if (this.entries.size >= this.limits.maxEntries) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.set(key, { ...found, keptAt: this.now() });
    }
    return found?.value;
  }

  private usable(key: string): Entry<T> | undefined {
    if (!this.isLive) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (now < entry.usableUntil && now - entry.keptAt < this.limits.maxAgeMs) return entry;
    this.entries.delete(key);
    return undefined;
  }
}
