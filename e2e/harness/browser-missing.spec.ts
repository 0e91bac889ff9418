import { test } from '@playwright/test';
import { MISSING_BROWSER_MESSAGE } from './browser.ts';

// The only skip in the suite: it stands in for every browser test when no Chromium is installed.
test('browser tests', () => {
  test.skip(true, MISSING_BROWSER_MESSAGE);
});
