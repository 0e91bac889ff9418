import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FREE_MAIL_DOMAINS } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { SESSION_COOKIE_NAME } from '../src/auth/auth.ts';
import { ConfigError } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { testConfig } from './fixtures.ts';
import { GOOGLE_TEST_CLIENT, GoogleStandIn, type GoogleIdentity } from './google-stand-in.ts';
import {
  INITIAL_SETUP,
  TEST_ORIGIN,
  accountOf,
  cookieHeader,
  sessionCookieOf,
  jsonRequest,
  setUpOrganization,
  signIn,
  signUp,
  signUpVerifiedUser,
  joinByInvitation,
  useTestApp,
} from './helper.ts';

/*
 * Google sign-in driven over HTTP against a local OpenID provider standing in for Google: the
 * portal discovers it at start (so it runs before the portal is built), the browser's redirects
 * are followed by hand, and the stand-in approves as the identity each test names.
 */
const google = await GoogleStandIn.start();
afterAll(() => google.stop());

const t = useTestApp(google.portalEnv);
const withoutGoogle = useTestApp();

const CALLBACK_PATH = '/api/auth/callback/google';
/** What the web app's Google button sends (apps/web/src/features/auth/api/social-sign-in.ts). */
const WEB_SIGN_IN = { provider: 'google', callbackURL: '/', errorCallbackURL: '/', newUserCallbackURL: '/' };

let subjects = 0;
const identity = (email: string, extra: Partial<GoogleIdentity> = {}): GoogleIdentity => ({
  sub: `google-${(subjects += 1)}`,
  email,
  ...extra,
});

interface Landing {
  /** Where the portal sent the browser after Google's callback. */
  location: URL;
  /** The session cookie set on the way, if any. */
  session: string | undefined;
}

/** The Google button's flow: start at the portal, through the stand-in's consent, back to the portal's callback. */
async function signInWithGoogle(as: GoogleIdentity | undefined, cookie?: string): Promise<Landing> {
  if (as) google.signInAs(as);
  const start = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/social', WEB_SIGN_IN, cookie));
  expect(start.statusCode, start.body).toBe(200);
  const { url } = start.json() as { url: string };
  expect(url.startsWith(`${google.issuer}/authorize?`)).toBe(true);
  const stateCookie = cookieHeader(start.headers['set-cookie']);

  const consent = await fetch(url, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location') ?? '');
  expect(`${callback.origin}${callback.pathname}`).toBe(`${TEST_ORIGIN}${CALLBACK_PATH}`);

  const landed = await t.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: [stateCookie, cookie].filter(Boolean).join('; ') },
  });
  expect(landed.statusCode, landed.body).toBe(302);
  return {
    location: new URL(String(landed.headers.location), TEST_ORIGIN),
    session: sessionCookieOf(landed.headers['set-cookie']),
  };
}

async function usersWithEmail(email: string) {
  return t.database.db.select().from(schema.user).where(eq(schema.user.email, email));
}

async function accountsOf(userId: string) {
  const accounts = await t.database.db.select().from(schema.account).where(eq(schema.account.userId, userId));
  return accounts.map((account) => account.providerId).sort();
}

const me = (cookie: string) => accountOf(t.app, cookie);

describe('whether Google sign-in is offered', () => {
  it('says so in the public configuration only when Google is configured', async () => {
    const configured = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(configured.json()).toMatchObject({ googleSignIn: true });
    const unconfigured = await withoutGoogle.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(unconfigured.json()).toMatchObject({ googleSignIn: false });
  });

  it('keeps the Google endpoints closed when Google is not configured', async () => {
    const start = await withoutGoogle.app.inject(
      jsonRequest('POST', '/api/auth/sign-in/social', WEB_SIGN_IN),
    );
    expect(start.statusCode).toBe(404);
    const callback = await withoutGoogle.app.inject({
      method: 'GET',
      url: `${CALLBACK_PATH}?code=x&state=y`,
    });
    expect(callback.statusCode).toBe(404);
  });
});

