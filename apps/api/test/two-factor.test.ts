import type { Account } from '@portal/contracts';
import { decodeJwt } from 'jose';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE_NAME } from '../src/auth/auth.ts';
import { usedTotpCodes } from '../src/auth/two-factor.ts';
import * as schema from '../src/db/schema.ts';
import { GoogleStandIn, type GoogleIdentity } from './google-stand-in.ts';
import {
  STRONG_PASSWORD,
  TEST_ORIGIN,
  bearerRequest,
  cookieHeader,
  expectApiError,
  joinByInvitation,
  jsonRequest,
  setUpOrganization,
  signInRequest,
  signUpVerifiedUser,
  useTestApp,
  type TestApp,
} from './helper.ts';
import { freshTotp, keyOf, staleTotp as wrongCode, totp } from './totp.ts';

/*
 * Two-factor authentication with an authenticator app, over HTTP: enrolment from a session, the
 * sign-in that asks for the second factor and gives no session before it, backup codes, wrong codes
 * and their limits, and the organisation's requirement. Codes are computed as an authenticator app
 * does (totp.ts).
 */
// Google sign-in is configured, through a local provider standing in for Google (started first: the
// portal reads its discovery when it starts).
const google = await GoogleStandIn.start();
afterAll(() => google.stop());
const t = useTestApp(google.portalEnv);
// Real per-IP limits, for the test that counts second-factor attempts from one address.
const limited = useTestApp({ RATE_LIMIT_MAX_PER_IP: '4' });

interface Enrolment {
  /** The session cookie after enrolment (enrolment replaces the session). */
  cookie: string;
  key: string;
  backupCodes: string[];
}

