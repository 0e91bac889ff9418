import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RegionKey } from '@portal/contracts';
import { portalName } from '../../auth/auth.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { accountInactiveMail } from '../../mail/templates.ts';
import { jobIdOf, type JobQueue, type JobWorkers } from '../../plugins/job-queue.ts';
import type { RegionClient } from '../../regions/region-client.ts';
import { updateApplicationInState } from '../applications/applications.repository.ts';
import { invoiceNumber } from '../ledger/invoice-number.ts';
import { changeEachApplication, reactivateForgottenApplications } from '../ledger/ledger.jobs.ts';
import {
  findAccount,
  findTransaction,
  listApplicationsInState,
  listOwedInactiveNotices,
} from '../ledger/ledger.repository.ts';
import {
  GRACE_DAYS,
  clearOwedInactiveNotice,
  inactivateForOverdueInvoices,
} from '../ledger/ledger.service.ts';
import { creditOf, invoiceTotals } from './billing-reads.ts';
import { billingCycleBefore, billingCycleOf, formatUsd } from './billing-rules.ts';
import {
  listApplicationsWithNetwork,
  listSuperAdminEmails,
  recordApplicationUsage,
} from './billing.repository.ts';
import type { monthlyRunService } from './monthly-run.service.ts';

const IMPORT_USAGE_QUEUE = 'import-usage';
const BILL_MONTH_QUEUE = 'bill-month';
const ACCOUNT_INACTIVE_QUEUE = 'account-inactive';
const ACCOUNT_INACTIVE_MAIL_QUEUE = 'account-inactive-mail';
const DEACTIVATE_APPLICATIONS_QUEUE = 'deactivate-applications';
/** Region calls for each application of one organisation, and the mail. */
const ACCOUNT_JOB_EXPIRY_SECONDS = 10 * 60;
const DAY_MS = 86_400_000;
/** Regions answer within the client's 10 s time-out each, called side by side; the rest is database writes. */
const IMPORT_EXPIRY_SECONDS = 5 * 60;
/** A run over every organisation (about a minute for 10,000 on PostgreSQL), with room to spare. */
const BILLING_EXPIRY_SECONDS = 30 * 60;
const RETRY_DELAY_SECONDS = 60;
/** With backoff from a minute, the retries outlast a day of regional outage. */
const RETRY_LIMIT = 12;
/** How long the schedule keeps trying to close the previous month (its import, then its bill). */
const CLOSING_WINDOW_DAYS = 3;

interface ImportUsageJob {
  /** `YYYY-MM` */
  cycle: string;
  /** The month's final import: once it succeeds, the month is billed. */
  billAfter?: boolean;
}

interface BillMonthJob {
  cycle: string;
}

/** An account made inactive by the transaction left due. */
interface AccountInactiveJob {
  organizationId: string;
  transactionId: number;
}

/** The inactive account's mail to one super-admin. */
interface AccountInactiveMailJob extends AccountInactiveJob {
  to: string;
}

interface DeactivateApplicationsJob extends AccountInactiveJob {
  /** ISO time: the end of the grace period. */
  deactivateAt: string;
}

export interface BillingJobsDeps {
  db: Db;
  mailer: Mailer;
  /** The portal's name and address, for the mail. */
  portalName: string;
  publicUrl: string;
  regions: RegionClient;
  jobQueue: JobQueue;
  /** The clock of the schedule and the jobs; tests move it. */
  now: () => Date;
  /** How often the schedule looks for due work; 0 leaves it off. */
  scheduleSeconds: number;
  log: FastifyBaseLogger;
  /** The monthly run the bill of a closed month is. */
  monthlyRun: ReturnType<typeof monthlyRunService>;
  /** What follows an import: the usage alerts of the organisations it changed. */
  afterUsageImport: (cycle: string, organizationIds: Iterable<string>) => Promise<void>;
}


/**
 * Imports a month's monthly active users of every application from its region's admin API (one
 * call per region, side by side) and records them, the latest import winning. A region that fails
 * leaves the others recorded; the job then throws, to be retried as a whole, which records the
 * same figures again. Answers how many applications' figures were recorded, and whose.
 */
