import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { SMTP_URL_ENV } from '../harness/harness-state.ts';
import { freePort, startPortal, stopPortal } from '../harness/portal-server.ts';
import { test as base } from './fixtures.ts';
import type { OperatedPortal } from './operator.ts';

/** One hour into the first UTC day of the month `monthsAhead` months after the one `at` is in. */
export function startOfMonth(at: Date, monthsAhead: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + monthsAhead, 1, 1));
}

/** The billing cycle (`YYYY-MM`, UTC) an instant falls in. */
export function billingCycleOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/**
 * A portal of the test's own whose clock the test sets: started at an instant, and started again
 * on the same data and address at a later one, the way a month passes for a portal that is
 * stopped and started. The shared portal keeps the real time; this one never goes back before it,
 * so the browser keeps the cookies it sets.
 */
export class ClockedPortal implements OperatedPortal {
  readonly baseURL: string;
  readonly dataDir: string;
  readonly log: string;
  private server: ChildProcess | undefined;

  constructor(
    private readonly port: number,
    readonly workDir: string,
  ) {
    this.baseURL = `http://localhost:${port}`;
    this.dataDir = path.join(workDir, 'data');
    this.log = path.join(workDir, 'server.log');
  }

  /** Starts the portal with its clock at `at`, or stops it and starts it again on the same data. */
  async runFrom(at: Date) {
    if (at.getTime() < Date.now())
      throw new Error(`the portal's clock must not start in the past (${at.toISOString()})`);
    await this.stop();
    const smtpUrl = process.env[SMTP_URL_ENV];
    if (!smtpUrl)
      throw new Error(`${SMTP_URL_ENV} is not set: run the tests through e2e/playwright.config.ts`);
    const portal = await startPortal({
      port: this.port,
      dataDir: this.dataDir,
      smtpUrl,
      log: this.log,
      clockAt: at,
      // The operator bills the month by hand; the schedule would bill it on the restart.
      env: { BILLING_SCHEDULE_SECONDS: '0' },
    });
    this.server = portal.server;
  }

  async stop() {
    if (this.server) await stopPortal(this.server);
    this.server = undefined;
  }
}

/** The shared fixtures, with the page and the users on a ClockedPortal the test starts with runFrom. */
export const clockedTest = base.extend<{ clockedPortal: ClockedPortal }>({
  clockedPortal: async ({}, use, testInfo) => {
    const portal = new ClockedPortal(
      await freePort(),
      fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-clock-')),
    );
    try {
      await use(portal);
    } finally {
      await portal.stop();
      if (testInfo.status !== testInfo.expectedStatus && fs.existsSync(portal.log))
        await testInfo.attach('server.log', { path: portal.log });
      if (process.env.E2E_KEEP_DATA !== '1') fs.rmSync(portal.workDir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ clockedPortal }, use) => use(clockedPortal.baseURL),
});
