import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, useTestApp, expectApiError, jsonRequest, signUpVerifiedUser } from './helper.ts';

const MAX_PER_ACCOUNT = 3;
const MAX_PER_IP = 5;

const testApp = useTestApp({
  RATE_LIMIT_MAX_PER_ACCOUNT: String(MAX_PER_ACCOUNT),
  RATE_LIMIT_MAX_PER_IP: String(MAX_PER_IP),
});
let app: FastifyInstance;

beforeAll(() => {
  app = testApp.app;
});

const limitedPaths = [
  ['sign-in', '/api/auth/sign-in/email', (email: string) => ({ email, password: 'Wr0ng!Password-x' })],
  ['sign-up', '/api/auth/sign-up/email', (email: string) => ({ email, password: STRONG_PASSWORD, name: 'x' })],
  ['verification resend', '/api/auth/email-otp/send-verification-otp', (email: string) => ({ email, type: 'email-verification' })],
  ['email verification', '/api/auth/email-otp/verify-email', (email: string) => ({ email, otp: '000000' })],
  ['password reset request', '/api/auth/email-otp/request-password-reset', (email: string) => ({ email })],
  ['password reset', '/api/auth/email-otp/reset-password', (email: string) => ({ email, otp: '000000', password: STRONG_PASSWORD })],
] as const;

let nextAddress = 0;
/** A client address no other test uses (TEST-NET-2, RFC 5737). */
function freshAddress() {
  nextAddress += 1;
  return `198.51.100.${nextAddress}`;
}

function attempt(url: string, body: unknown, remoteAddress: string, headers: Record<string, string> = {}): InjectOptions {
  const request = jsonRequest('POST', url, body);
  return { ...request, remoteAddress, headers: { ...request.headers, ...headers } };
}

describe.each(limitedPaths)('%s', (slug, url, bodyFor) => {
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
  it('refuses even the right password once the account is limited', async () => {
    const email = 'owner@acme.io';
    await signUpVerifiedUser(app, email);
    for (let i = 0; i < MAX_PER_ACCOUNT - 1; i += 1) {
      await app.inject(attempt('/api/auth/sign-in/email', { email, password: 'Wr0ng!Password-x' }, freshAddress()));
    }
    const refused = await app.inject(attempt('/api/auth/sign-in/email', { email, password: STRONG_PASSWORD }, freshAddress()));
    expectApiError(refused, 429, 'RATE_LIMITED');
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('counts a client that is not a trusted proxy by its own address, whatever X-Forwarded-For it sends', async () => {
    const address = '203.0.113.7';
    const responses = [];
    for (let i = 0; i <= MAX_PER_IP; i += 1) {
      const spoofed = { 'x-forwarded-for': `192.0.2.${i + 1}` };
      responses.push(await app.inject(attempt('/api/auth/sign-in/email', { email: `spoof-${i}@acme.io`, password: 'x' }, address, spoofed)));
    }
    expect(responses.slice(0, MAX_PER_IP).map((r) => r.statusCode)).not.toContain(429);
    expectApiError(responses[MAX_PER_IP]!, 429, 'RATE_LIMITED');
  });

  it('counts the clients behind a proxy on this host separately', async () => {
    for (let i = 0; i <= MAX_PER_IP; i += 1) {
      const client = { 'x-forwarded-for': `192.0.2.${100 + i}` };
      const response = await app.inject(
        attempt('/api/auth/sign-in/email', { email: `proxied-${i}@acme.io`, password: 'x' }, '127.0.0.1', client),
      );
      expect(response.statusCode).not.toBe(429);
    }
  });
});
