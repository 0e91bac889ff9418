import fs from 'node:fs';

/** Debian's Chromium: the browser tests never download one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumAvailable = fs.existsSync(CHROMIUM_PATH);

/** REQUIRE_BROWSER_TESTS=1 (CI) turns a missing browser into a failure instead of a skipped run. */
export const browserRequired = process.env.REQUIRE_BROWSER_TESTS === '1';

export const MISSING_BROWSER_MESSAGE =
  `Chromium was not found at ${CHROMIUM_PATH}: the browser tests are skipped. ` +
  'Install it (apt-get install chromium) or set CHROMIUM_PATH; set REQUIRE_BROWSER_TESTS=1 to make this an error.';
