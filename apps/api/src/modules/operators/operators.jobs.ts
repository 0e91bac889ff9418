import type { FastifyInstance } from 'fastify';
import { portalName } from '../../auth/auth.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { twoFactorResetMail } from '../../mail/templates.ts';
import { jobIdOf, type JobQueue, type JobWorkers } from '../../plugins/job-queue.ts';

const TWO_FACTOR_RESET_MAIL_QUEUE = 'two-factor-reset-mail';
const MAIL_EXPIRY_SECONDS = 5 * 60;
const RETRY_DELAY_SECONDS = 60;
/** With backoff from a minute, the retries outlast a day of mail server outage. */
const RETRY_LIMIT = 12;

/** The notice to a person that the operator removed their second factor and ended their sessions. */
export interface TwoFactorResetMailJob {
  userId: string;
  to: string;
  hadSecondFactor: boolean;
  requireTwoFactor: boolean;
  /** ISO time of the reset: each reset is mailed once. */
  resetAt: string;
}

/** Queues the notice of one reset, once however often this is asked for it. */
export async function queueTwoFactorResetMail(jobQueue: JobQueue, job: TwoFactorResetMailJob) {
  await jobQueue.send(TWO_FACTOR_RESET_MAIL_QUEUE, job, {
    id: jobIdOf('two-factor-reset-mail', job.userId, job.resetAt),
  });
}

interface MailDeps {
  mailer: Mailer;
  portalName: string;
  publicUrl: string;
}

export async function mailTwoFactorReset(deps: MailDeps, job: TwoFactorResetMailJob) {
  await deps.mailer.send(
    twoFactorResetMail({
      to: job.to,
      portalName: deps.portalName,
      hadSecondFactor: job.hadSecondFactor,
      requireTwoFactor: job.requireTwoFactor,
      signInLink: new URL('/login', deps.publicUrl).toString(),
      passwordResetLink: new URL('/password/reset', deps.publicUrl).toString(),
    }),
  );
}

/** The mail that follows the operator's actions on a person's account. */
class OperatorWorkers implements JobWorkers {
  readonly finishWithinMs = 15_000;

  constructor(private readonly deps: MailDeps & { jobQueue: JobQueue }) {}

  async start() {
    const { deps } = this;
    const queue = {
      name: TWO_FACTOR_RESET_MAIL_QUEUE,
      retryLimit: RETRY_LIMIT,
      retryDelay: RETRY_DELAY_SECONDS,
      retryBackoff: true,
      expireInSeconds: MAIL_EXPIRY_SECONDS,
    };
    await deps.jobQueue.defineQueue(queue);
    await deps.jobQueue.work<TwoFactorResetMailJob>(TWO_FACTOR_RESET_MAIL_QUEUE, {}, async ([job]) => {
      if (job) await mailTwoFactorReset(deps, job.data);
    });
  }
}

export async function operatorsJobs(app: FastifyInstance) {
  app.jobQueue.addWorkers(
    new OperatorWorkers({
      jobQueue: app.jobQueue,
      mailer: app.mailer,
      portalName: portalName(app.config),
      publicUrl: app.config.publicUrl,
    }),
  );
}
