import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

export async function updateOrganization(
  executor: Executor,
  organizationId: string,
  values: Partial<typeof schema.organization.$inferInsert>,
) {
  const [row] = await executor
    .update(schema.organization)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.organization.id, organizationId))
    .returning();
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