export async function importUsage(
  deps: Pick<BillingJobsDeps, 'db' | 'regions' | 'now'>,
  cycle: string,
): Promise<{ recorded: number; organizationIds: Set<string> }> {
  const organizationsByRegion = new Map<RegionKey, Map<string, string>>();
  for (const application of await listApplicationsWithNetwork(deps.db)) {
    const organizationOf = organizationsByRegion.get(application.region) ?? new Map<string, string>();
    organizationOf.set(application.id, application.organizationId);
    organizationsByRegion.set(application.region, organizationOf);
  }
  const importedAt = deps.now();
  let recorded = 0;
  const organizationIds = new Set<string>();
  const regions = [...organizationsByRegion];
  const outcomes = await Promise.allSettled(
    regions.map(async ([region, organizationOf]) => {
      for (const { applicationId, activeUsers } of await deps.regions.usage(region, cycle)) {
        // A network of an application the portal does not hold in that region is not billed here.
        const organizationId = organizationOf.get(applicationId);
        if (!organizationId) continue;
        await recordApplicationUsage(deps.db, organizationId, {
          applicationId,
          billingCycle: cycle,
          mau: activeUsers,
          importedAt,
        });
        recorded += 1;
        organizationIds.add(organizationId);
      }
    }),
  );
  const failures = outcomes.flatMap((outcome, index) =>
    outcome.status === 'rejected' ? [`${regions[index]?.[0]}: ${String(outcome.reason)}`] : [],
  );
  if (failures.length > 0) throw new Error(`usage of ${cycle} not imported from ${failures.join('; ')}`);
  return { recorded, organizationIds };
}

/**
 * Bills a closed month (the monthly run: each organisation once, however often this runs).
 * Organisations that could not be billed make the job throw, so the retry bills them.
 */
export async function billMonth(
  deps: Pick<BillingJobsDeps, 'db' | 'monthlyRun' | 'jobQueue' | 'now'>,
  cycle: string,
) {
  const run = await deps.monthlyRun.runMonthlyBilling({ cycle, now: deps.now() });
  await sendOwedInactiveNotices(deps);
  if (run.failed.length > 0) {
    const failures = run.failed.map((failure) => `${failure.organizationId}: ${failure.error}`);
    throw new Error(`${run.failed.length} organisations not billed for ${cycle}: ${failures.join('; ')}`);
  }
  return run;
}

/**
 * Sends the notice every inactive account is owed (recorded with the status by the billing run and
 * the overdue check), then records it sent. A crash before the send leaves it owed for the next
 * sweep; a crash after it sends it again, which its id makes a no-op.
 */
export async function sendOwedInactiveNotices(deps: Pick<BillingJobsDeps, 'db' | 'jobQueue'>) {
  for (const { organizationId, transactionId } of await listOwedInactiveNotices(deps.db)) {
    await accountBecameInactive(deps.jobQueue, organizationId, transactionId);
    await clearOwedInactiveNotice(deps.db, organizationId, transactionId);
  }
}

/**
 * Sends the notice of an account made inactive by a transaction left due: the mail to its
 * super-admins and the deactivation of its applications after the grace period. The job id comes
 * from the account and the transaction, so sending it again for the same debt is a no-op.
 */
async function accountBecameInactive(jobQueue: JobQueue, organizationId: string, transactionId: number) {
  const job: AccountInactiveJob = { organizationId, transactionId };
  await jobQueue.sendOnce(
    ACCOUNT_INACTIVE_QUEUE,
    job,
    jobIdOf('account-inactive', organizationId, String(transactionId)),
  );
}

type AccountJobDeps = Pick<
  BillingJobsDeps,
  'db' | 'regions' | 'jobQueue' | 'mailer' | 'portalName' | 'publicUrl' | 'now' | 'log'
>;

/** Whether the account is still inactive because of this transaction (unpaid: open, or a card payment under way). */
async function stillInactiveFor(db: Db, { organizationId, transactionId }: AccountInactiveJob) {
  const account = await findAccount(db, organizationId);
  const transaction = await findTransaction(db, organizationId, transactionId);
  const unpaid = transaction?.status === 'open' || transaction?.status === 'processing';
  return account?.accountStatus === 'inactive' && unpaid ? { account, transaction } : undefined;
}