describe('the authorization request', () => {
  it("asks the discovered issuer for the portal's client, callback, OpenID scopes, a nonce and PKCE", async () => {
    await signInWithGoogle(identity('scopes@acme-google.io'));
    const request = google.authorizations.at(-1);
    expect(request).toEqual({
      clientId: GOOGLE_TEST_CLIENT.id,
      redirectUri: `${TEST_ORIGIN}${CALLBACK_PATH}`,
      scope: expect.any(String),
      hasNonce: true,
      codeChallengeMethod: 'S256',
    });
    expect(request?.scope?.split(' ').sort()).toEqual(['email', 'openid', 'profile']);
  });
});

describe('a new Google user with a corporate address', () => {
  it('is created at a company subdomain named like a provider: outlook.acme.com is not outlook.com', async () => {
    const person = identity('someone@outlook.acme.com');
    const landing = await signInWithGoogle(person);
    expect(landing.location.searchParams.get('error')).toBeNull();
    expect(landing.session).toBeDefined();
    expect(await usersWithEmail(person.email)).toHaveLength(1);
  });

  it('is created verified, signed in, and sets up an organisation like an email sign-up', async () => {
    const newcomer = identity('founder@acme-google.io', { name: 'Fay Founder' });
    const landing = await signInWithGoogle(newcomer);
    expect(landing.location.href).toBe(`${TEST_ORIGIN}/`);
    expect(landing.session).toBeDefined();

    const [user, ...others] = await usersWithEmail(newcomer.email);
    expect(others).toEqual([]);
    expect(user).toMatchObject({ emailVerified: true, name: 'Fay Founder' });
    expect(await accountsOf(user!.id)).toEqual(['google']);

    const account = await me(landing.session!);
    expect(account).toMatchObject({ email: newcomer.email, isAccountFilled: false });
    const setup = await t.app.inject(jsonRequest('PUT', '/api/v1/accounts', INITIAL_SETUP, landing.session));
    expect(setup.statusCode, setup.body).toBe(200);
    expect(await me(landing.session!)).toMatchObject({
      isAccountFilled: true,
      organization: INITIAL_SETUP.organization,
    });
  });

  it('signs in as the same user the next time, creating nothing', async () => {
    const returning = identity('returning@acme-google.io');
    const first = await signInWithGoogle(returning);
    const firstMember = (await me(first.session!)).memberId;

    const again = await signInWithGoogle(returning);
    expect(again.location.href).toBe(`${TEST_ORIGIN}/`);
    expect(again.session).toBeDefined();
    expect(again.session).not.toBe(first.session);
    expect((await me(again.session!)).memberId).toBe(firstMember);
    const [user, ...others] = await usersWithEmail(returning.email);
    expect(others).toEqual([]);
    expect(await accountsOf(user!.id)).toEqual(['google']);
  });

  it('is refused when Google has not verified the address, and nothing is created', async () => {
    const unverified = identity('unverified@acme-google.io', { emailVerified: false });
    const landing = await signInWithGoogle(unverified);
    expect(landing.location.pathname).toBe('/');
    expect(landing.location.searchParams.get('error')).toBe('EMAIL_NOT_VERIFIED');
    expect(landing.location.searchParams.get('error_description')).toMatch(/not verified/);
    expect(landing.session).toBeUndefined();
    expect(await usersWithEmail(unverified.email)).toEqual([]);
  });
});

