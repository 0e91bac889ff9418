import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CODE_ALLOWED_ATTEMPTS } from '../src/auth/code-attempts.ts';
import * as schema from '../src/db/schema.ts';
import { expectApiError, jsonRequest, latestCode, signUp, signUpVerifiedUser, useTestApp, verifyEmail } from './helper.ts';

/*
 * On PostgreSQL requests really run side by side on several connections: every guess at a mailed
 * code must be counted, however many arrive at once, and a code past its allowance must be dead.
 */
const t = useTestApp();
const PARALLEL_GUESSES = 8;
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

async function countedGuesses(identifier: string) {
  const [row] = await t.database.db
    .select({ attempts: schema.codeAttempt.attempts })
    .from(schema.codeAttempt)
    .where(eq(schema.codeAttempt.identifier, identifier));
  return row?.attempts ?? 0;
}

describe('guesses at mailed codes on PostgreSQL', () => {
  it(`counts ${PARALLEL_GUESSES} parallel wrong verification codes, then refuses the right one`, async () => {
    const email = 'parallel-verify@acme.io';
    expect((await signUp(t.app, email)).statusCode).toBe(200);
    const code = await latestCode(t.app, email, 'confirmation_code');
    const guesses = await Promise.all(
      Array.from({ length: PARALLEL_GUESSES }, () => verifyEmail(t.app, email, wrongCode(code))),
    );
    expect(guesses.map((g) => g.statusCode)).not.toContain(200);
    expect(await countedGuesses(`email-verification:${email}`)).toBe(PARALLEL_GUESSES);
    expectApiError(await verifyEmail(t.app, email, code), 403, 'TOO_MANY_ATTEMPTS');
  });

  it(`counts ${PARALLEL_GUESSES} parallel wrong reset codes, then refuses the right one`, async () => {
    const email = 'parallel-reset@acme.io';
    await signUpVerifiedUser(t.app, email);
    await t.app.inject(jsonRequest('POST', '/api/auth/email-otp/request-password-reset', { email }));
    const code = await latestCode(t.app, email, 'code');
    const reset = (otp: string) =>
      t.app.inject(jsonRequest('POST', '/api/auth/email-otp/reset-password', { email, otp, password: 'N3w!Passw0rd-ok' }));
    const guesses = await Promise.all(Array.from({ length: PARALLEL_GUESSES }, () => reset(wrongCode(code))));
    expect(guesses.map((g) => g.statusCode)).not.toContain(200);
    expect(guesses.filter((g) => g.statusCode === 403)).toHaveLength(PARALLEL_GUESSES - CODE_ALLOWED_ATTEMPTS);
    expectApiError(await reset(code), 403, 'TOO_MANY_ATTEMPTS');
  });
});
