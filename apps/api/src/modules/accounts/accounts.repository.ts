import type { RoleId } from '@portal/contracts';
import { eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

export async function findMembershipByUserId(executor: Executor, userId: string) {
  const [row] = await executor
    .select({ member: schema.member, organization: schema.organization })
    .from(schema.member)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
    .where(eq(schema.member.userId, userId))
    .limit(1);
  return row;
}

export async function insertOrganization(executor: Executor, values: { id: string; email: string }) {
  await executor.insert(schema.organization).values(values);
}

/**
 * Makes the user the organisation's super-admin, unless the user is already a member somewhere
 * (member.user_id is unique); false then, and nothing is inserted.
 */
export async function insertSuperAdmin(
  executor: Executor,
  organizationId: string,
  values: { userId: string; displayName: string; roleId: RoleId },
): Promise<boolean> {
  const inserted = await executor
    .insert(schema.member)
    .values({ ...values, id: crypto.randomUUID(), organizationId, lastLoginAt: new Date() })
    .onConflictDoNothing({ target: schema.member.userId })
    .returning({ id: schema.member.id });
  return inserted.length > 0;
}

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

export async function findDefaultTaxRate(executor: Executor) {
  const [row] = await executor
    .select()
    .from(schema.taxRate)
    .where(isNull(schema.taxRate.countryCode))
    .limit(1);
  return row;
}

export async function listFreeCreditTiers(executor: Executor) {
  return executor.select().from(schema.freeCreditTier).orderBy(schema.freeCreditTier.startCents);
}
