import { createHmac } from 'node:crypto';
import type { GenericEndpointContext } from '@better-auth/core';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { deleteSessionCookie, parseCookies } from 'better-auth/cookies';
import { generateRandomString } from 'better-auth/crypto';
import { TWO_FACTOR_ERROR_CODES, twoFactor } from 'better-auth/plugins/two-factor';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.ts';
import * as schema from '../db/schema.ts';

/** The web page that asks for the second factor; `redirect` says where to go once it is given. */
export const SECOND_FACTOR_PAGE = '/two-factor';

/** How long a sign-in waits for its second factor (better-auth's two-factor cookie lifetime). */
export const SECOND_FACTOR_TTL_SECONDS = 10 * 60;

/** Consecutive wrong second-factor codes on one account, across sign-ins, before it is locked. */
export const SECOND_FACTOR_LOCKOUT_AFTER = 10;
export const SECOND_FACTOR_LOCKOUT_SECONDS = 15 * 60;

/** Backup codes made at enrolment, each usable once. */
export const BACKUP_CODE_COUNT = 10;

/**
 * better-auth's provider ids of the sign-ins the portal itself authenticates (password, Google):
 * these are followed by the second factor, and a member who has one of them must enrol when the
 * organisation requires it. A member who signs in only through an organisation's identity provider
 * is authenticated, MFA included, by that provider (docs/security.md).
 */
export const SECOND_FACTOR_PROVIDER_IDS: readonly string[] = ['credential', 'google'];

/** Whether the user would have to enrol a second factor were their organisation to require one. */
export function mustEnrolWhenRequired(user: {
  twoFactorEnabled: boolean;
  signInProviders: readonly string[];
}) {
  return (
    !user.twoFactorEnabled &&
    user.signInProviders.some((provider) => SECOND_FACTOR_PROVIDER_IDS.includes(provider))
  );
}

/** The sign-ins whose session is deleted again, for a challenge, when the user has a second factor. */
const GATED_SIGN_IN_PATHS = new Set(['/sign-in/email', '/callback/:id']);

/**
 * Whether a session being made is the first step of a sign-in that still needs the second factor
 * (better-auth makes the session, then the two-factor hooks delete it): it is no login yet.
 */
export async function awaitsSecondFactor(
  executor: Executor,
  userId: string,
  path: string | undefined,
): Promise<boolean> {
  if (!path || !GATED_SIGN_IN_PATHS.has(path)) return false;
  const [user] = await executor
    .select({ twoFactorEnabled: schema.user.twoFactorEnabled })
    .from(schema.user)
    .where(eq(schema.user.id, userId));
  return user?.twoFactorEnabled === true;
}

/**
 * Whether the user's authenticator is confirmed: a session the second-factor endpoints make before
 * that is the one enrolment makes in place of the enrolling session, not a sign-in.
 */
export async function hasConfirmedSecondFactor(executor: Executor, userId: string): Promise<boolean> {
  const [factor] = await executor
    .select({ verified: schema.twoFactor.verified })
    .from(schema.twoFactor)
    .where(eq(schema.twoFactor.userId, userId));
  return factor?.verified === true;
}

/** The endpoints that finish a sign-in with a second factor (or confirm enrolment, for the first). */
export const SECOND_FACTOR_PATHS: ReadonlySet<string> = new Set([
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
]);

/** better-auth's two-factor plugin's challenge cookie (before the portal's cookie prefix). */
const CHALLENGE_COOKIE = 'two_factor';

/**
 * A Google sign-in's challenge is named so (the password sign-in's, better-auth's own, are `2fa-`
 * and 20 letters and digits), so the sign-in the second factor finishes can say what came first.
 */
const GOOGLE_CHALLENGE_PREFIX = '2fa-google-';

/** The sign-in a second factor finishes: a password's, or Google's (its challenge is named so). */
export function firstFactorOfChallenge(cookieHeader: string | null | undefined): 'password' | 'google' {
  const cookies = parseCookies(cookieHeader ?? '');
  const challenge = [...cookies].find(([name]) => name.endsWith(`.${CHALLENGE_COOKIE}`))?.[1] ?? '';
  return challenge.startsWith(GOOGLE_CHALLENGE_PREFIX) ? 'google' : 'password';
}

/** The user a sign-in's second-factor challenge (its signed cookie) is for, or undefined without one. */
export async function challengedUserId(ctx: GenericEndpointContext): Promise<string | undefined> {
  const identifier = await challengeIdentifier(ctx);
  if (!identifier) return undefined;
  return (await ctx.context.internalAdapter.findVerificationValue(identifier))?.value;
}

