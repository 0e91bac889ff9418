import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENABLED_AUTH_ENDPOINTS } from '../src/modules/identity/identity.routes.ts';
import {
  INITIAL_SETUP,
  STRONG_PASSWORD,
  TEST_ORIGIN,
  cookieHeader,
  expectApiError,
  invitationCodeFromMail,
  invite,
  jsonRequest,
  latestCode,
  latestMail,
  mailsTo,
  setUpOrganization,
  signUp,
  useTestApp,
  verifyEmail,
} from './helper.ts';

const MAIL_PER_ADDRESS = 5;
const t = useTestApp({ RATE_LIMIT_MAIL_PER_ADDRESS: String(MAIL_PER_ADDRESS) });
let app: FastifyInstance;
let owner: string;

beforeAll(async () => {
  app = t.app;
  owner = await setUpOrganization(app, 'owner@secure.io');
});

const WEAK_PASSWORD = 'aaaaaaaaaaaa';

describe('better-auth endpoints the portal does not use', () => {
  const unused: [string, string, unknown?][] = [
    ['POST', '/api/auth/sign-in/email-otp', { email: 'new@gmail.com', otp: '123456' }],
    ['POST', '/api/auth/email-otp/check-verification-otp', { email: 'owner@secure.io', type: 'email-verification', otp: '1' }],
    ['POST', '/api/auth/send-verification-email', { email: 'owner@secure.io' }],
    ['POST', '/api/auth/forget-password/email-otp', { email: 'owner@secure.io' }],
    ['POST', '/api/auth/change-password', { currentPassword: STRONG_PASSWORD, newPassword: WEAK_PASSWORD }],
    ['POST', '/api/auth/update-user', { name: null }],
    ['POST', '/api/auth/change-email', { newEmail: 'x@secure.io' }],
    ['POST', '/api/auth/delete-user', {}],
    ['GET', '/api/auth/get-session'],
    ['GET', '/api/auth/list-sessions'],
    ['POST', '/api/auth/sign-in/social', { provider: 'google' }],
  ];

  it.each(unused)('%s %s answers 404, signed in or not', async (method, url, body) => {
    for (const cookie of [undefined, owner]) {
      const response = await app.inject(jsonRequest(method as InjectOptions['method'], url, body, cookie));
      expectApiError(response, 404, 'NOT_FOUND');
    }
  });

  it('never creates a user through sign-in by mailed code, even for a new address', async () => {
    const asked = await app.inject(
      jsonRequest('POST', '/api/auth/email-otp/send-verification-otp', { email: 'newcomer@gmail.com', type: 'sign-in' }),
    );
    expectApiError(asked, 400, 'VALIDATION_ERROR');
    expect(await mailsTo(app, 'newcomer@gmail.com')).toHaveLength(0);
    const signIn = await app.inject(jsonRequest('POST', '/api/auth/sign-in/email-otp', { email: 'newcomer@gmail.com', otp: '000000' }));
    expectApiError(signIn, 404);
  });

  it('keeps the endpoints the portal uses, each with the reason it is needed', async () => {
    for (const [path, endpoint] of Object.entries(ENABLED_AUTH_ENDPOINTS)) {
      expect(endpoint.use.length).toBeGreaterThan(5);
      const response = await app.inject(jsonRequest(endpoint.method, `/api/auth${path}`, endpoint.method === 'POST' ? {} : undefined));
      expect(response.statusCode, path).not.toBe(404);
    }
  });
});

