import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Account, RoleId, SsoSettings } from '@portal/contracts';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { SESSION_COOKIE_NAME } from '../src/auth/auth.ts';
import type { Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { INITIAL_SETUP, STRONG_PASSWORD, TEST_ORIGIN, codeFromMail, testConfig } from './fixtures.ts';
import { migratedPgliteCopy } from './pglite-copy.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { freshTotp, keyOf } from './totp.ts';

export { INITIAL_SETUP, STRONG_PASSWORD, TEST_ORIGIN, codeFromMail } from './fixtures.ts';

/**
 * A fresh database for one test file: an in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped when the file ends).
 */
async function openFreshDatabase(): Promise<Database & { dispose(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({
      databaseUrl: undefined,
      dataDir: 'memory://',
      pgliteCopy: migratedPgliteCopy(),
    });
    return { ...database, dispose: () => database.close() };
  }
  const scratch = await createScratchDatabase(serverUrl, 'portal_test');
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
}

/** Builds the portal on a fresh database; `close` ends both. */
export async function buildTestApp(env: Record<string, string>): Promise<TestApp & { close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const config = testConfig(dataDir, env);
  const database = await openFreshDatabase();
  const app = await buildApp({ config, database });
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      await database.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The portal on a fresh database for this test file: built before its first test, closed (and
 * its database dropped) after its last. Call it at the top level of the file; the returned
 * object is filled in when the file's tests start.
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const testApp = {} as TestApp & { close?(): Promise<void> };
  beforeAll(async () => {
    Object.assign(testApp, await buildTestApp(env));
  });
  afterAll(async () => {
    await testApp.close?.();
  });
  return testApp;
}

/** JSON request as a browser on the portal's origin sends it (better-auth checks Origin). */
export function jsonRequest(method: InjectOptions['method'], url: string, body?: unknown, cookie?: string): InjectOptions {
  return {
    method,
    url,
    headers: { origin: TEST_ORIGIN, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  };
}

/** A request as a non-browser client sends it: the bearer access token, no cookie, no Origin. */
export function bearerRequest(method: InjectOptions['method'], url: string, token: string): InjectOptions {
  return { method, url, headers: { authorization: `Bearer ${token}` } };
}

interface InjectedResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}

/** Asserts the portal's error shape: the status, a JSON body `{code, message}` and, when given, the code. */
export function expectApiError(response: InjectedResponse, status: number, code?: string) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const body = response.json() as { code?: unknown; message?: unknown };
  expect(typeof body.code).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(body.message).not.toBe('');
  if (code) expect(body.code).toBe(code);
  return body as { code: string; message: string; field?: string; fields?: { field: string; message: string }[] };
}

/** The `name=value` pairs of the response's Set-Cookie headers, ready for a Cookie header. */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

/** The session cookie among a response's Set-Cookie headers (not an expired, emptied one), if any. */
export function sessionCookieOf(setCookie: string | string[] | undefined): string | undefined {
  const pair = cookieHeader(setCookie)
    .split('; ')
    .find((cookie) => cookie.startsWith(`${SESSION_COOKIE_NAME}=`));
  return pair && pair.length > SESSION_COOKIE_NAME.length + 1 ? pair : undefined;
}

/** The signed-in user's account (GET /api/v1/accounts/me), which must answer. */
export async function accountOf(app: FastifyInstance, cookie: string): Promise<Account> {
  const response = await app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Account;
}

/** A body for PUT /api/v1/sso/settings: the SSO domain and one owned email domain, nothing required. */
export function ssoSettingsBody(domain: string, emailDomain: string, changes: Record<string, unknown> = {}) {
  return {
    domain,
    emailDomains: [emailDomain],
    allowedEmails: [],
    defaultRoleId: 'portal.developer',
    defaultApplicationScopes: null,
    enforced: false,
    ...changes,
  };
}

/** A super-admin connects the organisation's identity provider and saves its sign-in settings; both must succeed. */
export async function connectSso(
  app: FastifyInstance,
  cookie: string,
  connection: Record<string, unknown>,
  settings: Record<string, unknown>,
): Promise<SsoSettings> {
  const connected = await app.inject(jsonRequest('PUT', '/api/v1/sso/connection', connection, cookie));
  expect(connected.statusCode, connected.body).toBe(200);
  const saved = await app.inject(jsonRequest('PUT', '/api/v1/sso/settings', settings, cookie));
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json() as SsoSettings;
}

export interface StoredMail {
  subject: string;
  text: string;
  html: string;
}

/** Every mail in the dev outbox for an address, newest first, read through /dev/mailbox. */
export async function mailsTo(app: FastifyInstance, to: string): Promise<StoredMail[]> {
  const response = await app.inject({ method: 'GET', url: `/dev/mailbox/messages?to=${encodeURIComponent(to)}` });
  return response.json() as StoredMail[];
}

/** The newest mail in the dev outbox for an address. */
export async function latestMail(app: FastifyInstance, to: string): Promise<StoredMail | undefined> {
  return (await mailsTo(app, to))[0];
}

