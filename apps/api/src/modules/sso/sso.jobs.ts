import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { SYSTEM_AUDIT_CONTEXT } from '../audit-log/audit-context.ts';
import { jobIdOf, type JobQueue, type JobWorkers } from '../../plugins/job-queue.ts';
import {
  checkEmailDomain,
  dnsDomainProofLookup,
  type DomainProofLookup,
  type EmailDomainCheckOutcome,
} from './email-domain-proof.ts';
import { emailDomainsDueForCheck } from './sso.repository.ts';

export const EMAIL_DOMAIN_CHECK_QUEUE = 'sso-email-domain-check';
/** How often each server's schedule sends the hour's re-check (one job an hour across servers). */
const SCHEDULE_MS = 10 * 60_000;
/** Domains checked by one run, and at once: each lookup gives up within its own deadline (8 s). */
const DOMAINS_PER_RUN = 500;
const LOOKUPS_AT_ONCE = 8;
const CHECK_EXPIRY_SECONDS = 15 * 60;

export interface EmailDomainRecheckDeps {
  db: Db;
  lookup: DomainProofLookup;
  log: FastifyBaseLogger;
  now: () => Date;
}

/**
 * Re-checks the email domains whose proof is due (emailDomainsDueForCheck): pending ones become
 * verified once their record appears, verified ones whose record stays missing go back to pending.
 * The portal's own rule: the audit log names the system, from no request.
 */
export async function recheckEmailDomains(deps: EmailDomainRecheckDeps) {
  const now = deps.now();
  const due = await emailDomainsDueForCheck(deps.db, now, DOMAINS_PER_RUN);
  const outcomes: Record<EmailDomainCheckOutcome, number> = {
    verified: 0,
    still_verified: 0,
    pending: 0,
    back_to_pending: 0,
    superseded: 0,
  };
  for (let start = 0; start < due.length; start += LOOKUPS_AT_ONCE) {
    const batch = due.slice(start, start + LOOKUPS_AT_ONCE);
    const checks = batch.map((row) => checkEmailDomain(deps, row, now, SYSTEM_AUDIT_CONTEXT));
    for (const outcome of await Promise.all(checks)) outcomes[outcome] += 1;
  }
  return outcomes;
}

/**
 * Sends the re-check of the hour this time falls in: every server's schedule asks, and the job id
 * makes it one job, which one server works.
 */
export async function scheduleEmailDomainRecheck(jobQueue: JobQueue, now: Date) {
  await jobQueue.send(
    EMAIL_DOMAIN_CHECK_QUEUE,
    {},
    { id: jobIdOf(EMAIL_DOMAIN_CHECK_QUEUE, now.toISOString().slice(0, 13)) },
  );
}

/** The scheduled re-check of SSO email domains' DNS proofs. */
class SsoWorkers implements JobWorkers {
  /** A run is at most a few batches of lookups with deadlines; a cut one runs again next hour. */
  readonly finishWithinMs = 15_000;

  constructor(private readonly deps: EmailDomainRecheckDeps & { jobQueue: JobQueue }) {}

  async start() {
    const { deps } = this;
    const queue = { name: EMAIL_DOMAIN_CHECK_QUEUE, retryLimit: 0, expireInSeconds: CHECK_EXPIRY_SECONDS };
    await deps.jobQueue.defineQueue(queue);
    await deps.jobQueue.work(EMAIL_DOMAIN_CHECK_QUEUE, {}, async () => {
      deps.log.info(await recheckEmailDomains(deps), 'sso email domains re-checked');
    });
    // The first look is one interval after start: a server restarting often still checks hourly.
    deps.jobQueue.schedule('sso email domain', SCHEDULE_MS, () =>
      scheduleEmailDomainRecheck(deps.jobQueue, deps.now()),
    );
  }
}

export async function ssoJobs(app: FastifyInstance) {
  app.jobQueue.addWorkers(
    new SsoWorkers({
      db: app.database.db,
      lookup: dnsDomainProofLookup(app.config.dnsServers),
      log: app.log,
      now: () => new Date(),
      jobQueue: app.jobQueue,
    }),
  );
}
