import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll } from 'vitest';
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

/** The `name=value` pairs of the response's Set-Cookie headers, ready for a Cookie header. */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

/** The newest mail in the dev outbox for an address, read through /dev/mailbox. */
export async function latestMail(app: FastifyInstance, to: string) {
  const response = await app.inject({ method: 'GET', url: `/dev/mailbox/messages?to=${encodeURIComponent(to)}` });
  const messages = response.json() as { subject: string; text: string; html: string }[];
  return messages[0];
}

export function codeFromMail(text: string, parameter: 'confirmation_code' | 'code'): string {
  const match = text.match(new RegExp(`[?&]${parameter}=(\\d+)`));
  if (!match?.[1]) throw new Error(`no ${parameter} in mail`);
  return match[1];
}

/** Signs up, verifies from the mailed code and signs in; answers the session cookie. */
export async function signUpVerifiedUser(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  const signUp = await app.inject(jsonRequest('POST', '/api/auth/sign-up/email', { email, password, name: email.split('@')[0] }));
  if (signUp.statusCode !== 200) throw new Error(`sign-up failed: ${signUp.body}`);
  const mail = await latestMail(app, email);
  if (!mail) throw new Error('no verification mail');
  const otp = codeFromMail(mail.text, 'confirmation_code');
  const verify = await app.inject(jsonRequest('POST', '/api/auth/email-otp/verify-email', { email, otp }));
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return signIn(app, email, password);
}

export async function signIn(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  const response = await app.inject(jsonRequest('POST', '/api/auth/sign-in/email', { email, password }));
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  return cookieHeader(response.headers['set-cookie']);
}

/** A signed-in super-admin of an organisation that has completed setup. */
export async function setUpOrganization(app: FastifyInstance, email: string) {
  const cookie = await signUpVerifiedUser(app, email);
  const setup = await app.inject(
    jsonRequest(
      'PUT',
      '/api/v1/accounts',
      { organization: 'Acme', firstName: 'Ann', lastName: 'Lee', billingCountry: 'SG', acceptedPrivacyPolicy: true, acceptedTerms: true },
      cookie,
    ),
  );
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  return cookie;
}
