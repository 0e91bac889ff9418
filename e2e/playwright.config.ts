import { defineConfig } from '@playwright/test';
import { browserRequired, chromiumAvailable, CHROMIUM_ARGS, CHROMIUM_PATH, MISSING_BROWSER_MESSAGE } from './harness/browser.ts';
import { BASE_URL_ENV } from './harness/harness-state.ts';

if (!chromiumAvailable) {
  if (browserRequired) throw new Error(`REQUIRE_BROWSER_TESTS=1 but Chromium was not found at ${CHROMIUM_PATH}.`);
  // The runner and each worker load this file; say it once.
  if (process.env.TEST_WORKER_INDEX === undefined) console.warn(MISSING_BROWSER_MESSAGE);
}

/**
 * The built portal in real Chromium. The global setup starts the server and an SMTP sink and sets
 * E2E_BASE_URL before the workers start, so `baseURL` is known wherever tests run.
 */
export default defineConfig({
  ...(chromiumAvailable
    ? {
        testDir: './tests',
        globalSetup: './harness/global-setup.ts',
        globalTeardown: './harness/global-teardown.ts',
      }
    : { testDir: './harness', testMatch: 'browser-missing.spec.ts' }),
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