describe('mailed codes', () => {
  async function signedUpWithCode(email: string) {
    expect((await signUp(app, email)).statusCode).toBe(200);
    return latestCode(app, email, 'confirmation_code');
  }
  const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

  it('destroys a verification code after 5 wrong guesses, so the right one is refused too', async () => {
    const email = 'guessed@secure.io';
    const code = await signedUpWithCode(email);
    for (let guess = 0; guess < 5; guess += 1) {
      expectApiError(await verifyEmail(app, email, wrongCode(code)), 400);
    }
    expectApiError(await verifyEmail(app, email, code), 403, 'TOO_MANY_ATTEMPTS');
    expectApiError(await verifyEmail(app, email, code), 403, 'TOO_MANY_ATTEMPTS');
  });

  it('counts parallel guesses one by one', async () => {
    const email = 'parallel@secure.io';
    const code = await signedUpWithCode(email);
    const guesses = await Promise.all(Array.from({ length: 8 }, () => verifyEmail(app, email, wrongCode(code))));
    expect(guesses.filter((r) => r.statusCode === 200)).toHaveLength(0);
    expect(guesses.filter((r) => r.statusCode === 403)).toHaveLength(3);
    expectApiError(await verifyEmail(app, email, code), 403, 'TOO_MANY_ATTEMPTS');
  });

  it('gives a new code a fresh allowance', async () => {
    const email = 'renewed@secure.io';
    const first = await signedUpWithCode(email);
    for (let guess = 0; guess < 6; guess += 1) await verifyEmail(app, email, wrongCode(first));
    const resent = await app.inject(
      jsonRequest('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'email-verification' }),
    );
    expect(resent.statusCode).toBe(200);
    const second = await latestCode(app, email, 'confirmation_code');
    expect((await verifyEmail(app, email, second)).statusCode).toBe(200);
  });

  it('destroys a reset code after 5 wrong guesses', async () => {
    const email = 'owner@secure.io';
    await app.inject(jsonRequest('POST', '/api/auth/email-otp/request-password-reset', { email }));
    const code = await latestCode(app, email, 'code');
    const reset = (otp: string) =>
      app.inject(jsonRequest('POST', '/api/auth/email-otp/reset-password', { email, otp, password: 'N3w!Passw0rd-ok' }));
    for (let guess = 0; guess < 5; guess += 1) expectApiError(await reset(wrongCode(code)), 400);
    expectApiError(await reset(code), 403, 'TOO_MANY_ATTEMPTS');
  });
});

describe('mail a client can ask for', () => {
  it(`sends at most ${MAIL_PER_ADDRESS} verification mails an hour to one address`, async () => {
    const email = 'flooded@secure.io';
    await signUp(app, email);
    const statuses: number[] = [];
    for (let request = 0; request < 10; request += 1) {
      const response = await app.inject({
        ...jsonRequest('POST', '/api/auth/email-otp/send-verification-otp', { email, type: 'email-verification' }),
        remoteAddress: `192.0.2.${request + 1}`,
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expectApiError(response, 429, 'RATE_LIMITED');
    }
    // The sign-up's own mail counts as well.
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAIL_PER_ADDRESS);
    expect(await mailsTo(app, email)).toHaveLength(MAIL_PER_ADDRESS + 1);
  });

  it(`resends an invitation at most ${MAIL_PER_ADDRESS} times an hour`, async () => {
    const invited = await invite(app, owner, ['resent@secure.io'], 'portal.developer');
    const { results } = invited.json() as { results: { id: string }[] };
    const id = results[0]!.id;
    const statuses: number[] = [];
    for (let request = 0; request < MAIL_PER_ADDRESS + 2; request += 1) {
      statuses.push((await app.inject(jsonRequest('POST', `/api/v1/invitations/${id}/resend`, undefined, owner))).statusCode);
    }
    expect(statuses.slice(0, MAIL_PER_ADDRESS).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(MAIL_PER_ADDRESS)).toEqual([429, 429]);
  });
});

describe('requests from other origins', () => {
  const evil = 'http://evil.example';

  async function openInvitations() {
    const response = await app.inject(jsonRequest('GET', '/api/v1/invitations?limit=50', undefined, owner));
    return (response.json() as { total: number }).total;
  }

  it('refuses a change whose Origin is not the portal, and changes nothing', async () => {
    const before = await openInvitations();
    const request = jsonRequest('POST', '/api/v1/invitations', { emails: ['csrf@secure.io'], roleIds: ['portal.developer'], applicationScopes: null }, owner);
    const response = await app.inject({ ...request, headers: { ...request.headers, origin: evil } });
    expectApiError(response, 403, 'CROSS_ORIGIN_REQUEST');
    expect(await openInvitations()).toBe(before);
  });

  it('judges by the Referer when there is no Origin, and refuses a cookie that names neither', async () => {
    const body = JSON.stringify({ emails: ['csrf2@secure.io'], roleIds: ['portal.developer'], applicationScopes: null });
    const base = { method: 'POST' as const, url: '/api/v1/invitations', payload: body };
    const headers = { cookie: owner, 'content-type': 'application/json' };
    expectApiError(await app.inject({ ...base, headers: { ...headers, referer: `${evil}/page` } }), 403, 'CROSS_ORIGIN_REQUEST');
    expectApiError(await app.inject({ ...base, headers }), 403, 'CROSS_ORIGIN_REQUEST');
    const sameSite = await app.inject({ ...base, headers: { ...headers, referer: `${TEST_ORIGIN}/invite-members` } });
    expect(sameSite.statusCode).toBe(201);
  });

  it('refuses a body that is not JSON, even from the portal', async () => {
    const before = await openInvitations();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/invitations',
        headers: { cookie: owner, origin: TEST_ORIGIN, 'content-type': contentType },
        payload: JSON.stringify({ emails: ['plain@secure.io'], roleIds: ['portal.developer'], applicationScopes: null }),
      });
      expectApiError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await openInvitations()).toBe(before);
  });

  it('lets a client with a bearer token and no cookie change things without an Origin', async () => {
    const token = (await app.inject(jsonRequest('GET', '/api/auth/token', undefined, owner))).json() as { token: string };
    const response = await app.inject({
      method: 'PUT',
      url: '/api/v1/accounts',
      headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ ...INITIAL_SETUP, billingAddress: '1 Main St', billingState: 'NA', billingZipCode: '12345' }),
    });
    expect(response.statusCode).not.toBe(403);
  });
});