function post(testApp: TestApp, url: string, body: unknown, cookie?: string, remoteAddress?: string) {
  return testApp.app.inject({
    ...jsonRequest('POST', url, body, cookie),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

async function account(cookie: string, testApp = t): Promise<LightMyRequestResponse> {
  return testApp.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
}

async function me(cookie: string, testApp = t): Promise<Account> {
  const response = await account(cookie, testApp);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Account;
}

/** The session cookie a response sets, or undefined when it sets none or clears it. */
function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const pair = cookieHeader(response.headers['set-cookie'])
    .split('; ')
    .find((cookie) => cookie.startsWith(`${SESSION_COOKIE_NAME}=`));
  return pair && pair.length > SESSION_COOKIE_NAME.length + 1 ? pair : undefined;
}

async function startEnrolment(cookie: string, testApp = t, password: string | undefined = STRONG_PASSWORD) {
  const response = await post(
    testApp,
    '/api/auth/two-factor/enable',
    password === undefined ? {} : { password },
    cookie,
  );
  expect(response.statusCode, response.body).toBe(200);
  const { totpURI, backupCodes } = response.json() as { totpURI: string; backupCodes: string[] };
  return { key: keyOf(totpURI), backupCodes, totpURI };
}

async function enrol(cookie: string, testApp = t): Promise<Enrolment> {
  const { key, backupCodes } = await startEnrolment(cookie, testApp);
  const confirmed = await post(
    testApp,
    '/api/auth/two-factor/verify-totp',
    { code: await freshTotp(key) },
    cookie,
  );
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const replaced = sessionCookieOf(confirmed);
  expect(replaced).toBeDefined();
  return { cookie: replaced!, key, backupCodes };
}

/** A password sign-in that stops at the second factor; answers the challenge's cookies. */
async function passwordStep(email: string, testApp = t, remoteAddress?: string): Promise<string> {
  const response = await post(
    testApp,
    '/api/auth/sign-in/email',
    { email, password: STRONG_PASSWORD },
    undefined,
    remoteAddress,
  );
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
  expect(sessionCookieOf(response)).toBeUndefined();
  return cookieHeader(response.headers['set-cookie']);
}

async function sessionsOf(email: string, testApp = t) {
  const [user] = await testApp.database.db.select().from(schema.user).where(eq(schema.user.email, email));
  return testApp.database.db.select().from(schema.session).where(eq(schema.session.userId, user!.id));
}

async function twoFactorOf(email: string, testApp = t) {
  const [user] = await testApp.database.db.select().from(schema.user).where(eq(schema.user.email, email));
  const [row] = await testApp.database.db
    .select()
    .from(schema.twoFactor)
    .where(eq(schema.twoFactor.userId, user!.id));
  return row!;
}

let people = 0;
const freshEmail = (label: string) => `${label}-${(people += 1)}@two-factor.io`;

describe('enrolment', () => {
  it('gives a key and 10 backup codes, and turns on only once a code from the app confirms it', async () => {
    const email = freshEmail('enrol');
    const cookie = await signUpVerifiedUser(t.app, email);
    expect(await me(cookie)).toMatchObject({
      twoFactorEnabled: false,
      hasPassword: true,
      requireTwoFactor: false,
    });

    expectApiError(
      await post(t, '/api/auth/two-factor/enable', { password: 'Wr0ng!Password' }, cookie),
      400,
      'INVALID_PASSWORD',
    );
    expectApiError(await post(t, '/api/auth/two-factor/enable', {}, cookie), 400, 'INVALID_PASSWORD');
    const { key, backupCodes, totpURI } = await startEnrolment(cookie);
    // What authenticator apps read: the issuer (without spaces) and the address as the label.
    expect(totpURI.startsWith(`otpauth://totp/Social-Developer-Portal:${encodeURIComponent(email)}?`)).toBe(
      true,
    );
    expect(Object.fromEntries(new URL(totpURI).searchParams)).toEqual({
      secret: key,
      issuer: 'Social-Developer-Portal',
      digits: '6',
      period: '30',
    });
    expect(key).toMatch(/^[A-Z2-7]{32,}$/);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    for (const code of backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);

    // Not on yet: a password sign-in still signs in at once.
    expect(sessionCookieOf(await signInRequest(t.app, email))).toBeDefined();
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: wrongCode(key) }, cookie),
      401,
      'INVALID_CODE',
    );
    expect((await me(cookie)).twoFactorEnabled).toBe(false);

    const confirmed = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      cookie,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const replaced = sessionCookieOf(confirmed)!;
    expect((await me(replaced)).twoFactorEnabled).toBe(true);
    // The session that enrolled is replaced by a new one.
    expectApiError(await account(cookie), 401, 'UNAUTHORIZED');
    expectApiError(
      await post(t, '/api/auth/two-factor/enable', { password: STRONG_PASSWORD }, replaced),
      400,
      'TOTP_ALREADY_ENABLED',
    );
  });

  it('needs a session', async () => {
    expectApiError(await post(t, '/api/auth/two-factor/enable', { password: STRONG_PASSWORD }), 401);
    expectApiError(await post(t, '/api/auth/two-factor/disable', { password: STRONG_PASSWORD }), 401);
  });

  it('is turned off with the password, after which sign-in asks for no code', async () => {
    const email = freshEmail('disable');
    const { cookie } = await enrol(await signUpVerifiedUser(t.app, email));
    expectApiError(
      await post(t, '/api/auth/two-factor/disable', { password: 'Wr0ng!Password' }, cookie),
      400,
      'INVALID_PASSWORD',
    );
    const disabled = await post(t, '/api/auth/two-factor/disable', { password: STRONG_PASSWORD }, cookie);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect((await me(sessionCookieOf(disabled)!)).twoFactorEnabled).toBe(false);
    expect(sessionCookieOf(await signInRequest(t.app, email))).toBeDefined();
  });
});

