import crypto from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RegionKey } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import type { JobQueue, JobWorkers } from '../../plugins/job-queue.ts';
import type { RegionClient } from '../../regions/region-client.ts';
import { listApplicationsWithNetwork, recordApplicationUsage } from './billing.repository.ts';
import { billingService } from './billing.service.ts';

const IMPORT_USAGE_QUEUE = 'import-usage';
const BILL_MONTH_QUEUE = 'bill-month';
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

export interface BillingJobsDeps {
  db: Db;
  productName: string;
  regions: RegionClient;
  jobQueue: JobQueue;
  /** The clock of the schedule and the jobs; tests move it. */
  now: () => Date;
  /** How often the schedule looks for due work; 0 leaves it off. */
  scheduleSeconds: number;
  log: FastifyBaseLogger;
}

/**
 * A job id from what the job is about (pg-boss ids are UUIDs), so the same work sent twice is one
 * job while that job is kept.
 */
function jobIdOf(...parts: string[]): string {
  const hex = crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function cycleOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

function previousCycleOf(date: Date): string {
  return cycleOf(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1)));
}

/**
 * Imports a month's monthly active users of every application from its region's admin API (one
 * call per region, side by side) and records them, the latest import winning. A region that fails
 * leaves the others recorded; the job then throws, to be retried as a whole, which records the
 * same figures again.
 */
export async function importUsage(
  deps: Pick<BillingJobsDeps, 'db' | 'regions' | 'now'>,
  cycle: string,
): Promise<{ recorded: number }> {
  const organizationsByRegion = new Map<RegionKey, Map<string, string>>();
  for (const application of await listApplicationsWithNetwork(deps.db)) {
    const organizationOf = organizationsByRegion.get(application.region) ?? new Map<string, string>();
    organizationOf.set(application.id, application.organizationId);
    organizationsByRegion.set(application.region, organizationOf);
  }
  const importedAt = deps.now();
  let recorded = 0;
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
      }
    }),
  );
  const failures = outcomes.flatMap((outcome, index) =>
    outcome.status === 'rejected' ? [`${regions[index]?.[0]}: ${String(outcome.reason)}`] : [],
  );
  if (failures.length > 0) throw new Error(`usage of ${cycle} not imported from ${failures.join('; ')}`);
  return { recorded };
}

/**
 * Bills a closed month (billingService's run: each organisation once, however often this runs).
 * Organisations that could not be billed make the job throw, so the retry bills them.
 */
export async function billMonth(deps: Pick<BillingJobsDeps, 'db' | 'productName' | 'now'>, cycle: string) {
  const run = await billingService(deps).runMonthlyBilling({ cycle, now: deps.now() });
  if (run.failed.length > 0) {
    const failures = run.failed.map((failure) => `${failure.organizationId}: ${failure.error}`);
    throw new Error(`${run.failed.length} organisations not billed for ${cycle}: ${failures.join('; ')}`);
  }
  return run;
}

/**
 * Sends a job unless one with its id is queued, running or archived (pg-boss keeps archived jobs
 * for 7 days, longer than the schedule's windows), so it is sent once however often this is asked.
 */
async function sendOnce(jobQueue: JobQueue, queue: string, data: object, id: string) {
  if (await jobQueue.boss.getJobById(queue, id, { includeArchive: true })) return;
  await jobQueue.send(queue, data, { id });
}

/** Closes a month: its final usage import, then its bill once that import has succeeded. */
export async function closeMonth(jobQueue: JobQueue, cycle: string) {
  const job: ImportUsageJob = { cycle, billAfter: true };
  await sendOnce(jobQueue, IMPORT_USAGE_QUEUE, job, jobIdOf('close-month', cycle));
}

/** The billing jobs of one server and the schedule that sends them. */
class BillingWorkers implements JobWorkers {
  /** An import finishes within its region calls' time-outs; a cut one (or a cut billing run) is retried. */
  readonly finishWithinMs = 15_000;
  private schedule: NodeJS.Timeout | undefined;

  constructor(private readonly deps: BillingJobsDeps) {}

  async start() {
    const { deps } = this;
    const { boss } = deps.jobQueue;
    for (const [name, expireInSeconds] of [
      [IMPORT_USAGE_QUEUE, IMPORT_EXPIRY_SECONDS],
      [BILL_MONTH_QUEUE, BILLING_EXPIRY_SECONDS],
    ] as const) {
      const queue = {
        name,
        retryLimit: RETRY_LIMIT,
        retryDelay: RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds,
      };
      // createQueue keeps an existing queue's settings; updateQueue brings them to this version's.
      await boss.createQueue(name, queue);
      await boss.updateQueue(name, queue);
    }
    await deps.jobQueue.work<ImportUsageJob>(IMPORT_USAGE_QUEUE, {}, async ([job]) => {
      if (!job) return;
      const { cycle, billAfter } = job.data;
      const { recorded } = await importUsage(deps, cycle);
      deps.log.info({ cycle, recorded }, 'usage imported');
      if (billAfter) await sendOnce(deps.jobQueue, BILL_MONTH_QUEUE, { cycle }, jobIdOf('bill-month', cycle));
    });
    await deps.jobQueue.work<BillMonthJob>(BILL_MONTH_QUEUE, {}, async ([job]) => {
      if (!job) return;
      const run = await billMonth(deps, job.data.cycle);
      deps.log.info(
        { cycle: run.cycle, billed: run.billed.length, alreadyBilled: run.alreadyBilled.length },
        'month billed',
      );
    });
    if (deps.scheduleSeconds === 0) return;
    await this.sendDueJobs();
    this.schedule = setInterval(() => {
      this.sendDueJobs().catch((error: unknown) => {
        deps.log.error({ err: error }, 'billing schedule failed; the next one retries');
      });
    }, deps.scheduleSeconds * 1000);
    this.schedule.unref();
  }

  stop() {
    clearInterval(this.schedule);
  }

  /** The day's import of the current month, and in a month's first days the closing of the month before. */
  private async sendDueJobs() {
    const { jobQueue, now } = this.deps;
    const today = now();
    const job: ImportUsageJob = { cycle: cycleOf(today) };
    await sendOnce(
      jobQueue,
      IMPORT_USAGE_QUEUE,
      job,
      jobIdOf('import-usage', today.toISOString().slice(0, 10)),
    );
    if (today.getUTCDate() <= CLOSING_WINDOW_DAYS) await closeMonth(jobQueue, previousCycleOf(today));
  }
}

/** The usage import, the monthly billing and their schedule run with the server on the app's job queue. */
export async function billingJobs(app: FastifyInstance) {
  app.jobQueue.addWorkers(
    new BillingWorkers({
      db: app.database.db,
      productName: app.config.productName,
      regions: app.regions,
      jobQueue: app.jobQueue,
      now: () => new Date(),
      scheduleSeconds: app.config.billingScheduleSeconds,
      log: app.log,
    }),
  );
}