async function challengeIdentifier(ctx: GenericEndpointContext): Promise<string | undefined> {
  const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE);
  return (await ctx.getSignedCookie(cookie.name, ctx.context.secret)) || undefined;
}

const VERIFY_TOTP_PATH = '/two-factor/verify-totp';

/**
 * How long an accepted authenticator code is remembered: longer than the 90 s the plugin accepts a
 * code (its 30 s step and one either side), with room for clocks of several servers.
 */
export const USED_TOTP_CODE_MEMORY_SECONDS = 3 * 60;

const memoryStart = sql`now() - make_interval(secs => ${USED_TOTP_CODE_MEMORY_SECONDS})`;

/**
 * Each authenticator code is accepted once per user. better-auth's plugin checks a code against the
 * previous, current and next 30 s step and remembers none, so a code seen over a shoulder or phished
 * could be used again for up to 90 s. A code it accepted is claimed here, as an HMAC of the user and
 * the code, by one atomic upsert: two simultaneous uses claim it once. A code already used is
 * answered as a wrong code, counted as one, and gives no session.
 */
export function usedTotpCodes(db: Db, secret: string) {
  const hashOf = (userId: string, code: string) =>
    createHmac('sha256', secret).update(`used-totp-code:${userId}:${code}`).digest('base64url');

  async function wasUsed(userId: string, code: string): Promise<boolean> {
    const rows = await db
      .select({ userId: schema.usedTotpCode.userId })
      .from(schema.usedTotpCode)
      .where(
        and(
          eq(schema.usedTotpCode.userId, userId),
          eq(schema.usedTotpCode.codeHash, hashOf(userId, code)),
          gt(schema.usedTotpCode.usedAt, memoryStart),
        ),
      );
    return rows.length > 0;
  }

  /** Records the code as used; false when it already was (a remembered row is not taken over). */
  async function claim(userId: string, code: string): Promise<boolean> {
    const claimed = await db
      .insert(schema.usedTotpCode)
      .values({ userId, codeHash: hashOf(userId, code) })
      .onConflictDoUpdate({
        target: [schema.usedTotpCode.userId, schema.usedTotpCode.codeHash],
        set: { usedAt: sql`now()` },
        setWhere: lt(schema.usedTotpCode.usedAt, memoryStart),
      })
      .returning({ userId: schema.usedTotpCode.userId });
    await db.delete(schema.usedTotpCode).where(lt(schema.usedTotpCode.usedAt, memoryStart));
    return claimed.length === 1;
  }

  /** A wrong code on the account, as the plugin counts it: the 10th in a row locks it. */
  async function countAsWrong(userId: string) {
    const failed = sql`${schema.twoFactor.failedVerificationCount} + 1`;
    await db
      .update(schema.twoFactor)
      .set({
        failedVerificationCount: failed,
        lockedUntil: sql`case when ${failed} >= ${SECOND_FACTOR_LOCKOUT_AFTER} then now() + make_interval(secs => ${SECOND_FACTOR_LOCKOUT_SECONDS}) else ${schema.twoFactor.lockedUntil} end`,
      })
      .where(eq(schema.twoFactor.userId, userId));
  }

  return {
    wasUsed,
    /**
     * The database hook `session.create.before`: the plugin makes the session only once it has
     * accepted the code, so this is where the code is claimed. At enrolment (the factor is not
     * verified yet, and the plugin has already turned it on) the code is only recorded.
     */
    async sessionCreateBefore(
      session: { userId: string },
      context: { path?: string; body?: unknown } | null,
    ) {
      if (context?.path !== VERIFY_TOTP_PATH) return;
      const code = (context.body as { code?: unknown } | undefined)?.code;
      if (typeof code !== 'string') return;
      if (await claim(session.userId, code)) return;
      const [factor] = await db
        .select({ verified: schema.twoFactor.verified })
        .from(schema.twoFactor)
        .where(eq(schema.twoFactor.userId, session.userId));
      if (!factor?.verified) return;
      await countAsWrong(session.userId);
      throw APIError.from('UNAUTHORIZED', TWO_FACTOR_ERROR_CODES.INVALID_CODE);
    },
  };
}

export type UsedTotpCodes = ReturnType<typeof usedTotpCodes>;

/**
 * A sign-in's code that this user has already used is replaced, before the plugin sees it, by one
 * that is never right: the plugin then answers and counts it exactly as a wrong code (for the
 * challenge and the account) and the challenge stays open for the next code. Two simultaneous uses
 * both pass here and are settled by the claim when the session is made.
 */
