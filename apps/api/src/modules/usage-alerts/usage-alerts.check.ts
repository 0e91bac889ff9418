import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { jobIdOf, type JobQueue } from '../../plugins/job-queue.ts';
import { SYSTEM_AUDIT_CONTEXT } from '../audit-log/audit-context.ts';
import { record } from '../audit-log/audit-log.record.ts';
import { billingCycleOf, paygCharge } from '../billing/billing-rules.ts';
import { listCycleUsage, listSuperAdminEmails, sumCycleUsage } from '../billing/billing.repository.ts';
import { alertsInForce, figureOf, isCrossed, type UsageFigures } from './usage-alert-rules.ts';
import {
  findUsageAlertSetting,
  insertUsageAlertNotice,
  listUnmailedUsageAlertNotices,
  markUsageAlertNoticeMailed,
} from './usage-alerts.repository.ts';

export const USAGE_ALERT_MAIL_QUEUE = 'usage-alert-mail';

/** One notice's mail to one address. */
export interface UsageAlertMailJob {
  organizationId: string;
  noticeId: number;
  to: string;
}

export interface UsageAlertCheckDeps {
  db: Db;
  jobQueue: JobQueue;
  now: () => Date;
}

/** The organisation's figures of the month so far; undefined for an organisation that is gone. */
export async function usageFiguresOf(db: Db, organizationId: string, now: Date) {
  const [organization] = await db
    .select()
    .from(schema.organization)
    .where(eq(schema.organization.id, organizationId));
  if (!organization) return undefined;
  const cycle = billingCycleOf(now);
  const { mau } = await sumCycleUsage(db, organizationId, cycle);
  const projectedChargeCents =
    organization.contractType === 'payg'
      ? paygCharge(await listCycleUsage(db, organizationId, cycle, now)).totalCents
      : 0;
  const figures: UsageFigures = {
    contractType: organization.contractType,
    accountActive: organization.accountStatus === 'active',
    licenseMau: organization.licenseMau,
    mau,
    projectedChargeCents,
    balanceCents: organization.balanceCents,
  };
  return { organization, figures };
}

/** Who a usage alert tells: the super-admins and the addresses they added, each once. */
export async function usageAlertRecipients(db: Db, organizationId: string): Promise<string[]> {
  const setting = await findUsageAlertSetting(db, organizationId);
  const superAdmins = await listSuperAdminEmails(db, organizationId);
  return [...new Set([...superAdmins, ...(setting?.recipients ?? [])])];
}

/**
 * Compares each organisation's alerts in force with its figures of this month, notes each threshold
 * crossed (once a month: the notice's unique key), with its audit entry in the same transaction, then
 * queues the mail of every notice not yet mailed.
 */
export async function checkUsageAlerts(deps: UsageAlertCheckDeps, organizationIds: Iterable<string>) {
  const { db } = deps;
  const now = deps.now();
  const cycle = billingCycleOf(now);
  let noticed = 0;
  for (const organizationId of organizationIds) {
    const read = await usageFiguresOf(db, organizationId, now);
    if (!read) continue;
    const { organization, figures } = read;
    const setting = await findUsageAlertSetting(db, organizationId);
    for (const alert of alertsInForce(setting?.alerts, figures.contractType)) {
      if (!isCrossed(alert, figures)) continue;
      const crossed = {
        kind: alert.kind,
        threshold: alert.value,
        figure: figureOf(alert.kind, figures),
        licenseMau: figures.licenseMau,
      };
      const notice = await db.transaction(async (tx) => {
        const inserted = await insertUsageAlertNotice(tx, organizationId, cycle, crossed);
        if (inserted) {
          await record(tx, {
            organizationId,
            action: 'usage_alert.triggered',
            target: { type: 'organization', id: organizationId, name: organization.name },
            changes: {
              kind: { after: crossed.kind },
              threshold: { after: crossed.threshold },
              figure: { after: crossed.figure },
            },
            context: SYSTEM_AUDIT_CONTEXT,
          });
        }
        return inserted;
      });
      if (notice) noticed += 1;
    }
  }
  await mailUnmailedNotices(deps);
  return { noticed };
}

/**
 * Queues one mail job per recipient of each notice not yet mailed, then marks it mailed. A crash in
 * between leaves it for the next check; the jobs' ids (notice and address), looked up in the archive
 * too, make the repeat a no-op even once the first mail's job is done.
 */
export async function mailUnmailedNotices(deps: Pick<UsageAlertCheckDeps, 'db' | 'jobQueue'>) {
  const { db, jobQueue } = deps;
  for (const notice of await listUnmailedUsageAlertNotices(db)) {
    for (const to of await usageAlertRecipients(db, notice.organizationId)) {
      const job: UsageAlertMailJob = { organizationId: notice.organizationId, noticeId: notice.id, to };
      await jobQueue.sendOnce(USAGE_ALERT_MAIL_QUEUE, job, jobIdOf('usage-alert', String(notice.id), to));
    }
    await markUsageAlertNoticeMailed(db, notice.id);
  }
}
