import type { ErrorCode } from '@portal/contracts';
import { and, asc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CardAttemptLimits } from '../../config.ts';
import type { Executor, Tx } from '../../db/client.ts';
import { cardAttempt as attempts, CARD_ATTEMPT_PURPOSES } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/*
 * Card testing: someone with a list of stolen card numbers tries them one after another through a
 * portal's card form to learn which are live. Every use of a card (saving it, a top-up, paying an
 * invoice) is a `card_attempt` row, written pending before the gateway checks the card and settled
 * with its answer; declined and pending attempts within the window are counted per member, per
 * organisation and per client IP, in the database, so the limits hold across the portal's instances
 * and for requests made at once (decision 031, numbers in docs/security.md).
 */

/** How long a declined attempt counts. */
export const CARD_ATTEMPT_WINDOW_SECONDS = 10 * 60;

export type CardAttemptPurpose = (typeof CARD_ATTEMPT_PURPOSES)[number];

/** Who tries a card: counted against each of the three limits. */
export interface CardAttemptCaller {
  organizationId: string;
  memberId: string;
  ip: string;
}

/** The card refusals an attempt counts as declined for: the gateway checked the card and refused it. */
const DECLINED: readonly ErrorCode[] = [
  'CARD_DECLINED',
  'CARD_INSUFFICIENT_FUNDS',
  'CARD_EXPIRED',
  'CARD_NOT_SUPPORTED',
  'CARD_AUTHENTICATION_REQUIRED',
];

/** 429 `RATE_LIMITED`; the routes send `retryAfterSeconds` as `Retry-After`. */
export class CardAttemptsLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super('RATE_LIMITED', {
      message: `Too many card attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    });
  }
}

/** The start of the window, by the database's clock: the one clock every instance shares. */
const windowStart = sql`(now() - make_interval(secs => ${CARD_ATTEMPT_WINDOW_SECONDS}))`;

/**
 * Counts the caller's declined and pending attempts and writes this one pending, or refuses with
 * CardAttemptsLimitedError when any of the three is at its limit (`CARD_ATTEMPTS_PER_*`). The three
 * keys are locked for the rest of the transaction, always in the same order (so two requests never
 * wait on each other in a circle), and the count and the insert happen under them: two requests at
 * once are counted one after the other, on one instance or several. Answers the attempt's id, to
 * settle it with.
 */
export async function claimCardAttempt(
  tx: Tx,
  caller: CardAttemptCaller,
  purpose: CardAttemptPurpose,
  limits: CardAttemptLimits,
): Promise<number> {
  const keys: { name: string; value: string; column: AnyPgColumn; limit: number }[] = [
    {
      name: 'organization',
      value: caller.organizationId,
      column: attempts.organizationId,
      limit: limits.organization,
    },
    { name: 'member', value: caller.memberId, column: attempts.memberId, limit: limits.member },
    { name: 'ip', value: caller.ip, column: attempts.ip, limit: limits.ip },
  ];
  for (const key of keys) {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`card-attempt:${key.name}:${key.value}`}, 0))`,
    );
  }
  // What has left the window counts no more; the schedule removes the rest (deleteExpiredCardAttempts).
  await tx
    .delete(attempts)
    .where(and(or(...keys.map((key) => eq(key.column, key.value))), lt(attempts.createdAt, windowStart)));
  let retryAfterSeconds = 0;
  for (const key of keys) {
    const counted = await tx
      .select({
        leavesInSeconds:
          sql<number>`ceil(extract(epoch from ${attempts.createdAt} - ${windowStart}))`.mapWith(Number),
      })
      .from(attempts)
      .where(
        and(
          eq(key.column, key.value),
          inArray(attempts.outcome, ['pending', 'declined']),
          gt(attempts.createdAt, windowStart),
        ),
      )
      .orderBy(asc(attempts.createdAt));
    // Below the limit again once enough of the oldest have left the window.
    const freeing = counted[counted.length - key.limit];
    if (freeing) retryAfterSeconds = Math.max(retryAfterSeconds, freeing.leavesInSeconds, 1);
  }
  if (retryAfterSeconds > 0) throw new CardAttemptsLimitedError(retryAfterSeconds);
  const [row] = await tx
    .insert(attempts)
    .values({ ...caller, purpose })
    .returning({ id: attempts.id });
  if (!row) throw new Error('the card attempt was not written');
  return row.id;
}

/**
 * Runs the use of a card whose attempt was claimed, and settles the attempt with how it ended:
 * succeeded, or declined by a refusal of the card. One that ended otherwise (the gateway did not
 * answer, the charge is not confirmed) said nothing about the card and is not counted: it is removed.
 */
export async function settleCardAttemptWith<T>(db: Executor, id: number, use: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await use();
  } catch (error) {
    if (error instanceof AppError && DECLINED.includes(error.code)) {
      await db.update(attempts).set({ outcome: 'declined' }).where(eq(attempts.id, id));
    } else {
      await db.delete(attempts).where(eq(attempts.id, id));
    }
    throw error;
  }
  await db.update(attempts).set({ outcome: 'succeeded' }).where(eq(attempts.id, id));
  return result;
}

/** Removes every attempt that has left the window: nothing counts it any more. */
export async function deleteExpiredCardAttempts(executor: Executor): Promise<number> {
  const removed = await executor
    .delete(attempts)
    .where(lt(attempts.createdAt, windowStart))
    .returning({ id: attempts.id });
  return removed.length;
}
