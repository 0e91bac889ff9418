import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Application, CreateApplicationRequest, RunBillingResponse } from '@portal/contracts';
import { SMTP_URL_ENV } from '../harness/harness-state.ts';
import { freePort, startPortal, stopPortal } from '../harness/portal-server.ts';
import { sdkPing, type Applications } from './applications.ts';
import { test as base, expect, type TestUser } from './fixtures.ts';
import { waitForMail, type StoredMail } from './mail-store.ts';
import type { OperatedPortal, Operator } from './operator.ts';

/** One hour into the first UTC day of the month `monthsAhead` months after the one `at` is in. */
export function startOfMonth(at: Date, monthsAhead: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + monthsAhead, 1, 1));
}

/** The billing cycle (`YYYY-MM`, UTC) an instant falls in. */
export function billingCycleOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** A date as the portal shows it ('dd MMM yyyy'), for the UTC the browser runs in. */
export function shownDate(at: Date): string {
  const month = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' }).format(at);
  return `${String(at.getUTCDate()).padStart(2, '0')} ${month} ${at.getUTCFullYear()}`;
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

/** An application a journey bills, and the users the sample SDK client connects to it. */
export interface UsedApplication {
  fields: CreateApplicationRequest;
  endUsers: readonly string[];
}

/**
 * Creates the applications, waits until their regions have provisioned them, and has the sample SDK
 * client connect each one's end users, who become its monthly active users. Answers each application
 * with its API key, in the order given.
 */
export async function applicationsInUse(
  apps: Applications,
  baseURL: string,
  wanted: readonly UsedApplication[],
): Promise<{ app: Application; apiKey: string }[]> {
  const created: Application[] = [];
  for (const { fields } of wanted) created.push(await apps.create(fields));
  await apps.waitUntilAllActive(wanted.length);
  const inUse: { app: Application; apiKey: string }[] = [];
  for (const [index, { endUsers }] of wanted.entries()) {
    const app = await apps.get(created[index]!.applicationId);
    const apiKey = await apps.regionalApiKey(app);
    for (const endUser of endUsers) await sdkPing(baseURL, app.region.toLowerCase(), apiKey, endUser);
    inUse.push({ app, apiKey });
  }
  return inUse;
}

export type BilledInvoice = RunBillingResponse['billed'][number];

/**
 * Bills a PAYG month that has ended on a balance short of its charge, as the operator does: the month's
 * usage of the organisation's applications imported, then the run for the owner's organisation. The
 * balance pays what it can, the rest stays due on the open charge, the account becomes inactive and the
 * owner is mailed the notice. Answers the invoice and the notice.
 */
export async function billMonthLeftDue(
  operator: Operator,
  owner: TestUser,
  expected: { cycle: string; applications: number; charge: number; paid: number },
): Promise<{ invoice: BilledInvoice; notice: StoredMail }> {
  const { cycle, applications, charge, paid } = expected;
  expect(await operator.importUsage(cycle)).toEqual({ month: cycle, recorded: applications });
  const run = await operator.runBilling(cycle, owner.email);
  expect(run.failed).toEqual([]);
  expect(run.billed).toHaveLength(1);
  const invoice = run.billed[0]!;
  expect(invoice).toMatchObject({ status: 'open', charge, paid });
  expect(invoice.due).toBeGreaterThan(0);
  expect(run.becameInactive).toEqual([invoice.organizationId]);
  const notice = await waitForMail(owner.email, /account is inactive$/);
  expect(notice.text).toContain(
    `USD ${invoice.due.toFixed(2)} of invoice INV-${invoice.transactionId} is due`,
  );
  return { invoice, notice };
}
