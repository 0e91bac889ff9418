/**
 * `npm run bench:search`: in Chromium, the time from a keystroke in the application list's search
 * to the filtered grid on screen, for an organisation holding 10,000 applications.
 *
 * The portal runs in this process (serving the built web app) on a fresh PGlite directory, or on a
 * fresh database on DATABASE_URL's server when it is set. One owner signs up through the API and
 * the applications are inserted straight into the database. Debian's Chromium (never a downloaded
 * one) opens /apps/asc with the owner's session cookie. Each round fills the search with
 * "app 0", which every application matches, then types four digits one key at a time; each key
 * narrows the grid (1,000, 100, 10, then 1 result). In the page, a capture-phase keydown listener
 * takes the start time, a MutationObserver sees the DOM reach the expected result count and first
 * card, and the time is taken once that frame has been painted. Target: p95 ≤ 50 ms.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumAvailable } from '../../../tools/chromium.ts';
import { benchApplicationName, percentile, seedApplications, signedInOwner, withFreshPortal } from './bench-support.ts';

const APPLICATIONS = 10_000;
const ROUNDS = 8;
const WARM_UP_ROUNDS = 1;
const TARGET_P95_MS = 50;
/** Every bench application's name starts "Bench app 0"; the rounds type four more digits after it. */
const ROUND_START = 'app 0';
const SETTLE_TIMEOUT_MS = 15_000;

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const WEB_INDEX = path.join(REPO_ROOT, 'apps/web/dist/index.html');

const NAMES = Array.from({ length: APPLICATIONS }, (_, i) => benchApplicationName(i));

/** What the grid shows once it has caught up with a search term. */
interface ExpectedGrid {
  count: number;
  firstName: string;
}

/**
 * The grid for `term`. The term holds a "p", which no application ID (a UUID: hex digits and
 * dashes) can contain, so only names match; the newest application, the highest index, comes first.
 */
function expectedGrid(term: string): ExpectedGrid {
  const matching = NAMES.flatMap((name, index) => (name.toLowerCase().includes(term.toLowerCase()) ? [index] : []));
  const newest = matching.at(-1);
  if (newest === undefined) throw new Error(`no bench application matches "${term}"`);
  return { count: matching.length, firstName: NAMES[newest]! };
}

/** Four digits per round, spread over the names, the same on every run. */
function roundDigits(round: number): string {
  return String((round * 2731 + 1234) % 10_000).padStart(4, '0');
}

/**
 * Installed in the page as plain JavaScript (what the TypeScript loader would add to a function
 * body does not exist in the page). `arm` starts watching for the expected grid; `settled` resolves
 * with the keystroke's times once that grid has been painted, or rejects after a time limit saying
 * what the page showed instead. "Painted" is the next animation frame after the DOM matched, plus
 * a message through a MessageChannel, which runs once that frame has been rendered.
 */
const PROBE_SCRIPT = `(() => {
  let keydownAt = 0;
  document.addEventListener('keydown', () => { keydownAt = performance.now(); }, { capture: true });
  const shown = () => {
    const status = [...document.querySelectorAll('[role="status"]')]
      .map((element) => element.textContent.match(/^([\\d,]+) results?$/))
      .find(Boolean);
    return {
      count: status ? Number(status[1].replaceAll(',', '')) : null,
      firstName: document.querySelector('article h2')?.textContent ?? null,
    };
  };
  let settled = Promise.resolve(null);
  window.__keystrokeProbe = {
    arm(expected) {
      settled = new Promise((resolve, reject) => {
        const check = () => {
          const now = shown();
          if (now.count !== expected.count || now.firstName !== expected.firstName) return;
          const domMatchedAt = performance.now();
          observer.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () =>
              resolve({ domMs: domMatchedAt - keydownAt, paintedMs: performance.now() - keydownAt });
            channel.port2.postMessage(null);
          });
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error('the grid did not show ' + JSON.stringify(expected) + ' but ' + JSON.stringify(shown())));
        }, ${SETTLE_TIMEOUT_MS});
        check();
      });
    },
    settled: () => settled,
  };
})();`;

