import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Network } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import type { JobQueue, JobWorkers } from '../../plugins/job-queue.ts';
import type { RegionClient } from '../../regions/region-client.ts';
import {
  findApplicationById,
  listInitializingApplicationIds,
  markProvisioned,
  recordNetwork,
  recordProvisioningAttempt,
} from './applications.repository.ts';

const PROVISION_APPLICATION_QUEUE = 'provision-application';
const STATUS_POLL_INTERVAL_MS = 250;
// pg-boss 10 runs one job at a time per worker; several workers keep one slow region (an attempt
// may wait REGION_PROVISIONING_POLL_MS) from holding back applications in the others.
const PROVISIONING_WORKERS = 4;

interface ProvisionJob {
  applicationId: string;
}

interface ProvisioningDeps {
  db: Db;
  regions: RegionClient;
  jobQueue: JobQueue;
  /** How long one attempt waits for the network to turn active before giving the job back to retry. */
  pollMs: number;
  retryDelaySeconds: number;
  /** Backoff doubles the delay each retry (pg-boss caps the doubling), so the default 100 outlasts days of outage. */
  retryLimit: number;
  /**
   * True when no other server can be working this queue (embedded PGlite: one process owns the
   * data directory), so a job still active at start was held by a process that died.
   */
  soleWorker: boolean;
  /** How often the sweep looks for applications left initializing without a live job. */
  sweepSeconds: number;
  log: FastifyBaseLogger;
}

/**
 * Besides the polling: the create call and the last status call, each bounded by the region
 * client's 10 s time-out. An attempt that outlives the bound is retried alongside; that is safe,
 * since networks are created once per application and states change only from the expected one.
 */
const REGION_CALLS_BOUND_SECONDS = 20;
/** Database work and scheduling around them. */
const ATTEMPT_SLACK_SECONDS = 10;

/**
 * How long one attempt can legitimately run; a job active for longer belongs to a server that
 * died (killed, crashed, lost its host), and pg-boss's maintenance gives it back to the queue.
 */