describe('a new Google user with a free-mail address', () => {
  const addresses = [
    ...FREE_MAIL_DOMAINS.map((domain) => `someone@${domain}.com`),
    'someone@yahoo.co.uk',
    'someone@outlook.fr',
    // Beyond the seven: the maintained list, and any address under a free-mail domain (decision 032).
    'someone@proton.me',
    'someone@googlemail.com',
    'someone@mail.gmail.com',
  ];

  it('covers the 7 free-mail providers of the specification', () => {
    expect([...FREE_MAIL_DOMAINS].sort()).toEqual([
      'aol',
      'gmail',
      'hotmail',
      'icloud',
      'outlook',
      'protonmail',
      'yahoo',
    ]);
  });

  it.each(addresses)(
    '%s is sent back with CORPORATE_EMAIL_REQUIRED in error_description, and nothing is created',
    async (email) => {
      const person = identity(email);
      const landing = await signInWithGoogle(person);
      expect(landing.location.origin).toBe(TEST_ORIGIN);
      expect(landing.location.pathname).toBe('/');
      expect(landing.location.searchParams.get('error')).toBe('CORPORATE_EMAIL_REQUIRED');
      expect(landing.location.searchParams.get('error_description')).toContain('CORPORATE_EMAIL_REQUIRED');
      expect(landing.session).toBeUndefined();
      expect(await usersWithEmail(email)).toEqual([]);
      expect(
        await t.database.db.select().from(schema.account).where(eq(schema.account.accountId, person.sub)),
      ).toEqual([]);
    },
  );
});

describe('an existing member signing in with Google', () => {
  it('with the same verified address is linked to their user: one user, two accounts, their own organisation', async () => {
    const email = 'owner@acme-linked.io';
    const passwordCookie = await setUpOrganization(t.app, email);
    const before = await me(passwordCookie);

    const landing = await signInWithGoogle(identity(email));
    expect(landing.location.href).toBe(`${TEST_ORIGIN}/`);
    expect(landing.session).toBeDefined();
    const after = await me(landing.session!);
    expect(after.memberId).toBe(before.memberId);
    expect(after.organizationId).toBe(before.organizationId);

    const [user, ...others] = await usersWithEmail(email);
    expect(others).toEqual([]);
    expect(await accountsOf(user!.id)).toEqual(['credential', 'google']);
    // The password still signs in too.
    expect(await signIn(t.app, email)).toContain(SESSION_COOKIE_NAME);
  });

  it('with a free-mail address is linked, not refused: the corporate rule is for new users', async () => {
    const ownerCookie = await setUpOrganization(t.app, 'owner@acme-invites.io');
    const { memberId } = await joinByInvitation(
      t.app,
      ownerCookie,
      'contractor@acme-invites.io',
      'portal.developer',
    );
    // Invitations refuse free mail now; a member from before that rule keeps a personal address.
    const email = 'contractor@gmail.com';
    await t.database.db
      .update(schema.user)
      .set({ email })
      .where(eq(schema.user.email, 'contractor@acme-invites.io'));

    const landing = await signInWithGoogle(identity(email));
    expect(landing.location.searchParams.get('error')).toBeNull();
    expect(landing.session).toBeDefined();
    expect((await me(landing.session!)).memberId).toBe(memberId);
    const [user] = await usersWithEmail(email);
    expect(await accountsOf(user!.id)).toEqual(['credential', 'google']);
  });

  it("is refused with SSO_REQUIRED when the member's organisation requires single sign-on", async () => {
    const ownerCookie = await setUpOrganization(t.app, 'owner@acme-enforced.io');
    const email = 'dev@acme-enforced.io';
    await joinByInvitation(t.app, ownerCookie, email, 'portal.developer');
    const { organizationId } = await me(ownerCookie);
    await t.database.db
      .update(schema.organization)
      .set({ enforcedSso: true })
      .where(eq(schema.organization.id, organizationId));

    const landing = await signInWithGoogle(identity(email));
    expect(landing.session).toBeUndefined();
    // The web app's guard carries the description to /sign-in-sso, where it is shown (§2).
    expect(landing.location.searchParams.get('error')).toBe('SSO_REQUIRED');
    expect(landing.location.searchParams.get('error_description')).toContain('single sign-on');
  });

  it('is not linked when Google has not verified the address', async () => {
    const email = 'cautious@acme-linked.io';
    await signUpVerifiedUser(t.app, email);
    const landing = await signInWithGoogle(identity(email, { emailVerified: false }));
    expect(landing.location.searchParams.get('error')).toBe('account_not_linked');
    expect(landing.session).toBeUndefined();
    const [user] = await usersWithEmail(email);
    expect(await accountsOf(user!.id)).toEqual(['credential']);
  });

  it('is not linked to a sign-up whose address the portal never verified', async () => {
    const email = 'squatted@acme-linked.io';
    expect((await signUp(t.app, email)).statusCode).toBe(200);
    const landing = await signInWithGoogle(identity(email));
    expect(landing.location.searchParams.get('error')).toBe('account_not_linked');
    expect(landing.session).toBeUndefined();
    const [user, ...others] = await usersWithEmail(email);
    expect(others).toEqual([]);
    expect(await accountsOf(user!.id)).toEqual(['credential']);
  });
});

