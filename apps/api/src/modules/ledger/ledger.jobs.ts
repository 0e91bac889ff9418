import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jobIdOf, type JobQueue, type JobWorkers } from '../../plugins/job-queue.ts';
import type { RegionClient } from '../../regions/region-client.ts';
import { updateApplicationInState } from '../applications/applications.repository.ts';
import {
  findAccount,
  listActiveAccountsWithSuspendedApplications,
  listApplicationsInState,
} from './ledger.repository.ts';

const REACTIVATE_APPLICATIONS_QUEUE = 'reactivate-applications';
/** Region calls for each application of one organisation. */
const REACTIVATION_EXPIRY_SECONDS = 10 * 60;
const RETRY_DELAY_SECONDS = 60;
/** With backoff from a minute, the retries outlast a day of regional outage. */
const RETRY_LIMIT = 12;

interface ReactivateApplicationsJob {
  organizationId: string;
}

export interface ReactivationDeps {
  db: Db;
  regions: RegionClient;
  jobQueue: JobQueue;
  now: () => Date;
}

/**
 * Calls the region for each application and then records its new state; one that fails leaves the
 * others done, and the error is thrown at the end so the job retries the rest.
 */
export async function changeEachApplication(
  applications: Awaited<ReturnType<typeof listApplicationsInState>>,
  change: (application: (typeof applications)[number], networkId: string) => Promise<void>,
) {
  const failures: string[] = [];
  for (const application of applications) {
    try {
      if (application.networkId) await change(application, application.networkId);
    } catch (error) {
      failures.push(`${application.id}: ${(error as Error).message}`);
    }
  }
  if (failures.length > 0) throw new Error(failures.join('; '));
}

/** Reactivates in their regions the applications the system deactivated, while the account is active. */
export async function reactivateApplicationsOfAccount(
  deps: Pick<ReactivationDeps, 'db' | 'regions'>,
  job: ReactivateApplicationsJob,
) {
  const { db, regions } = deps;
  const { organizationId } = job;
  if ((await findAccount(db, organizationId))?.accountStatus !== 'active') return;
  const suspended = await listApplicationsInState(db, organizationId, 'temporary_inactive');
  await changeEachApplication(suspended, async (application, networkId) => {
    await regions.reactivateNetwork(application.region, networkId);
    await updateApplicationInState(db, organizationId, application.id, 'temporary_inactive', {
      state: 'active',
      deactivatedAt: null,
    });
  });
}

/** Sends the job that reactivates the applications the system deactivated, once the account is active. */
export async function reactivateApplicationsSoon(jobQueue: JobQueue, organizationId: string) {
  const job: ReactivateApplicationsJob = { organizationId };
  await jobQueue.send(REACTIVATE_APPLICATIONS_QUEUE, job, { id: crypto.randomUUID() });
}

/**
 * Sends, at most once a day per account, the reactivation of applications an active account still
 * has suspended: a crash between setting the account active and sending its reactivation, or a
 * reactivation whose retries ran out, leaves them so, and nothing else would look again.
 */
export async function reactivateForgottenApplications(
  deps: Pick<ReactivationDeps, 'db' | 'jobQueue' | 'now'>,
) {
  const day = deps.now().toISOString().slice(0, 10);
  const organizations = await listActiveAccountsWithSuspendedApplications(deps.db);
  for (const organizationId of organizations) {
    const job: ReactivateApplicationsJob = { organizationId };
    await deps.jobQueue.sendOnce(
      REACTIVATE_APPLICATIONS_QUEUE,
      job,
      jobIdOf('reactivate-forgotten', organizationId, day),
    );
  }
  return organizations;
}

/** The reactivation of an account's applications once it is active again. */
class LedgerWorkers implements JobWorkers {
  /** A reactivation cut off is retried after its expiry. */
  readonly finishWithinMs = 15_000;

  constructor(private readonly deps: ReactivationDeps) {}

  async start() {
    const { jobQueue } = this.deps;
    const queue = {
      name: REACTIVATE_APPLICATIONS_QUEUE,
      retryLimit: RETRY_LIMIT,
      retryDelay: RETRY_DELAY_SECONDS,
      retryBackoff: true,
      expireInSeconds: REACTIVATION_EXPIRY_SECONDS,
    };
    await jobQueue.defineQueue(queue);
    await jobQueue.work<ReactivateApplicationsJob>(REACTIVATE_APPLICATIONS_QUEUE, {}, async ([job]) => {
      if (job) await reactivateApplicationsOfAccount(this.deps, job.data);
    });
  }
}

export async function ledgerJobs(app: FastifyInstance) {
  app.jobQueue.addWorkers(
    new LedgerWorkers({
      db: app.database.db,
      regions: app.regions,
      jobQueue: app.jobQueue,
      now: () => new Date(),
    }),
  );
}
