import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccountBackoff, RateLimiter, type LimitResult } from '../auth/rate-limiter.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

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
 * `RATE_LIMITED` and a Retry-After header. Addresses are compared lower-cased.
 */
function createRateLimits(config: Config['rateLimit']) {
  const limiter = new RateLimiter();
  const windowMs = config.windowSeconds * 1000;
  const backoff = new AccountBackoff({
    after: SIGN_IN_BACKOFF_AFTER_FAILURES,
    windowMs: SIGN_IN_FAILURE_WINDOW_MS,
    spacingMs: SIGN_IN_BACKOFF_SPACING_MS,
  });
  const signInFailureKey = (request: FastifyRequest, address: string) =>
    `sign-in-failures:${request.ip}:${address}`;

  return {
    /** Attempts at one endpoint from one IP, whatever the account. */
    perIp(request: FastifyRequest, reply: FastifyReply, endpoint: string) {
      refuse(reply, limiter.hit(`ip:${endpoint}:${request.ip}`, config.maxPerIp, windowMs));
    },

    /** Attempts at one endpoint for one address (an account, or the address a code was sent to). */
    perAddress(reply: FastifyReply, endpoint: string, address: string) {
      refuse(
        reply,
        limiter.hit(`address:${endpoint}:${address.toLowerCase()}`, config.maxPerAccount, windowMs),
      );
    },

    /**
     * A request that sends mail of one kind: counted once per client IP and once per recipient, each
     * per hour. `recipients` are addresses, or an id standing for one (an invitation being resent).
     */
    mail(request: FastifyRequest, reply: FastifyReply, kind: MailKind, recipients: readonly string[]) {
      refuse(reply, limiter.hit(`mail-ip:${kind}:${request.ip}`, config.mailPerIp, HOUR_MS));
      for (const recipient of recipients) {
        refuse(reply, limiter.hit(`mail:${kind}:${recipient.toLowerCase()}`, config.mailPerAddress, HOUR_MS));
      }
    },

    /**
     * Before a password sign-in: the IP's own failures on this account, then the account's brake. A
     * stranger's failures never count against the owner's IP, and the brake waits seconds, not minutes.
     */
    beforeSignIn(request: FastifyRequest, reply: FastifyReply, address: string) {
      const account = address.toLowerCase();
      refuse(reply, limiter.check(signInFailureKey(request, account), config.maxPerAccount));
      refuse(reply, backoff.admit(account));
    },

    signInFailed(request: FastifyRequest, address: string) {
      const account = address.toLowerCase();
      limiter.record(signInFailureKey(request, account), windowMs);
      backoff.recordFailure(account);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

/** One set of counters for the whole server, shared by the routes that limit requests. */
export const rateLimitsPlugin = fp(
  async (app) => {
    app.decorate('rateLimits', createRateLimits(app.config.rateLimit));
  },
  { name: 'rate-limits', dependencies: ['config'] },
);
