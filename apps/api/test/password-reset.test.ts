import { messages } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  STRONG_PASSWORD,
  bearerRequest,
  codeFromMail,
  useTestApp,
  expectApiError,
  jsonRequest,
  latestMail,
  mailsTo,
  signIn,
  signInRequest,
  signUpVerifiedUser,
} from './helper.ts';

const NEW_PASSWORD = 'N3w!Password-2024';

const testApp = useTestApp();
let app: FastifyInstance;

beforeAll(() => {
  app = testApp.app;
});

function requestReset(email: string) {
  return app.inject(jsonRequest('POST', '/api/auth/email-otp/request-password-reset', { email }));
}

function resetPassword(email: string, otp: string, password = NEW_PASSWORD) {
  return app.inject(jsonRequest('POST', '/api/auth/email-otp/reset-password', { email, otp, password }));
}

async function mailedResetCode(email: string) {
  const mail = await latestMail(app, email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return { mail, code: codeFromMail(mail.text, 'code') };
}

function me(cookie: string) {
  return app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
}

describe('password reset', () => {
  it('mails a renew link with the code', async () => {
    const email = 'link@acme.io';
    await signUpVerifiedUser(app, email);
    expect((await requestReset(email)).statusCode).toBe(200);

    const { mail, code } = await mailedResetCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const link = `http://localhost:3000/password/renew?email=link%40acme.io&code=${code}`;
    expect(mail.text).toContain(link);
    expect(mail.html.replace(/&#38;|&amp;/g, '&')).toContain(`href="${link}"`);
    expect(mail.text).toContain('Social Developer Portal');
  });

  it('sets the new password, ends every existing session and signs in with the new one', async () => {
    const email = 'reset@acme.io';
    const firstSession = await signUpVerifiedUser(app, email);
    const secondSession = await signIn(app, email);
    const token = (await app.inject(jsonRequest('GET', '/api/auth/token', undefined, secondSession))).json() as {
      token: string;
    };
    for (const cookie of [firstSession, secondSession]) expect((await me(cookie)).statusCode).toBe(200);
    expect((await app.inject(bearerRequest('GET', '/api/v1/accounts/me', token.token))).statusCode).toBe(200);

    expect((await requestReset(email)).statusCode).toBe(200);
    const { code } = await mailedResetCode(email);
    const reset = await resetPassword(email, code);
    expect(reset.statusCode).toBe(200);

    for (const cookie of [firstSession, secondSession]) expectApiError(await me(cookie), 401, 'UNAUTHORIZED');
    expectApiError(await app.inject(bearerRequest('GET', '/api/v1/accounts/me', token.token)), 401, 'UNAUTHORIZED');

    expectApiError(await signInRequest(app, email, STRONG_PASSWORD), 401, 'INVALID_EMAIL_OR_PASSWORD');
    const fresh = await signIn(app, email, NEW_PASSWORD);
    expect((await me(fresh)).statusCode).toBe(200);

    // The code is spent.
    expectApiError(await resetPassword(email, code, 'Th1rd!Password-x'), 400);
    expect((await signInRequest(app, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it.each([
    ['too short', 'Ab1!efgh', 'signupForm.password.validation.length'],
    ['without a lowercase letter', 'ABCDEFGH123!', 'signupForm.password.validation.lower'],
    ['without an uppercase letter', 'abcdefgh123!', 'signupForm.password.validation.caps'],
    ['without a digit', 'Abcdefghijk!', 'signupForm.password.validation.numbers'],
    ['without a special character', 'Abcdefgh1234', 'signupForm.password.validation.special'],
  ] as const)('refuses a new password %s and keeps the code and the old password', async (_label, password, key) => {
    const email = `weak-${key.split('.').at(-1)}@acme.io`;
    await signUpVerifiedUser(app, email);
    await requestReset(email);
    const { code } = await mailedResetCode(email);

    const error = expectApiError(await resetPassword(email, code, password), 400, 'VALIDATION_ERROR');
    expect(error.field).toBe('password');
    expect(error.message).toBe(messages[key]);
    expect((await signInRequest(app, email, STRONG_PASSWORD)).statusCode).toBe(200);
    // The refusal did not spend the code.
    expect((await resetPassword(email, code)).statusCode).toBe(200);
  });

  it('keeps the password when the code is wrong', async () => {
    const email = 'wrong-reset@acme.io';
    const session = await signUpVerifiedUser(app, email);
    await requestReset(email);
    const { code } = await mailedResetCode(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    expectApiError(await resetPassword(email, wrong), 400, 'INVALID_OTP');
    expect((await signInRequest(app, email, STRONG_PASSWORD)).statusCode).toBe(200);
    expect((await me(session)).statusCode).toBe(200);
  });

  it('answers a reset for an unknown address like any other, without sending mail', async () => {
    const response = await requestReset('ghost@acme.io');
    expect(response.statusCode).toBe(200);
    expect(await mailsTo(app, 'ghost@acme.io')).toEqual([]);
  });
});