describe('signing in with a second factor', () => {
  it('gives no usable session until the code is given', async () => {
    const email = freshEmail('sign-in');
    const { key, cookie } = await enrol(await signUpVerifiedUser(t.app, email));
    expect(await sessionsOf(email)).toHaveLength(1);
    const { memberId } = await me(cookie);
    const before = new Date('2026-01-02T03:04:05Z');
    await t.database.db
      .update(schema.member)
      .set({ lastLoginAt: before })
      .where(eq(schema.member.id, memberId));

    const challenge = await passwordStep(email);
    // The password step made and deleted its session: only the enrolled one remains, and it is no login.
    expect(await sessionsOf(email)).toHaveLength(1);
    expect((await me(cookie)).lastLogin).toBe(before.getTime());
    expectApiError(await account(challenge), 401, 'UNAUTHORIZED');
    expectApiError(await t.app.inject(jsonRequest('GET', '/api/auth/token', undefined, challenge)), 401);
    expectApiError(await t.app.inject(jsonRequest('GET', '/api/v1/applications', undefined, challenge)), 401);

    const verified = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      challenge,
    );
    expect(verified.statusCode, verified.body).toBe(200);
    const session = sessionCookieOf(verified)!;
    expect((await me(session)).userEmail).toBe(email);
    expect((await me(session)).lastLogin).toBeGreaterThan(before.getTime());
    expect(await sessionsOf(email)).toHaveLength(2);
    // The challenge is spent with its sign-in.
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: totp(key) }, challenge),
      401,
      'INVALID_TWO_FACTOR_COOKIE',
    );
    expect(cookie).not.toBe(session);
  });

  it('takes a backup code instead, each one once', async () => {
    const email = freshEmail('backup');
    const { backupCodes } = await enrol(await signUpVerifiedUser(t.app, email));
    const [first, second] = backupCodes as [string, string];

    const signedIn = await post(
      t,
      '/api/auth/two-factor/verify-backup-code',
      { code: first },
      await passwordStep(email),
    );
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await me(sessionCookieOf(signedIn)!)).userEmail).toBe(email);

    const again = await passwordStep(email);
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-backup-code', { code: first }, again),
      401,
      'INVALID_BACKUP_CODE',
    );
    const withSecond = await post(t, '/api/auth/two-factor/verify-backup-code', { code: second }, again);
    expect(withSecond.statusCode, withSecond.body).toBe(200);
  });

  it('refuses a wrong code, and still takes the right one after it', async () => {
    const email = freshEmail('wrong');
    const { key } = await enrol(await signUpVerifiedUser(t.app, email));
    const challenge = await passwordStep(email);
    const refused = await post(t, '/api/auth/two-factor/verify-totp', { code: wrongCode(key) }, challenge);
    expectApiError(refused, 401, 'INVALID_CODE');
    expect(sessionCookieOf(refused)).toBeUndefined();
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: '' }, challenge),
      401,
      'INVALID_CODE',
    );
    const verified = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      challenge,
    );
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('takes each code once: used again, it is a wrong code and the next one still signs in', async () => {
    const email = freshEmail('replay');
    const { key } = await enrol(await signUpVerifiedUser(t.app, email));
    const code = await freshTotp(key);
    const first = await post(t, '/api/auth/two-factor/verify-totp', { code }, await passwordStep(email));
    expect(first.statusCode, first.body).toBe(200);
    const sessions = (await sessionsOf(email)).length;

    const challenge = await passwordStep(email);
    const replayed = await post(t, '/api/auth/two-factor/verify-totp', { code }, challenge);
    expectApiError(replayed, 401, 'INVALID_CODE');
    expect(sessionCookieOf(replayed)).toBeUndefined();
    expect(await sessionsOf(email)).toHaveLength(sessions);
    // Counted as a wrong code on the account, and the sign-in stays open for the next code.
    expect((await twoFactorOf(email)).failedVerificationCount).toBe(1);
    const next = await post(t, '/api/auth/two-factor/verify-totp', { code: await freshTotp(key) }, challenge);
    expect(next.statusCode, next.body).toBe(200);
    expect(await sessionsOf(email)).toHaveLength(sessions + 1);
    // Only a hash of the user and the code is kept.
    const used = await t.database.db
      .select()
      .from(schema.usedTotpCode)
      .where(eq(schema.usedTotpCode.userId, (await twoFactorOf(email)).userId));
    expect(used.length).toBeGreaterThanOrEqual(2);
    for (const row of used) expect(row.codeHash).not.toContain(code);
  });

  it('gives one session when the same code is sent twice at once', async () => {
    const email = freshEmail('race');
    const { key } = await enrol(await signUpVerifiedUser(t.app, email));
    const sessions = (await sessionsOf(email)).length;
    const code = await freshTotp(key);
    const challenges = await Promise.all([passwordStep(email), passwordStep(email)]);
    const answers = await Promise.all(
      challenges.map((challenge) => post(t, '/api/auth/two-factor/verify-totp', { code }, challenge)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    const refused = answers.find((answer) => answer.statusCode === 401)!;
    expectApiError(refused, 401, 'INVALID_CODE');
    expect(sessionCookieOf(refused)).toBeUndefined();
    expect(await sessionsOf(email)).toHaveLength(sessions + 1);

    // The claim itself, when both uses get past the first look at once: one wins.
    const { userId } = await twoFactorOf(email);
    const claims = usedTotpCodes(t.database.db, 'a test secret');
    const context = { path: '/two-factor/verify-totp', body: { code: '123456' } };
    const settled = await Promise.allSettled([
      claims.sessionCreateBefore({ userId }, context),
      claims.sessionCreateBefore({ userId }, context),
    ]);
    expect(settled.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const reason = settled.find((result) => result.status === 'rejected')!.reason as {
      statusCode: number;
      body: { code: string };
    };
    expect([reason.statusCode, reason.body.code]).toEqual([401, 'INVALID_CODE']);
  });

  it("does not hold one user's code against another user with the same code", async () => {
    const first = freshEmail('same-code');
    const second = freshEmail('same-code');
    const { key } = await enrol(await signUpVerifiedUser(t.app, first));
    await enrol(await signUpVerifiedUser(t.app, second));
    // The second user's app is given the first one's key (stored encrypted the same way).
    const { secret } = await twoFactorOf(first);
    await t.database.db
      .update(schema.twoFactor)
      .set({ secret })
      .where(eq(schema.twoFactor.userId, (await twoFactorOf(second)).userId));

    const code = await freshTotp(key);
    for (const email of [first, second]) {
      const verified = await post(t, '/api/auth/two-factor/verify-totp', { code }, await passwordStep(email));
      expect(verified.statusCode, verified.body).toBe(200);
    }
  });

  it('does not offer to trust the device', async () => {
    const email = freshEmail('trust');
    const { key } = await enrol(await signUpVerifiedUser(t.app, email));
    const challenge = await passwordStep(email);
    const response = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: totp(key), trustDevice: true },
      challenge,
    );
    expect(expectApiError(response, 400, 'VALIDATION_ERROR').field).toBe('trustDevice');
  });

  it('limits wrong codes: 5 per sign-in, then 10 in a row lock the account for 15 minutes (429)', async () => {
    const email = freshEmail('guess');
    const { key } = await enrol(await signUpVerifiedUser(t.app, email));

    const first = await passwordStep(email);
    for (let guess = 0; guess < 5; guess += 1)
      expectApiError(
        await post(t, '/api/auth/two-factor/verify-totp', { code: wrongCode(key) }, first),
        401,
        'INVALID_CODE',
      );
    // The sixth try ends this sign-in, right code or not.
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: totp(key) }, first),
      400,
      'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE',
    );
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: totp(key) }, first),
      401,
      'INVALID_TWO_FACTOR_COOKIE',
    );

    const second = await passwordStep(email);
    for (let guess = 0; guess < 4; guess += 1)
      expectApiError(
        await post(t, '/api/auth/two-factor/verify-backup-code', { code: 'AAAAA-AAAAA' }, second),
        401,
        'INVALID_BACKUP_CODE',
      );
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: wrongCode(key) }, second),
      401,
      'INVALID_CODE',
    );
    // Ten wrong codes in a row: the account's second factor is locked, the right code included.
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: totp(key) }, second),
      429,
      'ACCOUNT_TEMPORARILY_LOCKED',
    );
    const third = await passwordStep(email);
    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: totp(key) }, third),
      429,
      'ACCOUNT_TEMPORARILY_LOCKED',
    );

    // Once the lock has run out (moved into the past here), the right code signs in and the count restarts.
    const [user] = await t.database.db.select().from(schema.user).where(eq(schema.user.email, email));
    const [row] = await t.database.db
      .select()
      .from(schema.twoFactor)
      .where(eq(schema.twoFactor.userId, user!.id));
    expect(row!.lockedUntil!.getTime() - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    await t.database.db
      .update(schema.twoFactor)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(schema.twoFactor.userId, user!.id));
    const verified = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      await passwordStep(email),
    );
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('limits second-factor checks per client IP (429 RATE_LIMITED)', async () => {
    const email = freshEmail('per-ip');
    const cookie = await signUpVerifiedUser(limited.app, email);
    const { key } = await enrol(cookie, limited);
    const attacker = '203.0.113.7';
    const challenge = await passwordStep(email, limited, attacker);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await post(
        limited,
        '/api/auth/two-factor/verify-backup-code',
        { code: 'AAAAA-AAAAA' },
        challenge,
        attacker,
      );
      expectApiError(response, 401, 'INVALID_BACKUP_CODE');
    }
    const refused = await post(
      limited,
      '/api/auth/two-factor/verify-totp',
      { code: totp(key) },
      challenge,
      attacker,
    );
    expectApiError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held up by it.
    const other = await post(
      limited,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      challenge,
      '198.51.100.2',
    );
    expect(other.statusCode, other.body).toBe(200);
  });

  it('keeps sign-in by mailed code closed, so it cannot go around the second factor', async () => {
    const email = freshEmail('otp');
    await enrol(await signUpVerifiedUser(t.app, email));
    const asked = await post(t, '/api/auth/email-otp/send-verification-otp', { email, type: 'sign-in' });
    expect(expectApiError(asked, 400, 'VALIDATION_ERROR').field).toBe('type');
    const signIn = await post(t, '/api/auth/sign-in/email-otp', { email, otp: '123456' });
    expectApiError(signIn, 404, 'NOT_FOUND');
    expect(sessionCookieOf(signIn)).toBeUndefined();
  });
});

