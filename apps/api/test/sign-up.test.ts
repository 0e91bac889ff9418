import { FREE_MAIL_DOMAINS, messages } from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  STRONG_PASSWORD,
  TEST_ORIGIN,
  codeFromMail,
  useTestApp,
  expectApiError,
  jsonRequest,
  latestMail,
  mailsTo,
  signIn,
  signUp,
  signUpVerifiedUser,
} from './helper.ts';

const testApp = useTestApp();
let app: FastifyInstance;

beforeAll(() => {
  app = testApp.app;
});

describe('sign-up with a free-mail address', () => {
  const addresses = [
    ...FREE_MAIL_DOMAINS.map((domain) => `dev@${domain}.com`),
    'dev@yahoo.co.uk',
    'dev@hotmail.co.uk',
    'dev@outlook.fr',
    'dev@aol.de',
    'dev@protonmail.ch',
    'Dev@GMAIL.COM',
    '  dev@icloud.com  ',
    // Beyond the seven: the maintained list, and any address under a free-mail domain (decision 032).
    'dev@googlemail.com',
    'dev@proton.me',
    'dev@live.com',
    'dev@yahoo.co.jp',
    'dev@gmx.de',
    'dev@mail.ru',
    'dev@qq.com',
    'dev@mail.gmail.com',
    'Dev@Proton.ME',
  ];

  it('covers every free-mail provider of the specification', () => {
    expect(FREE_MAIL_DOMAINS).toHaveLength(7);
    expect([...FREE_MAIL_DOMAINS].sort()).toEqual(['aol', 'gmail', 'hotmail', 'icloud', 'outlook', 'protonmail', 'yahoo']);
  });

  it.each(addresses)('refuses %s with CORPORATE_EMAIL_REQUIRED on the email field and sends no mail', async (email) => {
    const response = await signUp(app, email);
    const body = expectApiError(response, 400, 'CORPORATE_EMAIL_REQUIRED');
    expect(body.field).toBe('email');
    expect(body.message).toBe(messages['signupForm.email.validation.corporate.lambda.error']);
    expect(await mailsTo(app, email.trim().toLowerCase())).toEqual([]);
  });

  it.each(['dev@outlookcorp.io', 'dev@gmail-consulting.com', 'dev@outlook.acme.com'])(
    'accepts %s, a corporate domain that merely contains a provider name',
    async (email) => {
      const response = await signUp(app, email);
      expect(response.statusCode, response.body).toBe(200);
    },
  );
});

describe('sign-up password policy', () => {
  const cases = [
    ['too short', 'Ab1!efgh', 'signupForm.password.validation.length'],
    ['without a lowercase letter', 'ABCDEFGH123!', 'signupForm.password.validation.lower'],
    ['without an uppercase letter', 'abcdefgh123!', 'signupForm.password.validation.caps'],
    ['without a digit', 'Abcdefghijk!', 'signupForm.password.validation.numbers'],
    ['without a special character', 'Abcdefgh1234', 'signupForm.password.validation.special'],
  ] as const;

  it.each(cases)('refuses a password %s with its own message', async (_label, password, key) => {
    const email = `policy-${key.split('.').at(-1)}@acme.io`;
    const response = await signUp(app, email, password);
    const body = expectApiError(response, 400, 'VALIDATION_ERROR');
    expect(body.field).toBe('password');
    expect(body.message).toBe(messages[key]);
    expect(await mailsTo(app, email)).toEqual([]);
  });
});

describe('sign-up with missing fields', () => {
  it.each([
    ['no body at all', undefined],
    ['an empty object', {}],
    ['no password', { email: 'missing@acme.io', name: 'missing' }],
    ['no email', { password: STRONG_PASSWORD, name: 'missing' }],
    ['no name', { email: 'missing@acme.io', password: STRONG_PASSWORD }],
  ])('answers %s with a JSON 400', async (_label, body) => {
    const response = await app.inject(
      body === undefined
        ? { method: 'POST', url: '/api/auth/sign-up/email', headers: { origin: TEST_ORIGIN } }
        : jsonRequest('POST', '/api/auth/sign-up/email', body),
    );
    expectApiError(response, 400);
    expect(await mailsTo(app, 'missing@acme.io')).toEqual([]);
  });
});

describe('a valid sign-up', () => {
  it('mails a verification with the product name, the confirm link and the code', async () => {
    const email = 'ann@acme.io';
    const response = await signUp(app, email);
    expect(response.statusCode).toBe(200);

    const mail = await latestMail(app, email);
    expect(mail).toBeDefined();
    if (!mail) return;
    expect(mail.subject).toContain('Social Developer Portal');
    expect(mail.text).toContain('Social Developer Portal');
    expect(mail.html).toContain('Social Developer Portal');

    const code = codeFromMail(mail.text, 'confirmation_code');
    expect(code).toMatch(/^\d{6}$/);
    const expectedLink = `http://localhost:3000/confirm-user?email=ann%40acme.io&confirmation_code=${code}`;
    expect(mail.text).toContain(expectedLink);
    expect(mail.text.replace(expectedLink, '')).toContain(code);

    const href = mail.html.match(/href="([^"]+)"/)?.[1]?.replace(/&#38;|&amp;/g, '&');
    expect(href).toBe(expectedLink);
    expect(mail.html).toMatch(new RegExp(`>\\s*${code}\\s*<`));
  });
});

describe('sign-up with an email that already has an account', () => {
  it('answers like a new sign-up and mails the owner instead of revealing the account', async () => {
    const email = 'taken@acme.io';
    await signUpVerifiedUser(app, email);
    const mailsBefore = (await mailsTo(app, email)).length;

    const fresh = await signUp(app, 'fresh@acme.io');
    const again = await signUp(app, email, 'An0ther!Passw0rd');
    expect(again.statusCode).toBe(fresh.statusCode);
    const freshUser = (fresh.json() as { user: Record<string, unknown> }).user;
    const againUser = (again.json() as { user: Record<string, unknown> }).user;
    expect(Object.keys(againUser).sort()).toEqual(Object.keys(freshUser).sort());
    expect(againUser.emailVerified).toBe(false);

    const mails = await mailsTo(app, email);
    expect(mails).toHaveLength(mailsBefore + 1);
    const [notice] = mails;
    expect(notice?.subject).toMatch(/already have a Social Developer Portal account/i);
    expect(notice?.text).not.toMatch(/confirmation_code=|code=\d/);
    expect(notice?.text).toContain(`${TEST_ORIGIN}/password/reset`);

    // The attempt must not have changed the owner's password.
    await expect(signIn(app, email)).resolves.toContain('portal.session_token=');
  });
});
