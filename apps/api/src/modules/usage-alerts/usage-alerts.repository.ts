import type { UsageAlert, UsageAlertKind } from '@portal/contracts';
import { and, asc, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import type { CrossedThreshold } from './usage-alert-rules.ts';

/** The organisation's saved alerts and extra recipients; undefined when never saved. */
export async function findUsageAlertSetting(executor: Executor, organizationId: string) {
  const [row] = await executor
    .select()
    .from(schema.usageAlertSetting)
    .where(eq(schema.usageAlertSetting.organizationId, organizationId));
  return row;
}

/** Saves the whole set, replacing what was there. */
export async function saveUsageAlertSetting(
  tx: Tx,
  organizationId: string,
  setting: { alerts: UsageAlert[]; recipients: string[] },
) {
  const { usageAlertSetting } = schema;
  await tx
    .insert(usageAlertSetting)
    .values({ organizationId, ...setting })
    .onConflictDoUpdate({
      target: usageAlertSetting.organizationId,
      set: { ...setting, updatedAt: sql`now()` },
    });
}

/** Whether the organisation in `organizationId` (a column or a value) has saved an alert of this kind. */
export function hasSavedAlertOfKind(organizationId: SQLWrapper, kind: UsageAlertKind): SQL {
  const { usageAlertSetting } = schema;
  return sql`EXISTS (SELECT 1 FROM ${usageAlertSetting} WHERE ${usageAlertSetting.organizationId} = ${organizationId} AND ${usageAlertSetting.alerts} @> ${JSON.stringify([{ kind }])}::jsonb)`;
}

/** Organisations with a saved alert of this kind: those whose balance the schedule watches. */
export async function listOrganizationsWithAlertKind(executor: Executor, kind: UsageAlertKind) {
  const { organization } = schema;
  const rows = await executor
    .select({ organizationId: organization.id })
    .from(organization)
    .where(hasSavedAlertOfKind(organization.id, kind))
    .orderBy(asc(organization.id));
  return rows.map((row) => row.organizationId);
}

/**
 * Notes a threshold crossed in a cycle, unless it already was: the unique key makes this once per
 * threshold and month across servers and retries. Answers the new notice, or undefined.
 */
export async function insertUsageAlertNotice(
  tx: Tx,
  organizationId: string,
  billingCycle: string,
  crossed: CrossedThreshold,
) {
  const { usageAlertNotice } = schema;
  const [row] = await tx
    .insert(usageAlertNotice)
    .values({ organizationId, billingCycle, ...crossed })
    .onConflictDoNothing({
      target: [
        usageAlertNotice.organizationId,
        usageAlertNotice.kind,
        usageAlertNotice.threshold,
        usageAlertNotice.billingCycle,
      ],
    })
    .returning();
  return row;
}

export async function listUsageAlertNotices(
  executor: Executor,
  organizationId: string,
  billingCycle: string,
) {
  const { usageAlertNotice } = schema;
  return executor
    .select()
    .from(usageAlertNotice)
    .where(
      and(
        eq(usageAlertNotice.organizationId, organizationId),
        eq(usageAlertNotice.billingCycle, billingCycle),
      ),
    )
    .orderBy(asc(usageAlertNotice.createdAt), asc(usageAlertNotice.id));
}

export async function findUsageAlertNotice(executor: Executor, organizationId: string, id: number) {
  const { usageAlertNotice } = schema;
  const [row] = await executor
    .select()
    .from(usageAlertNotice)
    .where(and(eq(usageAlertNotice.organizationId, organizationId), eq(usageAlertNotice.id, id)));
  return row;
}

/** Notices whose mail is not queued yet: new ones, and those a crash left. */
export async function listUnmailedUsageAlertNotices(executor: Executor) {
  const { usageAlertNotice } = schema;
  return executor
    .select()
    .from(usageAlertNotice)
    .where(isNull(usageAlertNotice.mailedAt))
    .orderBy(asc(usageAlertNotice.id));
}

export async function markUsageAlertNoticeMailed(executor: Executor, id: number) {
  const { usageAlertNotice } = schema;
  await executor
    .update(usageAlertNotice)
    .set({ mailedAt: sql`now()` })
    .where(eq(usageAlertNotice.id, id));
}
