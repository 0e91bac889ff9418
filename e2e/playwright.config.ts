import { defineConfig } from '@playwright/test';
import { chromiumAvailable, CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/chromium.ts';
import { BASE_URL_ENV } from './harness/harness-state.ts';

// `npm test -w e2e` (run.mjs) decides what a missing browser means; called directly, it is an error.
if (!chromiumAvailable) throw new Error(`Chromium was not found at ${CHROMIUM_PATH} (apt-get install -y chromium).`);

/**
 * The built portal in real Chromium. The global setup starts the server and an SMTP sink and sets
 * E2E_BASE_URL before the workers start, so `baseURL` is known wherever tests run.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './harness/global-setup.ts',
  globalTeardown: './harness/global-teardown.ts',
  outputDir: './test-results',
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  use: {
    baseURL: process.env[BASE_URL_ENV],
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    locale: 'en-US',
    timezoneId: 'UTC',
    actionTimeout: 15_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