describe('one password policy wherever a password is set', () => {
  it('refuses a weak password at sign-up, reset and invitation, and through the portal password change', async () => {
    expectApiError(await signUp(app, 'weak@secure.io', WEAK_PASSWORD), 400);

    await app.inject(jsonRequest('POST', '/api/auth/email-otp/request-password-reset', { email: 'owner@secure.io' }));
    const code = await latestCode(app, 'owner@secure.io', 'code');
    const reset = await app.inject(
      jsonRequest('POST', '/api/auth/email-otp/reset-password', { email: 'owner@secure.io', otp: code, password: WEAK_PASSWORD }),
    );
    expectApiError(reset, 400);

    await invite(app, owner, ['weakinvitee@secure.io'], 'portal.developer');
    const invitationCode = invitationCodeFromMail((await latestMail(app, 'weakinvitee@secure.io'))!.text);
    const { invitationId } = (await app.inject(jsonRequest('POST', '/api/invitations/verify', { code: invitationCode }))).json() as {
      invitationId: string;
    };
    const confirm = await app.inject(
      jsonRequest('POST', `/api/invitations/${invitationId}/confirm`, {
        displayName: 'Weak',
        password: WEAK_PASSWORD,
        confirmPassword: WEAK_PASSWORD,
        code: invitationCode,
      }),
    );
    expectApiError(confirm, 400, 'VALIDATION_ERROR');

    const me = (await app.inject(jsonRequest('GET', '/api/v1/members/me', undefined, owner))).json() as { id: string };
    const change = await app.inject(
      jsonRequest(
        'PUT',
        `/api/v1/members/${me.id}/password`,
        { currentPassword: STRONG_PASSWORD, newPassword: WEAK_PASSWORD, confirmPassword: WEAK_PASSWORD },
        owner,
      ),
    );
    expectApiError(change, 400, 'VALIDATION_ERROR');
    const betterAuthChange = await app.inject(
      jsonRequest('POST', '/api/auth/change-password', { currentPassword: STRONG_PASSWORD, newPassword: WEAK_PASSWORD }, owner),
    );
    expectApiError(betterAuthChange, 404);
  });
});

