import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';

/** Guesses allowed at one mailed code; the next one destroys the code. */
export const CODE_ALLOWED_ATTEMPTS = 5;

/** The mailed codes the portal checks: they match better-auth's emailOTP types. */
export type CodePurpose = 'email-verification' | 'forget-password';

function attemptKey(purpose: CodePurpose, email: string) {
  return `${purpose}:${email.trim().toLowerCase()}`;
}

/** better-auth's emailOTP stores a code under `<type>-otp-<address>`. */
function storedCodeIdentifier(purpose: CodePurpose, email: string) {
  return `${purpose}-otp-${email.trim().toLowerCase()}`;
}

/**
 * Counts guesses at mailed codes in the database, one atomic upsert per guess, so that any number of
 * parallel guesses (on one server or several) are each counted before any is checked. better-auth's
 * own count is kept too, but it is read and written back in separate steps.
 */
export function codeAttempts(db: Db) {
  return {
    /**
     * Counts this guess; answers false when it is past the allowance, after destroying the code so
     * no later guess (right or wrong) can use it.
     */
    async admit(purpose: CodePurpose, email: string): Promise<boolean> {
      const [row] = await db
        .insert(schema.codeAttempt)
        .values({ identifier: attemptKey(purpose, email), attempts: 1 })
        .onConflictDoUpdate({
          target: schema.codeAttempt.identifier,
          set: { attempts: sql`${schema.codeAttempt.attempts} + 1`, updatedAt: sql`now()` },
        })
        .returning({ attempts: schema.codeAttempt.attempts });
      if ((row?.attempts ?? 0) <= CODE_ALLOWED_ATTEMPTS) return true;
      await db
        .delete(schema.verification)
        .where(eq(schema.verification.identifier, storedCodeIdentifier(purpose, email)));
      return false;
    },

    /** A new code was sent (or the code was used): its guesses start again from zero. */
    async reset(purpose: CodePurpose, email: string) {
      await db.delete(schema.codeAttempt).where(eq(schema.codeAttempt.identifier, attemptKey(purpose, email)));
    },
  };
}
