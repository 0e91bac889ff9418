import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  databaseRateLimitStore,
  deleteEndedRateLimitCounters,
  redisRateLimitStore,
  type RateLimitStore,
} from '../auth/rate-limit-stores.ts';
import { AccountBackoff, RateLimiter, type LimitResult } from '../auth/rate-limiter.ts';
import type { Config } from '../config.ts';
import type { Executor } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { jobIdOf, type JobQueue, type JobWorkers } from './job-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

const HOUR_MS = 60 * 60 * 1000;
/** After this many failed sign-ins on one account in SIGN_IN_FAILURE_WINDOW_MS, attempts on it are spaced. */
export const SIGN_IN_BACKOFF_AFTER_FAILURES = 10;
const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_BACKOFF_SPACING_MS = 3000;

/** The mail a client can ask for without being signed in, or an inviter can send; each counted apart. */
export type MailKind = 'sign-up' | 'verification' | 'password-reset' | 'invitation';

function refuse(reply: FastifyReply, result: LimitResult) {
  if (result.allowed) return;
  reply.header('retry-after', String(result.retryAfterSeconds));
  throw new AppError('RATE_LIMITED', {
    message: `Too many attempts. Please wait ${result.retryAfterSeconds} seconds and try again.`,
  });
}

/**
 * The portal's request limits (numbers in docs/security.md). Every check refuses with 429
 * `RATE_LIMITED` and a Retry-After header. Addresses are compared lower-cased. The counts live in
 * the store every instance shares (decision 033).
 */
function createRateLimits(config: Config['rateLimit'], store: RateLimitStore) {
  const limiter = new RateLimiter(store);
  const windowMs = config.windowSeconds * 1000;
  const backoff = new AccountBackoff(limiter, {
    after: SIGN_IN_BACKOFF_AFTER_FAILURES,
    windowMs: SIGN_IN_FAILURE_WINDOW_MS,
    spacingMs: SIGN_IN_BACKOFF_SPACING_MS,
  });
  const signInFailureKey = (request: FastifyRequest, address: string) =>
    `sign-in-failures:${request.ip}:${address}`;

  return {
    /** Attempts at one endpoint from one IP, whatever the account. */
    async perIp(request: FastifyRequest, reply: FastifyReply, endpoint: string) {
      refuse(reply, await limiter.hit(`ip:${endpoint}:${request.ip}`, config.maxPerIp, windowMs));
    },

    /** Attempts at one endpoint for one address (an account, or the address a code was sent to). */
    async perAddress(reply: FastifyReply, endpoint: string, address: string) {
      refuse(
        reply,
        await limiter.hit(`address:${endpoint}:${address.toLowerCase()}`, config.maxPerAccount, windowMs),
      );
    },

    /**
     * A request that sends mail of one kind: counted once per client IP and once per recipient, each
     * per hour. `recipients` are addresses, or an id standing for one (an invitation being resent).
     */
    async mail(request: FastifyRequest, reply: FastifyReply, kind: MailKind, recipients: readonly string[]) {
      refuse(reply, await limiter.hit(`mail-ip:${kind}:${request.ip}`, config.mailPerIp, HOUR_MS));
      for (const recipient of recipients) {
        refuse(
          reply,
          await limiter.hit(`mail:${kind}:${recipient.toLowerCase()}`, config.mailPerAddress, HOUR_MS),
        );
      }
    },

    /**
     * Before a password sign-in: the IP's own failures on this account, then the account's brake. A
     * stranger's failures never count against the owner's IP, and the brake waits seconds, not minutes.
     */
    async beforeSignIn(request: FastifyRequest, reply: FastifyReply, address: string) {
      const account = address.toLowerCase();
      refuse(reply, await limiter.check(signInFailureKey(request, account), config.maxPerAccount));
      refuse(reply, await backoff.admit(account));
    },

    async signInFailed(request: FastifyRequest, address: string) {
      const account = address.toLowerCase();
      await limiter.record(signInFailureKey(request, account), windowMs);
      await backoff.recordFailure(account);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

export const RATE_LIMIT_COUNTERS_CLEANUP_QUEUE = 'rate-limit-counters-cleanup';

/**
 * Removes ended counters from the database on the billing schedule, as card attempts are: every
 * instance's schedule asks, and the job id (the schedule's slot) makes it one job across instances.
 * Redis expires its keys itself.
 */
class RateLimitCountersCleanup implements JobWorkers {
  readonly finishWithinMs = 5_000;

  constructor(
    private readonly deps: {
      db: Executor;
      jobQueue: JobQueue;
      scheduleSeconds: number;
    },
  ) {}

  async start() {
    const { deps } = this;
    const queue = { name: RATE_LIMIT_COUNTERS_CLEANUP_QUEUE, retryLimit: 0, expireInSeconds: 60 };
    await deps.jobQueue.defineQueue(queue);
    await deps.jobQueue.work(RATE_LIMIT_COUNTERS_CLEANUP_QUEUE, {}, async () => ({
      removed: await deleteEndedRateLimitCounters(deps.db),
    }));
    if (deps.scheduleSeconds === 0) return;
    deps.jobQueue.schedule('rate-limit counters cleanup', deps.scheduleSeconds * 1000, () => {
      const slot = String(Math.floor(Date.now() / (deps.scheduleSeconds * 1000)));
      return deps.jobQueue.send(
        RATE_LIMIT_COUNTERS_CLEANUP_QUEUE,
        { slot },
        { id: jobIdOf(RATE_LIMIT_COUNTERS_CLEANUP_QUEUE, slot) },
      );
    });
  }
}

/**
 * One set of limits for the whole server, shared by the routes that limit requests, counted in
 * Redis when REDIS_URL names one, else in the portal's database.
 */
export const rateLimitsPlugin = fp(
  async (app) => {
    const { config, database } = app;
    const { redisUrl, redisKeyPrefix } = config.rateLimit;
    const store = redisUrl
      ? await redisRateLimitStore({
          url: redisUrl,
          keyPrefix: redisKeyPrefix,
          onError: (error) => app.log.error({ err: error }, 'rate-limit store (Redis) error'),
        })
      : databaseRateLimitStore(database.db);
    app.addHook('onClose', () => store.close());
    if (!redisUrl) {
      app.jobQueue.addWorkers(
        new RateLimitCountersCleanup({
          db: database.db,
          jobQueue: app.jobQueue,
          scheduleSeconds: config.billingScheduleSeconds,
        }),
      );
    }
    app.decorate('rateLimits', createRateLimits(config.rateLimit, store));
  },
  { name: 'rate-limits', dependencies: ['config', 'database', 'job-queue'] },
);