describe('control characters and error shapes', () => {
  it('refuses NUL and other control characters in any field, naming it, without a 5xx', async () => {
    const cases: [InjectOptions, string][] = [
      [jsonRequest('POST', '/api/v1/applications', { name: 'App\u0000', plan: 'advance', region: 'EU' }, owner), 'name'],
      [jsonRequest('PUT', '/api/v1/accounts', { ...INITIAL_SETUP, organization: 'A\u0007cme' }, owner), 'organization'],
      [jsonRequest('POST', '/api/auth/sign-in/email', { email: 'owner@secure.io\u0000', password: STRONG_PASSWORD }), 'email'],
      [jsonRequest('POST', '/api/auth/sign-up/email', { email: 'a@secure.io', password: STRONG_PASSWORD, name: { 'k\u0000': 1 } }), 'name.k\u0000'],
      [jsonRequest('POST', '/api/v1/invitations', { emails: ['ok@secure.io', 'b\u001f@secure.io'], roleIds: ['portal.developer'], applicationScopes: null }, owner), 'emails.1'],
      [jsonRequest('GET', '/api/v1/applications/abc%00def', undefined, owner), 'applicationId'],
      [jsonRequest('GET', '/api/v1/members/%00', undefined, owner), 'memberId'],
      [jsonRequest('DELETE', '/api/v1/invitations/x%00', undefined, owner), 'invitationId'],
      [jsonRequest('GET', '/dev/mailbox/messages?to=a%00b'), 'to'],
      [jsonRequest('GET', '/api/v1/utils/subdivisions?countryCode=U%01S'), 'countryCode'],
    ];
    for (const [request, field] of cases) {
      const response = await app.inject(request);
      const body = expectApiError(response, 400, 'CONTROL_CHARACTER');
      expect(body.field, request.url as string).toBe(field);
    }
  });

  it('answers better-auth errors in the portal shape', async () => {
    const wrong = await app.inject(jsonRequest('POST', '/api/auth/sign-in/email', { email: 'owner@secure.io', password: 'Wr0ng!Password-x' }));
    expectApiError(wrong, 401);
    const signOut = await app.inject(jsonRequest('POST', '/api/auth/sign-out', {}));
    expect(signOut.statusCode).toBeLessThan(500);
    if (signOut.statusCode >= 400) expectApiError(signOut, signOut.statusCode);
    const token = await app.inject(jsonRequest('GET', '/api/auth/token'));
    expectApiError(token, 401);
  });
});

describe('a portal served over https', () => {
  const secure = useTestApp({ PUBLIC_URL: 'https://portal.example.com' });
  const origin = 'https://portal.example.com';
  const post = (url: string, body: unknown, cookie?: string): InjectOptions => ({
    method: 'POST',
    url,
    headers: { origin, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });

  async function signedIn(email: string) {
    const server = secure.app;
    await server.inject(post('/api/auth/sign-up/email', { email, password: STRONG_PASSWORD, name: 'x' }));
    const code = await latestCode(server, email, 'confirmation_code');
    await server.inject(post('/api/auth/email-otp/verify-email', { email, otp: code }));
    const response = await server.inject(post('/api/auth/sign-in/email', { email, password: STRONG_PASSWORD }));
    expect(response.statusCode).toBe(200);
    return cookieHeader(response.headers['set-cookie']);
  }

  it('counts only the __Secure- session cookie, whatever plain one comes with it', async () => {
    const alice = await signedIn('alice@secure.io');
    const mallory = await signedIn('mallory@secure.io');
    expect(alice).toMatch(/^__Secure-portal\.session_token=/);
    const aliceValue = alice.split('=').slice(1).join('=');
    const malloryValue = mallory.split('=').slice(1).join('=');
    const me = (cookie: string) => secure.app.inject({ method: 'GET', url: '/api/v1/accounts/me', headers: { cookie } });

    const both = await me(`portal.session_token=${malloryValue}; __Secure-portal.session_token=${aliceValue}`);
    expect(both.statusCode).toBe(200);
    expect((both.json() as { userEmail: string }).userEmail).toBe('alice@secure.io');
    expectApiError(await me(`portal.session_token=${aliceValue}`), 401, 'UNAUTHORIZED');
  });

  it('sends HSTS on https only', async () => {
    const overHttps = await secure.app.inject({ method: 'GET', url: '/api/health' });
    expect(overHttps.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    const overHttp = await app.inject({ method: 'GET', url: '/api/health' });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends the security headers on API answers, refusals and the signed-in check alike', async () => {
    const cookie = await signedIn('headers@secure.io');
    const answers = [
      await secure.app.inject({ method: 'GET', url: '/api/health' }),
      await secure.app.inject({ method: 'GET', url: '/api/v1/accounts/me', headers: { cookie } }),
      await secure.app.inject({ method: 'GET', url: '/api/v1/accounts/me' }),
      await secure.app.inject({ method: 'GET', url: '/api/v1/no-such-route' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 404]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('the development outbox', () => {
  const exposed = useTestApp({ HOST: '0.0.0.0' });

  it('is not mounted when the portal listens beyond loopback', async () => {
    const response = await exposed.app.inject({ method: 'GET', url: '/dev/mailbox/messages?to=owner@secure.io' });
    expectApiError(response, 404, 'NOT_FOUND');
  });
});