function attemptBoundSeconds(pollMs: number) {
  return Math.ceil(pollMs / 1000) + REGION_CALLS_BOUND_SECONDS + ATTEMPT_SLACK_SECONDS;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One provisioning attempt: create the network (idempotent per applicationId in the region),
 * keep its id and console URL, wait a bounded time for it to be active, then mark the app active.
 * Any failure throws, so pg-boss retries later and the app stays `initializing` meanwhile.
 */
async function provisionApplication(deps: ProvisioningDeps, applicationId: string): Promise<void> {
  const { db, regions } = deps;
  const app = await findApplicationById(db, applicationId);
  // Gone, or already provisioned by an earlier attempt: nothing to do.
  if (!app || app.state !== 'initializing') return;
  try {
    let network: Network = app.networkId
      ? await regions.getNetwork(app.region, app.networkId)
      : await regions.createNetwork(app.region, {
          applicationId: app.id,
          organizationId: app.organizationId,
          name: app.name,
        });
    if (network.networkId !== app.networkId || network.consoleUrl !== app.consoleUrl) {
      await recordNetwork(db, app.id, { networkId: network.networkId, consoleUrl: network.consoleUrl });
    }
    const deadline = Date.now() + deps.pollMs;
    while (network.status === 'provisioning' && Date.now() < deadline) {
      await sleep(Math.min(STATUS_POLL_INTERVAL_MS, Math.max(0, deadline - Date.now())));
      network = await regions.getNetwork(app.region, network.networkId);
    }
    if (network.status !== 'active')
      throw new Error(`network ${network.networkId} is still ${network.status}`);
    await markProvisioned(db, app.id);
  } catch (error) {
    await recordProvisioningAttempt(db, app.id, (error as Error).message);
    deps.log.warn({ applicationId, err: error }, 'provisioning attempt failed; it will be retried');
    throw error;
  }
}

/** How often an idle worker looks for due jobs: as often as a first retry can become due, within bounds. */
function pollingIntervalSeconds(retryDelaySeconds: number) {
  return Math.min(Math.max(retryDelaySeconds, 0.5), 5);
}

const LIVE_JOB_STATES = new Set(['created', 'retry', 'active']);

/** The job id is the application id, so enqueueing the same application twice is a no-op. */
export async function enqueueProvisioning(jobQueue: JobQueue, applicationId: string) {
  await jobQueue.send(PROVISION_APPLICATION_QUEUE, { applicationId } satisfies ProvisionJob, {
    id: applicationId,
  });
}

/**
 * The provisioning workers of one server. They poll only as often as retries need (polling runs
 * on the portal's database, which with PGlite shares the server's thread); an application
 * enqueued on this server wakes them at once.
 */
class ProvisioningWorkers implements JobWorkers {
  /** Running attempts finish (bounded by the poll time); the rest wait in the queue for the next start. */
  readonly finishWithinMs: number;

  constructor(private readonly deps: ProvisioningDeps) {
    this.finishWithinMs = deps.pollMs + 15_000;
  }

  /** Starts the workers, re-enqueues apps left initializing without a live job, and sweeps for them from then on. */
  async start() {
    const { deps } = this;
    const queue = {
      name: PROVISION_APPLICATION_QUEUE,
      retryLimit: deps.retryLimit,
      retryDelay: deps.retryDelaySeconds,
      retryBackoff: deps.retryDelaySeconds > 0,
      expireInSeconds: attemptBoundSeconds(deps.pollMs),
    };
    await deps.jobQueue.defineQueue(queue);
    await this.retryOrphanedJobs();
    const options = { pollingIntervalSeconds: pollingIntervalSeconds(deps.retryDelaySeconds) };
    for (let worker = 0; worker < PROVISIONING_WORKERS; worker += 1) {
      await deps.jobQueue.work<ProvisionJob>(PROVISION_APPLICATION_QUEUE, options, async ([job]) => {
        if (job) await provisionApplication(deps, job.data.applicationId);
      });
    }
    await this.requeueStalled();
    deps.jobQueue.schedule('provisioning sweep', deps.sweepSeconds * 1000, () => this.requeueStalled());
  }

  /**
   * Gives back to the queue the jobs a dead server left active, at once instead of after their
   * expiry: every active job when this server is the only worker, otherwise those active for
   * longer than an attempt can last (jobs enqueued before the expiry was shortened keep theirs).
   */
  private async retryOrphanedJobs() {
    const { deps } = this;
    const { boss } = deps.jobQueue;
    const boundMs = attemptBoundSeconds(deps.pollMs) * 1000;
    for (const applicationId of await listInitializingApplicationIds(deps.db)) {
      const job = await boss.getJobById(PROVISION_APPLICATION_QUEUE, applicationId);
      if (job?.state !== 'active') continue;
      const orphaned = deps.soleWorker || (job.startedOn && Date.now() - job.startedOn.getTime() > boundMs);
      if (!orphaned) continue;
      deps.log.warn({ applicationId }, 'provisioning job left active by a stopped server; retrying it');
      await boss.fail(PROVISION_APPLICATION_QUEUE, applicationId, {
        message: 'the server working on it stopped',
      });
    }
  }

  /**
   * Finds applications still initializing whose job is missing (the enqueue failed, or the server
   * stopped in between) or ended (its retries were used up in a long outage) and starts a new job
   * for each. An ended job is deleted first because the job id is the application id.
   */
  private async requeueStalled() {
    const { deps } = this;
    const { boss } = deps.jobQueue;
    for (const applicationId of await listInitializingApplicationIds(deps.db)) {
      const job = await boss.getJobById(PROVISION_APPLICATION_QUEUE, applicationId);
      if (job && LIVE_JOB_STATES.has(job.state)) continue;
      if (job) {
        deps.log.error(
          { applicationId, jobState: job.state, retries: job.retryCount },
          'provisioning job ended with the application still initializing; starting a new job',
        );
        await boss.deleteJob(PROVISION_APPLICATION_QUEUE, applicationId);
      }
      await enqueueProvisioning(deps.jobQueue, applicationId);
    }
  }
}

/** Provisioning runs with the server on the app's job queue, against its database and region client. */
export async function applicationsJobs(app: FastifyInstance) {
  const { config, database } = app;
  app.jobQueue.addWorkers(
    new ProvisioningWorkers({
      db: database.db,
      regions: app.regions,
      jobQueue: app.jobQueue,
      pollMs: config.regionProvisioningPollMs,
      retryDelaySeconds: config.provisioningRetryDelaySeconds,
      retryLimit: config.provisioningRetryLimit,
      // Only one process can open an embedded database (data-dir-lock), so it works the queue alone.
      soleWorker: database.kind === 'pglite',
      sweepSeconds: config.provisioningSweepSeconds,
      log: app.log,
    }),
  );
}