interface KeystrokeTimes {
  /** From keydown to the DOM showing the filtered grid. */
  domMs: number;
  /** From keydown to that grid painted. */
  paintedMs: number;
}

interface Probe {
  arm(expected: ExpectedGrid): void;
  settled(): Promise<KeystrokeTimes>;
}

/** The page's global scope holding the probe (the bench is typed without the DOM library). */
type ProbeScope = typeof globalThis & { __keystrokeProbe: Probe };

/** Runs `act` (a keystroke, or filling the field) and waits until the grid for `term` is painted. */
async function gridAfter(page: Page, term: string, act: () => Promise<void>): Promise<KeystrokeTimes> {
  // These functions run in the page, so they reach the probe through the page's globalThis.
  await page.evaluate((expected) => (globalThis as ProbeScope).__keystrokeProbe.arm(expected), expectedGrid(term));
  await act();
  return page.evaluate(() => (globalThis as ProbeScope).__keystrokeProbe.settled());
}

function requireBrowserAndBuild() {
  if (!chromiumAvailable) {
    console.error(`Chromium was not found at ${CHROMIUM_PATH} (apt-get install -y chromium); the search benchmark needs it.`);
    process.exit(1);
  }
  if (!fs.existsSync(WEB_INDEX)) {
    console.error('apps/web/dist is missing: building the web app (npm run build -w apps/web)');
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  // The bench measures whatever was built last: after changing the web app, build it again.
  console.error(`serving apps/web/dist built at ${fs.statSync(WEB_INDEX).mtime.toISOString()}`);
}

async function measureKeystrokes(base: string, cookie: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 900 } });
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const split = pair.indexOf('=');
        return { name: pair.slice(0, split), value: pair.slice(split + 1), url: base };
      }),
    );
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    await page.goto(`${base}/apps/asc`);
    const search = page.getByRole('searchbox', { name: 'Search applications' });
    await search.waitFor({ timeout: 60_000 });
    await page.getByRole('article').first().waitFor();

    const times: KeystrokeTimes[] = [];
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round += 1) {
      await gridAfter(page, ROUND_START, () => search.fill(ROUND_START));
      let term = ROUND_START;
      for (const digit of roundDigits(round)) {
        term += digit;
        const keystroke = await gridAfter(page, term, () => page.keyboard.type(digit));
        if (round >= WARM_UP_ROUNDS) times.push(keystroke);
      }
    }
    return { chromiumVersion: browser.version(), times };
  } finally {
    await browser.close();
  }
}

function summary(values: number[]) {
  return `median ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
}

async function main() {
  requireBrowserAndBuild();
  const loadBefore = os.loadavg()[0] ?? 0;
  const { databaseKind, chromiumVersion, times } = await withFreshPortal(process.env.DATABASE_URL, async ({ databaseKind, database, base }) => {
    const email = 'bench-search@acme.io';
    const cookie = await signedInOwner(base, email);
    console.error(`${databaseKind}: seeding ${APPLICATIONS} applications`);
    await seedApplications(database, email, APPLICATIONS);
    console.error(`${databaseKind}: ${ROUNDS} rounds of 4 keystrokes in Chromium (after ${WARM_UP_ROUNDS} unrecorded)`);
    return { databaseKind, ...(await measureKeystrokes(base, cookie)) };
  });

  const painted = times.map((t) => t.paintedMs);
  console.log(
    `\nSearch keystroke to filtered grid, ${APPLICATIONS} applications, ${databaseKind}, Chromium ${chromiumVersion}, ` +
      `${new Date().toISOString().slice(0, 10)}, ` +
      `${times.length} keystrokes, load average ${loadBefore.toFixed(2)} before the run\n`,
  );
  console.log(`keydown to DOM:     ${summary(times.map((t) => t.domMs))}`);
  console.log(`keydown to painted: ${summary(painted)}`);
  const p95 = percentile(painted, 95);
  const met = p95 <= TARGET_P95_MS;
  console.log(`\n${met ? 'met   ' : 'MISSED'} keystroke to painted grid p95 ${p95.toFixed(1)} ms ≤ ${TARGET_P95_MS} ms`);
  if (!met) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
