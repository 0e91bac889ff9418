import { and, eq, ne } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

/** What may change of an organisation here: anything but its balance and account status, which the ledger alone writes. */
export type OrganizationChanges = Omit<
  Partial<typeof schema.organization.$inferInsert>,
  'balanceCents' | 'accountStatus' | 'inactiveReason' | 'inactiveNoticeTransactionId'
>;

export async function updateOrganization(
  executor: Executor,
  organizationId: string,
  values: OrganizationChanges,
) {
  const [row] = await executor
    .update(schema.organization)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.organization.id, organizationId))
    .returning();
  return row;
}

/** The organisation's row, locked until the transaction ends: a change reads what it replaces. */
export async function lockOrganization(tx: Tx, organizationId: string) {
  const [row] = await tx
    .select()
    .from(schema.organization)
    .where(eq(schema.organization.id, organizationId))
    .for('update');
  return row;
}

/** The organisation's security settings, locked until the transaction ends, so a change reads what it replaces. */
export async function lockOrganizationSecurity(executor: Executor, organizationId: string) {
  const [row] = await executor
    .select({ requireTwoFactor: schema.organization.requireTwoFactor })
    .from(schema.organization)
    .where(eq(schema.organization.id, organizationId))
    .for('update');
  return row;
}

export async function listTaxRates(executor: Executor) {
  return executor
    .select({ countryCode: schema.taxRate.countryCode, ratePercent: schema.taxRate.ratePercent })
    .from(schema.taxRate);
}

export async function listFreeCreditTiers(executor: Executor) {
  return executor.select().from(schema.freeCreditTier).orderBy(schema.freeCreditTier.startCents);
}

/**
 * Whether the organisation has a card payment that succeeded or is still under way (a top-up or an
 * invoice): its tax was reckoned by the billing country, which is fixed from then on (decision 030).
 */
export async function hasCardPayment(executor: Executor, organizationId: string): Promise<boolean> {
  const { paymentAttempt } = schema;
  const [row] = await executor
    .select({ id: paymentAttempt.id })
    .from(paymentAttempt)
    .where(and(eq(paymentAttempt.organizationId, organizationId), ne(paymentAttempt.status, 'refused')))
    .limit(1);
  return row !== undefined;
}
