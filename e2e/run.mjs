// `npm test -w e2e`: runs the browser tests when Debian's Chromium is installed. Without it the
// run is not attempted at all (no test is reported as skipped): it says so and succeeds, unless
// REQUIRE_BROWSER_TESTS=1 (CI), which makes the missing browser a failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!fs.existsSync(chromiumPath)) {
  const message = `Chromium was not found at ${chromiumPath}.`;
  if (process.env.REQUIRE_BROWSER_TESTS === '1') {
    console.error(`${message} REQUIRE_BROWSER_TESTS=1 makes this an error: apt-get install -y chromium.`);
    process.exit(1);
  }
  console.warn(
    `${message} The browser tests did not run. Install it (apt-get install -y chromium) or set CHROMIUM_PATH; ` +
      'set REQUIRE_BROWSER_TESTS=1 to make this an error.',
  );
  process.exit(0);
}

const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
