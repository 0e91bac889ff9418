import { loadConfig } from '../src/config.ts';

/** Values and parsers shared by the API tests and the benchmark (no test runner needed). */
export const TEST_ORIGIN = 'http://localhost:3000';
export const STRONG_PASSWORD = 'Str0ng!Passw0rd';

/** The portal's configuration for a test or benchmark run: quiet, a fixed secret, no practical rate limit. */
export function testConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: TEST_ORIGIN,
    PORTAL_DATA_DIR: dataDir,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    // Every request comes from one address; rate-limit.test.ts sets real limits.
    RATE_LIMIT_MAX_PER_IP: '10000',
    RATE_LIMIT_MAX_PER_ACCOUNT: '10000',
    RATE_LIMIT_MAIL_PER_ADDRESS: '10000',
    RATE_LIMIT_MAIL_PER_IP: '10000',
    // Tests bill the months they name; billing-jobs.test.ts turns the schedule on.
    BILLING_SCHEDULE_SECONDS: '0',
    ...env,
  });
}

export const INITIAL_SETUP = {
  organization: 'Acme',
  firstName: 'Ann',
  lastName: 'Lee',
  billingCountry: 'SG',
  acceptedPrivacyPolicy: true,
  acceptedTerms: true,
} as const;

export function codeFromMail(text: string, parameter: 'confirmation_code' | 'code'): string {
  const match = text.match(new RegExp(`[?&]${parameter}=(\\d+)`));
  if (!match?.[1]) throw new Error(`no ${parameter} in mail`);
  return match[1];
}