function refuseUsedTotpCodes(usedCodes: UsedTotpCodes): BetterAuthPlugin {
  return {
    id: 'refuse-used-totp-codes',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === VERIFY_TOTP_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const body = ctx.body as Record<string, unknown> | undefined;
            if (typeof body?.code !== 'string' || body.code === '') return;
            const userId = await challengedUserId(ctx);
            if (!userId || !(await usedCodes.wasUsed(userId, body.code))) return;
            return { context: { body: { ...body, code: '' } } };
          }),
        },
      ],
    },
  };
}

/**
 * The issuer authenticator apps show: the portal's name without spaces, which some apps would show
 * as `+` or `%20` from the otpauth URI.
 */
export function totpIssuer(portalName: string): string {
  return portalName.trim().replace(/\s+/g, '-');
}

/**
 * A sign-in that ends in a redirect (Google) gets no session when the user has a second factor: the
 * session better-auth just made is deleted, a challenge is started exactly as the two-factor plugin
 * does after a password sign-in (the same cookie and verification rows, so its verify endpoints
 * finish it), and the browser goes to the second-factor page instead of where sign-in started.
 */
function secondFactorAfterRedirectSignIn(publicUrl: string): BetterAuthPlugin {
  return {
    id: 'second-factor-after-redirect-sign-in',
    hooks: {
      after: [
        {
          matcher: (context) => context.path === '/callback/:id',
          handler: createAuthMiddleware(async (ctx) => {
            const signedIn = ctx.context.newSession;
            if (!signedIn || (signedIn.user as { twoFactorEnabled?: boolean }).twoFactorEnabled !== true)
              return;
            deleteSessionCookie(ctx, true);
            await ctx.context.internalAdapter.deleteSession(signedIn.session.token);
            ctx.context.setNewSession(null);

            const identifier = `${GOOGLE_CHALLENGE_PREFIX}${generateRandomString(20)}`;
            const expiresAt = new Date(Date.now() + SECOND_FACTOR_TTL_SECONDS * 1000);
            await ctx.context.internalAdapter.createVerificationValue({
              value: signedIn.user.id,
              identifier,
              expiresAt,
            });
            await ctx.context.internalAdapter.createVerificationValue({
              value: '0',
              identifier: `2fa-attempts-${identifier}`,
              expiresAt,
            });
            const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE, {
              maxAge: SECOND_FACTOR_TTL_SECONDS,
            });
            await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);

            const page = new URL(SECOND_FACTOR_PAGE, publicUrl);
            const destination = landingPath(ctx.context.returned, publicUrl);
            if (destination) page.searchParams.set('redirect', destination);
            throw ctx.redirect(page.toString());
          }),
        },
      ],
    },
  };
}

/** The portal path the callback was about to send the browser to, or undefined when it is elsewhere. */
function landingPath(returned: unknown, publicUrl: string): string | undefined {
  const headers = (returned as { headers?: unknown } | undefined)?.headers;
  const location = headers instanceof Headers ? headers.get('location') : null;
  if (!location) return undefined;
  const url = new URL(location, publicUrl);
  if (url.origin !== new URL(publicUrl).origin) return undefined;
  const path = `${url.pathname}${url.search}`;
  return path === '/' ? undefined : path;
}

/**
 * Two-factor authentication with an authenticator app (TOTP, 6 digits every 30 s) and single-use
 * backup codes, both kept encrypted, each authenticator code accepted once. better-auth gates the password sign-in itself; the second plugin
 * gates Google's. Enabling asks for the password of members who have one; a member with no password
 * (Google only) proves it with the session alone.
 */
export function portalTwoFactor({
  publicUrl,
  portalName,
  usedCodes,
}: {
  publicUrl: string;
  portalName: string;
  usedCodes: UsedTotpCodes;
}) {
  return [
    refuseUsedTotpCodes(usedCodes),
    twoFactor({
      issuer: totpIssuer(portalName),
      allowPasswordless: true,
      totpOptions: { digits: 6, period: 30 },
      backupCodeOptions: { amount: BACKUP_CODE_COUNT, length: 10, storeBackupCodes: 'encrypted' },
      twoFactorCookieMaxAge: SECOND_FACTOR_TTL_SECONDS,
      accountLockout: {
        enabled: true,
        maxFailedAttempts: SECOND_FACTOR_LOCKOUT_AFTER,
        durationSeconds: SECOND_FACTOR_LOCKOUT_SECONDS,
      },
    }),
    secondFactorAfterRedirectSignIn(publicUrl),
  ];
}
