import { eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

export async function findMembershipByUserId(db: Db, userId: string) {
  const [row] = await db
    .select({ member: schema.member, organization: schema.organization })
    .from(schema.member)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
    .where(eq(schema.member.userId, userId))
    .limit(1);
  return row;
}

/**
 * Creates the organisation a new user will set up, with the user as its super-admin. Idempotent:
 * concurrent first requests of one user end with a single membership (member.user_id is unique).
 */
export async function createOrganizationForUser(
  db: Db,
  input: { userId: string; email: string; displayName: string; superAdminRole: string },
) {
  const alreadyMember = new Error('already a member');
  try {
    await db.transaction(async (tx) => {
      const organizationId = crypto.randomUUID();
      await tx.insert(schema.organization).values({ id: organizationId, email: input.email });
      const inserted = await tx
        .insert(schema.member)
        .values({
          id: crypto.randomUUID(),
          organizationId,
          userId: input.userId,
          displayName: input.displayName,
          roleId: input.superAdminRole,
          lastLoginAt: new Date(),
        })
        .onConflictDoNothing({ target: schema.member.userId })
        .returning({ id: schema.member.id });
      // Another request created the membership first: roll back this organisation.
      if (inserted.length === 0) throw alreadyMember;
    });
  } catch (error) {
    if (error !== alreadyMember) throw error;
  }
}

export async function updateOrganization(
  db: Db,
  organizationId: string,
  values: Partial<typeof schema.organization.$inferInsert>,
) {
  const [row] = await db
    .update(schema.organization)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.organization.id, organizationId))
    .returning();
  return row;
}

/** Fills the organisation and names its creator after the person given in the setup form, together. */
export async function completeOrganizationSetup(
  db: Db,
  input: {
    organizationId: string;
    memberId: string;
    displayName: string;
    values: Partial<typeof schema.organization.$inferInsert>;
  },
) {
  return db.transaction(async (tx) => {
    const [updatedMember] = await tx
      .update(schema.member)
      .set({ displayName: input.displayName, updatedAt: new Date() })
      .where(eq(schema.member.id, input.memberId))
      .returning();
    const [updatedOrganization] = await tx
      .update(schema.organization)
      .set({ ...input.values, updatedAt: new Date() })
      .where(eq(schema.organization.id, input.organizationId))
      .returning();
    return updatedMember && updatedOrganization
      ? { member: updatedMember, organization: updatedOrganization }
      : undefined;
  });
}

export async function listTaxRates(db: Db) {
  return db
    .select({ countryCode: schema.taxRate.countryCode, ratePercent: schema.taxRate.ratePercent })
    .from(schema.taxRate);
}

export async function findDefaultTaxRate(db: Db) {
  const [row] = await db.select().from(schema.taxRate).where(isNull(schema.taxRate.countryCode)).limit(1);
  return row;
}

export async function listFreeCreditTiers(db: Db) {
  return db.select().from(schema.freeCreditTier).orderBy(schema.freeCreditTier.startCents);
}