/** The Google button's flow, its redirects followed by hand: answers where the portal sent the browser. */
async function signInWithGoogle(as: GoogleIdentity) {
  google.signInAs(as);
  const body = {
    provider: 'google',
    callbackURL: '/apps/asc',
    errorCallbackURL: '/login',
    newUserCallbackURL: '/',
  };
  const start = await post(t, '/api/auth/sign-in/social', body);
  expect(start.statusCode, start.body).toBe(200);
  const consent = await fetch((start.json() as { url: string }).url, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location') ?? '');
  const landed = await t.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: cookieHeader(start.headers['set-cookie']) },
  });
  expect(landed.statusCode, landed.body).toBe(302);
  return {
    location: new URL(String(landed.headers.location), TEST_ORIGIN),
    cookies: cookieHeader(landed.headers['set-cookie']),
    landed,
  };
}

describe('Google sign-in with a second factor', () => {
  it('asks for the code before there is a session, then lands where sign-in was going', async () => {
    const email = freshEmail('google');
    const { key } = await enrol(await signUpVerifiedUser(t.app, email));
    const before = (await sessionsOf(email)).length;

    const { location, cookies, landed } = await signInWithGoogle({ sub: `google-${email}`, email });
    expect(`${location.origin}${location.pathname}`).toBe(`${TEST_ORIGIN}/two-factor`);
    expect(location.searchParams.get('redirect')).toBe('/apps/asc');
    expect(sessionCookieOf(landed)).toBeUndefined();
    expect(await sessionsOf(email)).toHaveLength(before);
    expectApiError(await account(cookies), 401, 'UNAUTHORIZED');

    expectApiError(
      await post(t, '/api/auth/two-factor/verify-totp', { code: wrongCode(key) }, cookies),
      401,
      'INVALID_CODE',
    );
    const verified = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      cookies,
    );
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await me(sessionCookieOf(verified)!)).userEmail).toBe(email);
  });

  it('lets a member without a password turn it on with the session alone', async () => {
    const email = freshEmail('google-only');
    const first = await signInWithGoogle({ sub: `google-${email}`, email });
    const cookie = sessionCookieOf(first.landed)!;
    expect(await me(cookie)).toMatchObject({ hasPassword: false, twoFactorEnabled: false });
    const { key } = await startEnrolment(cookie, t, undefined);
    const confirmed = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      cookie,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const second = await signInWithGoogle({ sub: `google-${email}`, email });
    expect(second.location.pathname).toBe('/two-factor');
    expect(sessionCookieOf(second.landed)).toBeUndefined();
    const verified = await post(
      t,
      '/api/auth/two-factor/verify-totp',
      { code: await freshTotp(key) },
      second.cookies,
    );
    expect(verified.statusCode, verified.body).toBe(200);
  });
});

