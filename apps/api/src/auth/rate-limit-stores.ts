import { createClient } from '@redis/client';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rateLimitCounter as counters } from '../db/schema.ts';
import { AppError } from '../errors.ts';

/** A key's open window: the hits counted in it so far and the time until it ends. */
export interface CounterWindow {
  hits: number;
  endsInMs: number;
}

/**
 * Where the rate limits count (decision 033): a place every portal instance shares, so two instances
 * do not double a limit. Each call is one atomic step in the store, so requests at once, on one
 * instance or several, are each counted.
 */
export interface RateLimitStore {
  /** Counts one hit on the key: in its open window, or in a new one of `windowMs` from now. */
  hit(key: string, windowMs: number): Promise<CounterWindow>;
  /** The key's open window without counting; undefined when it has none. */
  peek(key: string): Promise<CounterWindow | undefined>;
  close(): Promise<void>;
}

const endsInMs = sql<number>`ceil(extract(epoch from ${counters.windowEndsAt} - now()) * 1000)`.mapWith(
  Number,
);

/**
 * The counters in the portal's database (table `rate_limit_counter`), by the database's clock: the
 * one clock every instance shares. One upsert per hit: the row lock of ON CONFLICT DO UPDATE puts
 * hits at once one after the other. A window that has ended starts again at the next hit; the
 * schedule removes the rows nobody hits any more (deleteEndedRateLimitCounters).
 */
export function databaseRateLimitStore(db: Executor): RateLimitStore {
  const ended = sql`${counters.windowEndsAt} <= now()`;
  return {
    async hit(key, windowMs) {
      const [row] = await db
        .insert(counters)
        .values({ key, hits: 1, windowEndsAt: sql`now() + make_interval(secs => ${windowMs / 1000})` })
        .onConflictDoUpdate({
          target: counters.key,
          set: {
            hits: sql`CASE WHEN ${ended} THEN 1 ELSE ${counters.hits} + 1 END`,
            windowEndsAt: sql`CASE WHEN ${ended} THEN excluded.window_ends_at ELSE ${counters.windowEndsAt} END`,
          },
        })
        .returning({ hits: counters.hits, endsInMs });
      if (!row) throw new Error(`the rate-limit counter ${key} was not written`);
      return row;
    },

    async peek(key) {
      const [row] = await db
        .select({ hits: counters.hits, endsInMs })
        .from(counters)
        .where(and(eq(counters.key, key), gt(counters.windowEndsAt, sql`now()`)));
      return row;
    },

    // The database is the portal's own: it closes with the server.
    async close() {},
  };
}

/** Removes the counters whose window has ended: a hit on one of those keys starts a new row anyway. */
export async function deleteEndedRateLimitCounters(db: Executor): Promise<number> {
  const removed = await db
    .delete(counters)
    .where(lte(counters.windowEndsAt, sql`now()`))
    .returning({ key: counters.key });
  return removed.length;
}

/** INCR, and the window's expiry set by the hit that opens it; one script, so Redis runs it at once. */
const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

const PEEK_SCRIPT = `
local hits = redis.call('GET', KEYS[1])
if not hits then return false end
return {tonumber(hits), redis.call('PTTL', KEYS[1])}`;

/**
 * The counters in Redis (REDIS_URL), each key under `keyPrefix`, expiring with its window, so nothing
 * needs removing. Commands fail at once while Redis is unreachable rather than wait in a queue: a
 * request is refused with an error instead of hanging.
 */
export async function redisRateLimitStore(options: {
  url: string;
  keyPrefix: string;
  onError: (error: unknown) => void;
}): Promise<RateLimitStore> {
  const { url, keyPrefix } = options;
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      // At start an unreachable Redis fails the start (a portal without its limits must not serve);
      // once connected, a lost connection is retried, every 2 s at the slowest.
      reconnectStrategy: (retries, cause) => (connected ? Math.min(retries * 100, 2000) : cause),
    },
  });
  // Without a listener an error event would end the process.
  client.on('error', options.onError);
  await client.connect();
  connected = true;
  const window = (reply: unknown): CounterWindow => {
    const [hits, ttl] = reply as [number, number];
    return { hits, endsInMs: ttl };
  };
  // While Redis is away a limited request cannot be counted: it is refused as the service being
  // unavailable (503), as while the database is away, never let through uncounted nor answered 500.
  const counted = async (script: string, key: string, args: string[] = []) => {
    try {
      return await client.eval(script, { keys: [`${keyPrefix}${key}`], arguments: args });
    } catch (error) {
      options.onError(error);
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  };
  return {
    async hit(key, windowMs) {
      return window(await counted(HIT_SCRIPT, key, [String(Math.ceil(windowMs))]));
    },

    async peek(key) {
      const reply = await counted(PEEK_SCRIPT, key);
      return reply === null ? undefined : window(reply);
    },

    async close() {
      await client.close();
    },
  };
}