/** The mails to an address once one has this in its subject: mail sent by a job arrives a moment later. */
export async function untilMail(app: FastifyInstance, to: string, subjectPart: string): Promise<StoredMail[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = await mailsTo(app, to);
    if (mails.some((mail) => mail.subject.includes(subjectPart))) return mails;
    if (Date.now() > deadline) throw new Error(`no mail with "${subjectPart}" to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The sign-up call as the web app makes it. */
export function signUp(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  return app.inject(jsonRequest('POST', '/api/auth/sign-up/email', { email, password, name: email.split('@')[0] }));
}

export function signInRequest(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  return app.inject(jsonRequest('POST', '/api/auth/sign-in/email', { email, password }));
}

export function verifyEmail(app: FastifyInstance, email: string, otp: string) {
  return app.inject(jsonRequest('POST', '/api/auth/email-otp/verify-email', { email, otp }));
}

/** The code of the newest mail to an address (`confirmation_code` of a verification link, `code` of a reset link). */
export async function latestCode(app: FastifyInstance, email: string, parameter: 'confirmation_code' | 'code') {
  const mail = await latestMail(app, email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return codeFromMail(mail.text, parameter);
}

/** Signs up, verifies from the mailed code and signs in; answers the session cookie. */
export async function signUpVerifiedUser(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  const signUpResponse = await signUp(app, email, password);
  if (signUpResponse.statusCode !== 200) throw new Error(`sign-up failed: ${signUpResponse.body}`);
  const verify = await verifyEmail(app, email, await latestCode(app, email, 'confirmation_code'));
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return signIn(app, email, password);
}

export async function signIn(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  const response = await signInRequest(app, email, password);
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  return cookieHeader(response.headers['set-cookie']);
}

/** A signed-in super-admin of an organisation that has completed setup. */
export async function setUpOrganization(app: FastifyInstance, email: string) {
  const cookie = await signUpVerifiedUser(app, email);
  const setup = await app.inject(jsonRequest('PUT', '/api/v1/accounts', INITIAL_SETUP, cookie));
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  return cookie;
}

/**
 * A signed-in member of another user's organisation with the given role, for tests that are not
 * about joining: the new user's own membership is moved into that organisation in the database,
 * without the member limit or mail. joinByInvitation joins the real way.
 */
export async function joinOrganization(testApp: TestApp, email: string, organizationId: string, roleId: RoleId) {
  const cookie = await signUpVerifiedUser(testApp.app, email);
  // The first account read creates the user's membership (in an organisation of their own).
  const me = await testApp.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  const { memberId } = me.json() as { memberId: string };
  await testApp.database.db
    .update(schema.member)
    .set({ organizationId, roleId })
    .where(eq(schema.member.id, memberId));
  return { cookie, memberId };
}

/** The code of the invitation link in a mail (`/invitation-signup?code=…`). */
export function invitationCodeFromMail(text: string): string {
  const match = text.match(/\/invitation-signup\?code=([A-Za-z0-9_-]+)/);
  if (!match?.[1]) throw new Error('no invitation link in mail');
  return match[1];
}

/** Invites an address with the owner's session, as the invite form does; answers the HTTP response. */
export function invite(app: FastifyInstance, cookie: string, emails: string[], roleId: string, applicationScopes: string[] | null = null) {
  return app.inject(jsonRequest('POST', '/api/v1/invitations', { emails, roleIds: [roleId], applicationScopes }, cookie));
}

/**
 * A member who joined through the real invitation flow: invited by `ownerCookie`, code read from the
 * mailed link, verified and confirmed. Answers the new member's session cookie and member id.
 */
export async function joinByInvitation(
  app: FastifyInstance,
  ownerCookie: string,
  email: string,
  roleId: string,
  applicationScopes: string[] | null = null,
) {
  const invited = await invite(app, ownerCookie, [email], roleId, applicationScopes);
  if (invited.statusCode !== 201) throw new Error(`invitation failed: ${invited.body}`);
  const mail = await latestMail(app, email.toLowerCase());
  if (!mail) throw new Error(`no invitation mail to ${email}`);
  const code = invitationCodeFromMail(mail.text);
  const verified = await app.inject(jsonRequest('POST', '/api/invitations/verify', { code }));
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  const { invitationId } = verified.json() as { invitationId: string };
  const confirmed = await app.inject(
    jsonRequest('POST', `/api/invitations/${invitationId}/confirm`, {
      displayName: email.split('@')[0],
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      code,
    }),
  );
  if (confirmed.statusCode !== 201) throw new Error(`confirm failed: ${confirmed.body}`);
  const { member } = confirmed.json() as { member: { id: string } };
  return { cookie: cookieHeader(confirmed.headers['set-cookie']), memberId: member.id };
}

/**
 * Turns on an authenticator app for the signed-in user as the Security tab does (the password, then
 * a first code from the app); answers the session that replaces the one given, and the app's key.
 */
export async function enrolAuthenticator(app: FastifyInstance, cookie: string) {
  const enabled = await app.inject(jsonRequest('POST', '/api/auth/two-factor/enable', { password: STRONG_PASSWORD }, cookie));
  if (enabled.statusCode !== 200) throw new Error(`two-factor enable failed: ${enabled.body}`);
  const key = keyOf((enabled.json() as { totpURI: string }).totpURI);
  const confirmed = await app.inject(jsonRequest('POST', '/api/auth/two-factor/verify-totp', { code: await freshTotp(key) }, cookie));
  const replaced = sessionCookieOf(confirmed.headers['set-cookie']);
  if (confirmed.statusCode !== 200 || !replaced) throw new Error(`two-factor confirm failed: ${confirmed.body}`);
  return { cookie: replaced, key };
}
