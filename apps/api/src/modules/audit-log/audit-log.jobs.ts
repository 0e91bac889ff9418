import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jobIdOf, type JobQueue, type JobWorkers } from '../../plugins/job-queue.ts';
import { deleteAuditLogEntriesBefore } from './audit-log.repository.ts';

export const AUDIT_LOG_RETENTION_QUEUE = 'audit-log-retention';
/** How often each server asks for the day's run (one job a day across servers, by its id). */
const SCHEDULE_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** Entries deleted per statement: each delete stays a short transaction on a large log. */
const DELETE_BATCH = 10_000;

export interface AuditLogRetentionDeps {
  db: Db;
  retentionDays: number;
  log: FastifyBaseLogger;
  now: () => Date;
}

/**
 * Deletes every entry older than the retention period, in batches; answers how many. Running it
 * twice deletes nothing more, so a retried or repeated run does no harm.
 */
export async function applyAuditLogRetention(deps: Pick<AuditLogRetentionDeps, 'db' | 'retentionDays' | 'now'>) {
  const cutoff = new Date(deps.now().getTime() - deps.retentionDays * DAY_MS);
  let deleted = 0;
  for (;;) {
    const batch = await deleteAuditLogEntriesBefore(deps.db, cutoff, DELETE_BATCH);
    deleted += batch;
    if (batch < DELETE_BATCH) return { cutoff, deleted };
  }
}

/** Sends the run of the day this time falls in (UTC): every server's schedule asks, the id makes it one. */
export async function scheduleAuditLogRetention(jobQueue: JobQueue, now: Date) {
  const day = now.toISOString().slice(0, 10);
  await jobQueue.sendOnce(AUDIT_LOG_RETENTION_QUEUE, {}, jobIdOf(AUDIT_LOG_RETENTION_QUEUE, day));
}

/** The daily retention of the audit log (AUDIT_LOG_RETENTION_DAYS). */
class AuditLogWorkers implements JobWorkers {
  /** A batch is one short delete; a run cut between batches continues the next day. */
  readonly finishWithinMs = 10_000;

  constructor(private readonly deps: AuditLogRetentionDeps & { jobQueue: JobQueue }) {}

  async start() {
    const { deps } = this;
    const queue = { name: AUDIT_LOG_RETENTION_QUEUE, retryLimit: 3, retryDelay: 60, expireInSeconds: 30 * 60 };
    await deps.jobQueue.defineQueue(queue);
    await deps.jobQueue.work(AUDIT_LOG_RETENTION_QUEUE, {}, async () => {
      const { cutoff, deleted } = await applyAuditLogRetention(deps);
      deps.log.info({ cutoff, deleted }, 'audit log entries past retention deleted');
    });
    await scheduleAuditLogRetention(deps.jobQueue, deps.now());
    deps.jobQueue.schedule('audit log retention', SCHEDULE_MS, () =>
      scheduleAuditLogRetention(deps.jobQueue, deps.now()),
    );
  }
}

export async function auditLogJobs(app: FastifyInstance) {
  app.jobQueue.addWorkers(
    new AuditLogWorkers({
      db: app.database.db,
      retentionDays: app.config.auditLogRetentionDays,
      log: app.log,
      now: () => new Date(),
      jobQueue: app.jobQueue,
    }),
  );
}