describe("the organisation's requirement", () => {
  it('is set by the super-admin alone, who must have a second factor first', async () => {
    const ownerEmail = freshEmail('owner');
    const owner = await setUpOrganization(t.app, ownerEmail);
    const { cookie: admin } = await joinByInvitation(t.app, owner, freshEmail('admin'), 'portal.admin');

    const put = (cookie: string | undefined, requireTwoFactor: unknown) =>
      t.app.inject(jsonRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor }, cookie));
    expectApiError(await put(undefined, true), 401, 'UNAUTHORIZED');
    expectApiError(await put(admin, true), 403, 'FORBIDDEN');
    expectApiError(await put(owner, true), 409, 'OWN_TWO_FACTOR_REQUIRED');
    expect(expectApiError(await put(owner, 'yes'), 400, 'VALIDATION_ERROR').field).toBe('requireTwoFactor');
    expect((await me(owner)).requireTwoFactor).toBe(false);

    const { cookie: enrolledOwner } = await enrol(owner);
    const required = await put(enrolledOwner, true);
    expect(required.statusCode, required.body).toBe(200);
    expect(required.json()).toMatchObject({
      requireTwoFactor: true,
      twoFactorEnabled: true,
      twoFactorEnrolmentRequired: false,
    });
    expect((await me(admin)).requireTwoFactor).toBe(true);
    expectApiError(await put(admin, false), 403, 'TWO_FACTOR_ENROLMENT_REQUIRED');
    const lifted = await put(enrolledOwner, false);
    expect(lifted.json()).toMatchObject({ requireTwoFactor: false });
  });

  it('leaves a member without a second factor nothing but enrolment, from the next request', async () => {
    const owner = await setUpOrganization(t.app, freshEmail('owner'));
    const memberEmail = freshEmail('developer');
    const { cookie: member } = await joinByInvitation(t.app, owner, memberEmail, 'portal.developer');
    const accessToken = (
      (await t.app.inject(jsonRequest('GET', '/api/auth/token', undefined, member))).json() as {
        token: string;
      }
    ).token;
    const { cookie: enrolledOwner } = await enrol(owner);
    const required = await t.app.inject(
      jsonRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor: true }, enrolledOwner),
    );
    expect(required.statusCode, required.body).toBe(200);

    // The session the member already had, and a new sign-in alike.
    for (const cookie of [member, sessionCookieOf(await signInRequest(t.app, memberEmail))!]) {
      expect(await me(cookie)).toMatchObject({
        requireTwoFactor: true,
        twoFactorEnabled: false,
        twoFactorEnrolmentRequired: true,
        hasPassword: true,
      });
      for (const url of ['/api/v1/applications', '/api/v1/members/me', '/api/v1/members'])
        expectApiError(
          await t.app.inject(jsonRequest('GET', url, undefined, cookie)),
          403,
          'TWO_FACTOR_ENROLMENT_REQUIRED',
        );
      expectApiError(
        await t.app.inject(jsonRequest('GET', '/api/auth/token', undefined, cookie)),
        403,
        'TWO_FACTOR_ENROLMENT_REQUIRED',
      );
    }
    // An access token taken before, and the regions' re-check of its session, open nothing either.
    expectApiError(
      await t.app.inject(bearerRequest('GET', '/api/v1/applications', accessToken)),
      403,
      'TWO_FACTOR_ENROLMENT_REQUIRED',
    );
    expect(await t.app.sessions.fromSessionId(String(decodeJwt(accessToken).sid))).toBeUndefined();

    // Enrolment is what the session may do, and it opens the rest.
    const { cookie: enrolled } = await enrol(member);
    expect(await me(enrolled)).toMatchObject({ twoFactorEnabled: true, twoFactorEnrolmentRequired: false });
    const applications = await t.app.inject(jsonRequest('GET', '/api/v1/applications', undefined, enrolled));
    expect(applications.statusCode, applications.body).toBe(200);
    // From now on the member signs in with a code.
    await passwordStep(memberEmail);
  });

  it('is not asked of a member who signs in only through an identity provider', async () => {
    const owner = await setUpOrganization(t.app, freshEmail('owner'));
    const memberEmail = freshEmail('idp');
    const { cookie: member } = await joinByInvitation(t.app, owner, memberEmail, 'portal.developer');
    // As a member made by single sign-on: no password, an account at the organisation's provider.
    const [user] = await t.database.db.select().from(schema.user).where(eq(schema.user.email, memberEmail));
    await t.database.db
      .update(schema.account)
      .set({ providerId: 'acme-okta', password: null })
      .where(and(eq(schema.account.userId, user!.id), eq(schema.account.providerId, 'credential')));
    const { cookie: enrolledOwner } = await enrol(owner);
    await t.app.inject(
      jsonRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor: true }, enrolledOwner),
    );

    expect(await me(member)).toMatchObject({
      requireTwoFactor: true,
      twoFactorEnrolmentRequired: false,
      hasPassword: false,
    });
    const applications = await t.app.inject(jsonRequest('GET', '/api/v1/applications', undefined, member));
    expect(applications.statusCode, applications.body).toBe(200);
  });
});