/**
 * The inactive account's notice: the deactivation scheduled, then one mail job per super-admin. Each
 * is a job of its own, keyed by what it is about, so a retry (of this job or of one delivery) sends
 * nothing twice: a mail that failed is retried alone, not with the ones already delivered.
 */
export async function noticeInactiveAccount(deps: AccountJobDeps, job: AccountInactiveJob) {
  const { db, jobQueue } = deps;
  if (!(await stillInactiveFor(db, job))) return;
  const deactivateAt = new Date(deps.now().getTime() + GRACE_DAYS * DAY_MS);
  const deactivation: DeactivateApplicationsJob = { ...job, deactivateAt: deactivateAt.toISOString() };
  const { organizationId, transactionId } = job;
  await jobQueue.send(DEACTIVATE_APPLICATIONS_QUEUE, deactivation, {
    id: jobIdOf('deactivate-applications', organizationId, String(transactionId)),
    startAfter: deactivateAt,
  });
  for (const to of await listSuperAdminEmails(db, organizationId)) {
    const mail: AccountInactiveMailJob = { ...job, to };
    await jobQueue.send(ACCOUNT_INACTIVE_MAIL_QUEUE, mail, {
      id: jobIdOf('account-inactive-mail', organizationId, String(transactionId), to),
    });
  }
}

/** Mails one super-admin that the account is inactive, while it still is for that transaction. */
export async function mailInactiveAccountNotice(deps: AccountJobDeps, job: AccountInactiveMailJob) {
  const { db } = deps;
  const inactive = await stillInactiveFor(db, job);
  if (!inactive) return;
  const { transaction } = inactive;
  const { dueCents } = invoiceTotals(transaction, await creditOf(db, job.organizationId, transaction));
  await deps.mailer.send(
    accountInactiveMail({
      to: job.to,
      portalName: deps.portalName,
      organizationName: inactive.account.name,
      invoiceNumber: invoiceNumber(transaction.id),
      dueAmount: `USD ${formatUsd(dueCents)}`,
      link: deps.publicUrl,
      deactivationDays: GRACE_DAYS,
    }),
  );
}

/**
 * At the end of the grace period, deactivates in their regions the active applications of an
 * account still inactive for the same unpaid transaction. Done by the system, they are
 * `temporary_inactive`, which reactivation undoes; applications members deactivated stay so.
 */
export async function deactivateApplicationsOfInactiveAccount(
  deps: AccountJobDeps,
  job: DeactivateApplicationsJob,
) {
  const { db, regions } = deps;
  const now = deps.now();
  if (now < new Date(job.deactivateAt)) throw new Error(`the grace period ends at ${job.deactivateAt}`);
  if (!(await stillInactiveFor(db, job))) return;
  const { organizationId } = job;
  await changeEachApplication(
    await listApplicationsInState(db, organizationId, 'active'),
    async (application, networkId) => {
      await regions.deactivateNetwork(application.region, networkId);
      await updateApplicationInState(db, organizationId, application.id, 'active', {
        state: 'temporary_inactive',
        deactivatedAt: now,
      });
    },
  );
  deps.log.info({ organizationId }, 'applications of an inactive account deactivated');
}

/**
 * Flat-rate invoices open for the grace period make their accounts inactive, with the same notice;
 * the notices owed are sent after, those a crash left unsent included.
 */
export async function inactivateAccountsWithOverdueInvoices(
  deps: Pick<BillingJobsDeps, 'db' | 'jobQueue' | 'now'>,
) {
  await inactivateForOverdueInvoices(deps.db, deps.now());
  await sendOwedInactiveNotices(deps);
}

/** Closes a month: its final usage import, then its bill once that import has succeeded. */
export async function closeMonth(jobQueue: JobQueue, cycle: string) {
  const job: ImportUsageJob = { cycle, billAfter: true };
  await jobQueue.sendOnce(IMPORT_USAGE_QUEUE, job, jobIdOf('close-month', cycle));
}

/** The billing jobs of one server and the schedule that sends them. */
class BillingWorkers implements JobWorkers {
  /** An import finishes within its region calls' time-outs; a cut one (or a cut billing run) is retried. */
  readonly finishWithinMs = 15_000;

  constructor(private readonly deps: BillingJobsDeps) {}

