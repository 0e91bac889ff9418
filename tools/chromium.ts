import fs from 'node:fs';

/**
 * How the browser tests (e2e) and the browser benchmarks (apps/api/bench) start Chromium: Debian's
 * own, never a downloaded one, with the same switches.
 */
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
