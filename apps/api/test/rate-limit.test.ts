import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_BACKOFF_AFTER_FAILURES, SIGN_IN_BACKOFF_SPACING_MS } from '../src/plugins/rate-limits.ts';
import { redisAnswers, redisStoreEnv } from './redis.ts';
import {
  STRONG_PASSWORD,
  expectApiError,
  jsonRequest,
  setUpOrganization,
  signUpVerifiedUser,
  useTestApp,
} from './helper.ts';

const MAX_PER_ACCOUNT = 3;
const MAX_PER_IP = 5;

/*
 * Every case runs against each store the limits can be counted in (decision 033): the portal's
 * database (PGlite here, PostgreSQL with TEST_DATABASE_URL) and Redis, when the test server answers.
 */
const redis = await redisAnswers();

describe.each([
  { store: 'the database', storeEnv: (): Record<string, string> => ({}), skip: false },
  { store: 'Redis', storeEnv: redisStoreEnv, skip: !redis },
])('limits counted in $store', ({ storeEnv, skip }) => {
  if (skip) {
    it.skip('needs a Redis server at TEST_REDIS_URL');
    return;
  }
  const testApp = useTestApp({
    ...storeEnv(),
    RATE_LIMIT_MAX_PER_ACCOUNT: String(MAX_PER_ACCOUNT),
    RATE_LIMIT_MAX_PER_IP: String(MAX_PER_IP),
    // The mail limits are hourly; here they equal the others so one set of cases covers both.
    RATE_LIMIT_MAIL_PER_ADDRESS: String(MAX_PER_ACCOUNT),
    RATE_LIMIT_MAIL_PER_IP: String(MAX_PER_IP),
  });
  const behindProxy = useTestApp({
    ...storeEnv(),
    RATE_LIMIT_MAX_PER_IP: String(MAX_PER_IP),
    TRUST_PROXY: 'loopback',
  });
  let app: FastifyInstance;

  beforeAll(() => {
    app = testApp.app;
  });

  const wrongPassword = (email: string) => ({ email, password: 'Wr0ng!Password-x' });

  const limitedPaths = [
    ['sign-in', '/api/auth/sign-in/email', wrongPassword],
    [
      'sign-up',
      '/api/auth/sign-up/email',
      (email: string) => ({ email, password: STRONG_PASSWORD, name: 'x' }),
    ],
    [
      'verification resend',
      '/api/auth/email-otp/send-verification-otp',
      (email: string) => ({ email, type: 'email-verification' }),
    ],
    ['email verification', '/api/auth/email-otp/verify-email', (email: string) => ({ email, otp: '000000' })],
    ['password reset request', '/api/auth/email-otp/request-password-reset', (email: string) => ({ email })],
    [
      'password reset',
      '/api/auth/email-otp/reset-password',
      (email: string) => ({ email, otp: '000000', password: STRONG_PASSWORD }),
    ],
  ] as const;
  /** Every limited path but sign-in counts per address whatever the client; sign-in has its own rules below. */
  const perAddressPaths = limitedPaths.filter(([slug]) => slug !== 'sign-in');

  let nextAddress = 0;
  /** A client address no other test uses (TEST-NET-2, RFC 5737). */
  function freshAddress() {
    nextAddress += 1;
    return `198.51.100.${nextAddress}`;
  }

  function attempt(
    url: string,
    body: unknown,
    remoteAddress: string,
    headers: Record<string, string> = {},
  ): InjectOptions {
    const request = jsonRequest('POST', url, body);
    return { ...request, remoteAddress, headers: { ...request.headers, ...headers } };
  }

  describe.each(perAddressPaths)('%s', (slug, url, bodyFor) => {
    const tag = slug.replace(/\W+/g, '-');

    it(`refuses the attempt after ${MAX_PER_ACCOUNT} for one account, whatever the address`, async () => {
      const email = `account-${tag}@acme.io`;
      for (let i = 0; i < MAX_PER_ACCOUNT; i += 1) {
        const response = await app.inject(attempt(url, bodyFor(email), freshAddress()));
        expect(response.statusCode).not.toBe(429);
      }
      const refused = await app.inject(attempt(url, bodyFor(email), freshAddress()));
      expectApiError(refused, 429, 'RATE_LIMITED');
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(refused.json().message).toContain(`${retryAfter} seconds`);

      // Other accounts are not affected.
      const other = await app.inject(attempt(url, bodyFor(`other-${tag}@acme.io`), freshAddress()));
      expect(other.statusCode).not.toBe(429);
    });
  });

  describe.each(limitedPaths)('%s', (slug, url, bodyFor) => {
    const tag = slug.replace(/\W+/g, '-');

    it(`refuses the attempt after ${MAX_PER_IP} from one address, whatever the account`, async () => {
      const address = freshAddress();
      for (let i = 0; i < MAX_PER_IP; i += 1) {
        const response = await app.inject(attempt(url, bodyFor(`ip-${tag}-${i}@acme.io`), address));
        expect(response.statusCode).not.toBe(429);
      }
      const refused = await app.inject(attempt(url, bodyFor(`ip-${tag}-last@acme.io`), address));
      expectApiError(refused, 429, 'RATE_LIMITED');

      // Other addresses are not affected.
      const other = await app.inject(attempt(url, bodyFor(`ip-${tag}-elsewhere@acme.io`), freshAddress()));
      expect(other.statusCode).not.toBe(429);
    });
  });

  describe('sign-in limits', () => {
    const signInAttempt = (email: string, password: string, address: string) =>
      app.inject(attempt('/api/auth/sign-in/email', { email, password }, address));

    it("lets the owner in from another address while a stranger's address is locked out of the account", async () => {
      const email = 'owner@acme.io';
      await signUpVerifiedUser(app, email);
      const stranger = freshAddress();
      for (let i = 0; i < MAX_PER_ACCOUNT; i += 1) {
        expect((await signInAttempt(email, 'Wr0ng!Password-x', stranger)).statusCode).toBe(401);
      }
      expectApiError(await signInAttempt(email, STRONG_PASSWORD, stranger), 429, 'RATE_LIMITED');

      const owner = await signInAttempt(email, STRONG_PASSWORD, freshAddress());
      expect(owner.statusCode).toBe(200);
      expect(owner.headers['set-cookie']).toBeDefined();
    });

    it('counts only failures against an address and an account, so signing in again and again is never limited', async () => {
      const email = 'regular@acme.io';
      await signUpVerifiedUser(app, email);
      const address = freshAddress();
      for (let i = 0; i < MAX_PER_ACCOUNT + 1; i += 1) {
        expect((await signInAttempt(email, STRONG_PASSWORD, address)).statusCode).toBe(200);
      }
    });

    it(`spaces attempts on an account after ${SIGN_IN_BACKOFF_AFTER_FAILURES} failures from anywhere, for seconds only`, async () => {
      const email = 'target@acme.io';
      await signUpVerifiedUser(app, email);
      // Failures spread over addresses, each staying under its own limit, as a botnet would.
      let address = freshAddress();
      for (let failure = 0; failure < SIGN_IN_BACKOFF_AFTER_FAILURES; failure += 1) {
        if (failure % MAX_PER_ACCOUNT === 0) address = freshAddress();
        expect((await signInAttempt(email, 'Wr0ng!Password-x', address)).statusCode).toBe(401);
      }
      // The brake admits one attempt per spacing: a guess takes the slot, the owner right after waits.
      expect((await signInAttempt(email, 'Wr0ng!Password-x', freshAddress())).statusCode).toBe(401);
      const ownerAddress = freshAddress();
      const braked = await signInAttempt(email, STRONG_PASSWORD, ownerAddress);
      expectApiError(braked, 429, 'RATE_LIMITED');
      expect(braked.headers['set-cookie']).toBeUndefined();
      const retryAfter = Number(braked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_BACKOFF_SPACING_MS / 1000);

      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      const owner = await signInAttempt(email, STRONG_PASSWORD, ownerAddress);
      expect(owner.statusCode).toBe(200);
    });

    it('counts a client by its own address by default, whatever X-Forwarded-For it sends, even from loopback', async () => {
      for (const address of ['203.0.113.7', '127.0.0.9']) {
        const responses = [];
        for (let i = 0; i <= MAX_PER_IP; i += 1) {
          const spoofed = { 'x-forwarded-for': `192.0.2.${i + 1}` };
          responses.push(
            await app.inject(
              attempt(
                '/api/auth/sign-in/email',
                wrongPassword(`spoof-${address}-${i}@acme.io`),
                address,
                spoofed,
              ),
            ),
          );
        }
        expect(responses.slice(0, MAX_PER_IP).map((r) => r.statusCode)).not.toContain(429);
        expectApiError(responses[MAX_PER_IP]!, 429, 'RATE_LIMITED');
      }
    });

    it('counts the clients behind a proxy named in TRUST_PROXY separately', async () => {
      for (let i = 0; i <= MAX_PER_IP; i += 1) {
        const client = { 'x-forwarded-for': `192.0.2.${100 + i}` };
        const response = await behindProxy.app.inject(
          attempt('/api/auth/sign-in/email', wrongPassword(`proxied-${i}@acme.io`), '127.0.0.1', client),
        );
        expect(response.statusCode).not.toBe(429);
      }
    });
  });

  describe('password change', () => {
    it(`refuses a wrong current password after ${MAX_PER_ACCOUNT} tries on one account, so a session cannot guess it`, async () => {
      const cookie = await setUpOrganization(app, 'changer@acme.io');
      const { id } = (
        await app.inject(jsonRequest('GET', '/api/v1/members/me', undefined, cookie))
      ).json() as { id: string };
      const change = (currentPassword: string) =>
        app.inject({
          ...jsonRequest(
            'PUT',
            `/api/v1/members/${id}/password`,
            { currentPassword, newPassword: 'An0ther!Passw0rd', confirmPassword: 'An0ther!Passw0rd' },
            cookie,
          ),
          remoteAddress: freshAddress(),
        });
      for (let i = 0; i < MAX_PER_ACCOUNT; i += 1)
        expectApiError(await change('Wr0ng!Password-x'), 400, 'INVALID_PASSWORD');
      expectApiError(await change(STRONG_PASSWORD), 429, 'RATE_LIMITED');
    });
  });
});
