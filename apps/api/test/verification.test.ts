import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import {
  useTestApp,
  expectApiError,
  jsonRequest,
  latestCode,
  mailsTo,
  signInRequest,
  signUp,
  verifyEmail,
} from './helper.ts';

const testApp = useTestApp();
let app: FastifyInstance;

beforeAll(() => {
  app = testApp.app;
});

async function signUpUnverified(email: string) {
  const response = await signUp(app, email);
  expect(response.statusCode).toBe(200);
  return latestCode(app, email, 'confirmation_code');
}

function aDifferentCode(code: string) {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

describe('email verification', () => {
  it('refuses sign-in before verification with EMAIL_NOT_VERIFIED', async () => {
    await signUpUnverified('unverified@acme.io');
    const response = await signInRequest(app, 'unverified@acme.io');
    expectApiError(response, 403, 'EMAIL_NOT_VERIFIED');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a wrong code with 400 and still accepts the right one', async () => {
    const code = await signUpUnverified('wrong-code@acme.io');
    expectApiError(await verifyEmail(app, 'wrong-code@acme.io', aDifferentCode(code)), 400, 'INVALID_OTP');
    expectApiError(await signInRequest(app, 'wrong-code@acme.io'), 403, 'EMAIL_NOT_VERIFIED');
    expect((await verifyEmail(app, 'wrong-code@acme.io', code)).statusCode).toBe(200);
  });

  it('refuses an expired code with OTP_EXPIRED', async () => {
    const email = 'expired@acme.io';
    const code = await signUpUnverified(email);
    const expired = await testApp.database.db
      .update(schema.verification)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(schema.verification.identifier, `email-verification-otp-${email}`))
      .returning({ id: schema.verification.id });
    expect(expired).toHaveLength(1);

    expectApiError(await verifyEmail(app, email, code), 400, 'OTP_EXPIRED');
    expectApiError(await signInRequest(app, email), 403, 'EMAIL_NOT_VERIFIED');
  });

  it('locks the code after too many wrong guesses', async () => {
    const email = 'guesser@acme.io';
    const code = await signUpUnverified(email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expectApiError(await verifyEmail(app, email, aDifferentCode(code)), 400, 'INVALID_OTP');
    }
    expectApiError(await verifyEmail(app, email, code), 403, 'TOO_MANY_ATTEMPTS');
    expectApiError(await signInRequest(app, email), 403, 'EMAIL_NOT_VERIFIED');
  });

  it('resends a new code that replaces the old one, then signs in', async () => {
    const email = 'resend@acme.io';
    const oldCode = await signUpUnverified(email);
    const mailsBefore = (await mailsTo(app, email)).length;

    const resend = await app.inject(
      jsonRequest('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'email-verification' }),
    );
    expect(resend.statusCode).toBe(200);
    expect(await mailsTo(app, email)).toHaveLength(mailsBefore + 1);
    const newCode = await latestCode(app, email, 'confirmation_code');

    if (newCode !== oldCode) {
      expectApiError(await verifyEmail(app, email, oldCode), 400, 'INVALID_OTP');
    }
    expect((await verifyEmail(app, email, newCode)).statusCode).toBe(200);
    // A code works once.
    expectApiError(await verifyEmail(app, email, newCode), 400);

    const signIn = await signInRequest(app, email);
    expect(signIn.statusCode).toBe(200);
    expect(String(signIn.headers['set-cookie'])).toContain('portal.session_token=');

    expectApiError(await signInRequest(app, email, 'Wr0ng!Password'), 401, 'INVALID_EMAIL_OR_PASSWORD');
  });

  it('answers a resend for an unknown address like any other, without sending mail', async () => {
    const email = 'nobody@acme.io';
    const resend = await app.inject(
      jsonRequest('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'email-verification' }),
    );
    expect(resend.statusCode).toBe(200);
    expect(await mailsTo(app, email)).toEqual([]);
  });
});
