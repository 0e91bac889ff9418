import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';

export const TEST_ORIGIN = 'http://localhost:3000';
export const STRONG_PASSWORD = 'Str0ng!Passw0rd';

/**
 * A fresh database for one test file: an in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped when the file ends).
 */
async function openFreshDatabase(): Promise<Database & { dispose(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
    return { ...database, dispose: () => database.close() };
  }
  const name = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
  return {
    ...database,
    dispose: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
}

/** Builds the portal on a fresh database for this test file and closes both when the file ends. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: TEST_ORIGIN,
    PORTAL_DATA_DIR: dataDir,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    // Every request of a test file comes from one address; rate-limit.test.ts sets real limits.
    RATE_LIMIT_MAX_PER_IP: '10000',
    RATE_LIMIT_MAX_PER_ACCOUNT: '10000',
    ...env,
  });
  const database = await openFreshDatabase();
  const app = await buildApp({ config, database });
  afterAll(async () => {
    await app.close();
    await database.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { app, config, database };
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

export function codeFromMail(text: string, parameter: 'confirmation_code' | 'code'): string {
  const match = text.match(new RegExp(`[?&]${parameter}=(\\d+)`));
  if (!match?.[1]) throw new Error(`no ${parameter} in mail`);
  return match[1];
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

export const INITIAL_SETUP = {
  organization: 'Acme',
  firstName: 'Ann',
  lastName: 'Lee',
  billingCountry: 'SG',
  acceptedPrivacyPolicy: true,
  acceptedTerms: true,
} as const;

/** A signed-in super-admin of an organisation that has completed setup. */
export async function setUpOrganization(app: FastifyInstance, email: string) {
  const cookie = await signUpVerifiedUser(app, email);
  const setup = await app.inject(jsonRequest('PUT', '/api/v1/accounts', INITIAL_SETUP, cookie));
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  return cookie;
}