describe('callbacks that do not come from a sign-in the portal started', () => {
  it('sends a callback without state to the error page, signed out', async () => {
    const response = await t.app.inject({ method: 'GET', url: `${CALLBACK_PATH}?code=anything` });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${TEST_ORIGIN}/error?error=state_not_found`);
    expect(sessionCookieOf(response.headers['set-cookie'])).toBeUndefined();
  });

  it('refuses a state the portal never issued', async () => {
    google.signInAs(identity('forged@acme-google.io'));
    const start = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/social', WEB_SIGN_IN));
    const consent = await fetch((start.json() as { url: string }).url, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location') ?? '');
    callback.searchParams.set('state', 'not-a-state-the-portal-issued');
    const response = await t.app.inject({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: cookieHeader(start.headers['set-cookie']) },
    });
    expect(response.statusCode).toBe(302);
    expect(new URL(String(response.headers.location)).searchParams.get('error')).toBe('state_mismatch');
    expect(sessionCookieOf(response.headers['set-cookie'])).toBeUndefined();
    expect(await usersWithEmail('forged@acme-google.io')).toEqual([]);
  });

  it('refuses the state of a sign-in started in another browser (no state cookie)', async () => {
    google.signInAs(identity('elsewhere@acme-google.io'));
    const start = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/social', WEB_SIGN_IN));
    const consent = await fetch((start.json() as { url: string }).url, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location') ?? '');
    const response = await t.app.inject({ method: 'GET', url: `${callback.pathname}${callback.search}` });
    expect(response.statusCode).toBe(302);
    expect(new URL(String(response.headers.location), TEST_ORIGIN).searchParams.get('error')).toBe(
      'state_mismatch',
    );
    expect(await usersWithEmail('elsewhere@acme-google.io')).toEqual([]);
  });

  it('sends a denied consent back with the error, signed out', async () => {
    const landing = await signInWithGoogle(undefined);
    expect(landing.location.pathname).toBe('/');
    expect(landing.location.searchParams.get('error')).toBe('access_denied');
    expect(landing.session).toBeUndefined();
  });
});

describe('sign-in with a Google ID token posted to the portal', () => {
  it('is refused even when the token is valid: only the redirect flow signs in', async () => {
    const person = identity('one-tap@acme-google.io');
    const token = await google.idTokenFor(person);
    const response = await t.app.inject(
      jsonRequest('POST', '/api/auth/sign-in/social', { provider: 'google', idToken: { token } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'idToken' });
    expect(sessionCookieOf(response.headers['set-cookie'])).toBeUndefined();
    expect(await usersWithEmail(person.email)).toEqual([]);
  });
});

describe('starting with Google configured', () => {
  async function start(env: Record<string, string>) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
    const database = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
    try {
      const app = await buildApp({ config: testConfig(dataDir, env), database });
      await app.close();
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('refuses to start when the issuer cannot be discovered', async () => {
    const gone = await GoogleStandIn.start();
    const env = gone.portalEnv;
    await gone.stop();
    const failure = start(env);
    await expect(failure).rejects.toThrow(ConfigError);
    await expect(failure).rejects.toThrow(/no usable OpenID configuration/);
  });

  it('refuses to start when the discovered issuer is not GOOGLE_ISSUER', async () => {
    const impostor = await GoogleStandIn.start({ announcedIssuerPath: '/another-issuer' });
    try {
      await expect(start(impostor.portalEnv)).rejects.toThrow(
        /names the issuer http:\/\/127\.0\.0\.1:\d+\/another-issuer/,
      );
    } finally {
      await impostor.stop();
    }
  });
});