  async start() {
    const { deps } = this;
    for (const [name, expireInSeconds] of [
      [IMPORT_USAGE_QUEUE, IMPORT_EXPIRY_SECONDS],
      [BILL_MONTH_QUEUE, BILLING_EXPIRY_SECONDS],
      [ACCOUNT_INACTIVE_QUEUE, ACCOUNT_JOB_EXPIRY_SECONDS],
      [ACCOUNT_INACTIVE_MAIL_QUEUE, ACCOUNT_JOB_EXPIRY_SECONDS],
      [DEACTIVATE_APPLICATIONS_QUEUE, ACCOUNT_JOB_EXPIRY_SECONDS],
    ] as const) {
      const queue = {
        name,
        retryLimit: RETRY_LIMIT,
        retryDelay: RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds,
      };
      await deps.jobQueue.defineQueue(queue);
    }
    await deps.jobQueue.work<ImportUsageJob>(IMPORT_USAGE_QUEUE, {}, async ([job]) => {
      if (!job) return;
      const { cycle, billAfter } = job.data;
      const { recorded, organizationIds } = await importUsage(deps, cycle);
      deps.log.info({ cycle, recorded }, 'usage imported');
      await deps.afterUsageImport(cycle, organizationIds);
      if (billAfter) await deps.jobQueue.sendOnce(BILL_MONTH_QUEUE, { cycle }, jobIdOf('bill-month', cycle));
    });
    await deps.jobQueue.work<BillMonthJob>(BILL_MONTH_QUEUE, {}, async ([job]) => {
      if (!job) return;
      const run = await billMonth(deps, job.data.cycle);
      deps.log.info(
        { cycle: run.cycle, billed: run.billed.length, alreadyBilled: run.alreadyBilled.length },
        'month billed',
      );
    });
    await deps.jobQueue.work<AccountInactiveJob>(ACCOUNT_INACTIVE_QUEUE, {}, async ([job]) => {
      if (job) await noticeInactiveAccount(deps, job.data);
    });
    await deps.jobQueue.work<AccountInactiveMailJob>(ACCOUNT_INACTIVE_MAIL_QUEUE, {}, async ([job]) => {
      if (job) await mailInactiveAccountNotice(deps, job.data);
    });
    await deps.jobQueue.work<DeactivateApplicationsJob>(DEACTIVATE_APPLICATIONS_QUEUE, {}, async ([job]) => {
      if (job) await deactivateApplicationsOfInactiveAccount(deps, job.data);
    });
    if (deps.scheduleSeconds === 0) return;
    await this.sendDueJobs();
    deps.jobQueue.schedule('billing', deps.scheduleSeconds * 1000, () => this.sendDueJobs());
  }

  /**
   * The day's import of the current month, in a month's first days the closing of the month
   * before, the accounts whose flat-rate invoice is overdue, and the applications of active
   * accounts still suspended.
   */
  private async sendDueJobs() {
    const { jobQueue, now } = this.deps;
    const today = now();
    const job: ImportUsageJob = { cycle: billingCycleOf(today) };
    await jobQueue.sendOnce(
      IMPORT_USAGE_QUEUE,
      job,
      jobIdOf('import-usage', today.toISOString().slice(0, 10)),
    );
    if (today.getUTCDate() <= CLOSING_WINDOW_DAYS) await closeMonth(jobQueue, billingCycleBefore(today));
    await inactivateAccountsWithOverdueInvoices(this.deps);
    await reactivateForgottenApplications(this.deps);
  }
}

/**
 * The usage import, the monthly billing, the inactive accounts' notice, deactivation and
 * reactivation, and their schedule run with the server on the app's job queue.
 */
export async function billingJobs(app: FastifyInstance) {
  app.jobQueue.addWorkers(
    new BillingWorkers({
      db: app.database.db,
      monthlyRun: app.billing.monthlyRun,
      mailer: app.mailer,
      portalName: portalName(app.config),
      publicUrl: app.config.publicUrl,
      regions: app.regions,
      jobQueue: app.jobQueue,
      now: () => new Date(),
      scheduleSeconds: app.config.billingScheduleSeconds,
      log: app.log,
      afterUsageImport: (cycle, organizationIds) => app.usageAlerts.afterUsageImport(cycle, organizationIds),
    }),
  );
}
