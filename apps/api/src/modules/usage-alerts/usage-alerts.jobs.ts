import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { portalName } from '../../auth/auth.ts';
import * as schema from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { usageAlertMail } from '../../mail/templates.ts';
import type { JobWorkers } from '../../plugins/job-queue.ts';
import { billingCycleName, billingCycleOf } from '../billing/billing-rules.ts';
import { describeCrossing } from './usage-alert-rules.ts';
import {
  USAGE_ALERT_MAIL_QUEUE,
  checkUsageAlerts,
  mailUnmailedNotices,
  type UsageAlertCheckDeps,
  type UsageAlertMailJob,
} from './usage-alerts.check.ts';
import { findUsageAlertNotice, listOrganizationsWithAlertKind } from './usage-alerts.repository.ts';

const MAIL_EXPIRY_SECONDS = 5 * 60;
const RETRY_DELAY_SECONDS = 60;
const RETRY_LIMIT = 12;

export interface UsageAlerts {
  /**
   * Checks the alerts of the organisations a usage import changed. An import of a month other than
   * the current one (the closing of the last) changes no alert's figure.
   */
  afterUsageImport(cycle: string, organizationIds: Iterable<string>): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    usageAlerts: UsageAlerts;
  }
}

interface UsageAlertJobsDeps extends UsageAlertCheckDeps {
  mailer: Mailer;
  portalName: string;
  publicUrl: string;
  scheduleSeconds: number;
}

/** A month `YYYY-MM` as the mail says it: "November 2026". */
/** Mails one address a notice: the figure, the threshold, and where to look. */
export async function mailUsageAlert(
  deps: Pick<UsageAlertJobsDeps, 'db' | 'mailer' | 'portalName' | 'publicUrl'>,
  job: UsageAlertMailJob,
) {
  const notice = await findUsageAlertNotice(deps.db, job.organizationId, job.noticeId);
  const [organization] = await deps.db
    .select({ name: schema.organization.name })
    .from(schema.organization)
    .where(eq(schema.organization.id, job.organizationId));
  if (!notice || !organization) return;
  const { headline, summary } = describeCrossing(notice, organization.name, billingCycleName(notice.billingCycle));
  const balance = notice.kind === 'low_balance';
  await deps.mailer.send(
    usageAlertMail({
      to: job.to,
      portalName: deps.portalName,
      headline,
      summary,
      action: balance ? 'Top up' : 'See usage and alerts',
      link: new URL(
        balance ? '/payment/asc/top-up' : '/subscription-licenses/asc',
        deps.publicUrl,
      ).toString(),
    }),
  );
}

/**
 * The notices' mail, and on the billing schedule the balances of organisations with a low-balance
 * alert (a balance falls with charges, not imports) and the mail a crash left unqueued.
 */
class UsageAlertWorkers implements JobWorkers {
  readonly finishWithinMs = 15_000;

  constructor(private readonly deps: UsageAlertJobsDeps) {}

  async start() {
    const { deps } = this;
    await deps.jobQueue.defineQueue({
      name: USAGE_ALERT_MAIL_QUEUE,
      retryLimit: RETRY_LIMIT,
      retryDelay: RETRY_DELAY_SECONDS,
      retryBackoff: true,
      expireInSeconds: MAIL_EXPIRY_SECONDS,
    });
    await deps.jobQueue.work<UsageAlertMailJob>(USAGE_ALERT_MAIL_QUEUE, {}, async ([job]) => {
      if (job) await mailUsageAlert(deps, job.data);
    });
    if (deps.scheduleSeconds === 0) return;
    deps.jobQueue.schedule('usage alerts', deps.scheduleSeconds * 1000, async () => {
      await checkUsageAlerts(deps, await listOrganizationsWithAlertKind(deps.db, 'low_balance'));
      await mailUnmailedNotices(deps);
    });
  }
}

/** `app.usageAlerts` for the usage import (its job and the operator's), and the alerts' jobs. */
export const usageAlertsPlugin = fp(
  async (app: FastifyInstance) => {
    const deps: UsageAlertJobsDeps = {
      db: app.database.db,
      jobQueue: app.jobQueue,
      mailer: app.mailer,
      portalName: portalName(app.config),
      publicUrl: app.config.publicUrl,
      now: () => new Date(),
      scheduleSeconds: app.config.billingScheduleSeconds,
    };
    app.decorate('usageAlerts', {
      async afterUsageImport(cycle, organizationIds) {
        if (cycle === billingCycleOf(deps.now())) await checkUsageAlerts(deps, organizationIds);
      },
    } satisfies UsageAlerts);
    app.jobQueue.addWorkers(new UsageAlertWorkers(deps));
  },
  { name: 'usage-alerts', dependencies: ['config', 'database', 'job-queue', 'mailer'] },
);
