import crypto from 'node:crypto';
import type { PlanKey } from '@portal/contracts';
import { and, count, eq } from 'drizzle-orm';
import type { SessionUser } from '../src/auth/session.ts';
import type { Db, Executor } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { recordApplicationUsage } from '../src/modules/billing/billing.repository.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';

/** Organisations, applications and usage as the billing run finds them, written straight to the database. */

export type OrganizationValues = Partial<typeof schema.organization.$inferInsert>;

/**
 * A flat-rate contract billed in Singapore (9 % tax): a licence of 1000 MAU for 499.00 a month, the MAU
 * above it at the advance price and the Gold support plan for 100.00 a month.
 */
export const FLAT_RATE_CONTRACT = {
  contractType: 'flat_rate',
  billingCountry: 'SG',
  licenseMau: 1000,
  licenseFeeCents: 49_900,
  contractPlan: 'advance',
  supportPlan: 'Gold',
  supportPlanFeeCents: 10_000,
} satisfies OrganizationValues;

/** A month of 1200 MAU under FLAT_RATE_CONTRACT: 200 above the licence, 672.53 with tax. */
export const FLAT_RATE_USAGE: { plan: PlanKey; mau: number }[] = [
  { plan: 'advance', mau: 700 },
  { plan: 'max', mau: 500 },
];

/** An organisation that has completed setup, without members: the billing run needs none. */
export async function newOrganization(db: Executor, values: OrganizationValues = {}): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insert(schema.organization)
    .values({ id, email: `billing@${id}.example.com`, isFilled: true, ...values });
  return id;
}

/** An active application with its monthly active users of a cycle. */
export async function newApplicationWithUsage(
  db: Executor,
  organizationId: string,
  usage: { plan: PlanKey; billingCycle: string; mau: number; name?: string; createdAt?: Date },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(schema.application).values({
    id,
    organizationId,
    name: usage.name ?? `app-${id.slice(0, 8)}`,
    plan: usage.plan,
    region: 'EU',
    state: 'active',
    createdAt: usage.createdAt ?? new Date('2025-01-15T00:00:00Z'),
  });
  await recordApplicationUsage(db, organizationId, {
    applicationId: id,
    billingCycle: usage.billingCycle,
    mau: usage.mau,
    importedAt: new Date(),
  });
  return id;
}

/**
 * `count` paid top-ups (transactions without an invoice or a payment summary), one a day from 1
 * January 2025, so each sort has one order; answers their ids, oldest first.
 */
export async function newDailyTransactions(db: Db, organizationId: string, count: number): Promise<number[]> {
  const rows = await db
    .insert(schema.ledgerTransaction)
    .values(
      Array.from({ length: count }, (_, index) => ({
        organizationId,
        type: 'topup' as const,
        status: 'paid' as const,
        amountCents: 100 + index,
        createdAt: new Date(Date.UTC(2025, 0, 1 + index)),
      })),
    )
    .returning({ id: schema.ledgerTransaction.id });
  return rows.map((row) => row.id);
}

export async function organizationRow(db: Db, organizationId: string) {
  const [row] = await db.select().from(schema.organization).where(eq(schema.organization.id, organizationId));
  if (!row) throw new Error(`no organisation ${organizationId}`);
  return row;
}

/** The service charges of an organisation in a cycle: one when the month was billed once. */
export async function countServiceCharges(db: Db, organizationId: string, billingCycle: string) {
  const [row] = await db
    .select({ total: count() })
    .from(schema.ledgerTransaction)
    .where(
      and(
        eq(schema.ledgerTransaction.organizationId, organizationId),
        eq(schema.ledgerTransaction.billingCycle, billingCycle),
        eq(schema.ledgerTransaction.type, 'service_charge'),
      ),
    );
  return row?.total ?? 0;
}

export async function balanceMovements(db: Db, organizationId: string) {
  return db
    .select()
    .from(schema.balanceMovement)
    .where(eq(schema.balanceMovement.organizationId, organizationId));
}

/** The caller a route hands to the billing service, for a user who has signed up. */
export async function sessionUserOf(db: Db, email: string): Promise<SessionUser> {
  const [row] = await db.select().from(schema.user).where(eq(schema.user.email, email));
  if (!row) throw new Error(`no user ${email}`);
  const accounts = await db
    .select({ providerId: schema.account.providerId })
    .from(schema.account)
    .where(eq(schema.account.userId, row.id));
  return {
    sessionId: '',
    userId: row.id,
    email,
    name: row.name,
    emailVerified: true,
    twoFactorEnabled: row.twoFactorEnabled,
    signInProviders: accounts.map((account) => account.providerId),
    twoFactorEnrolmentRequired: false,
    membership: undefined,
  };
}

/**
 * A billing run that leaves May 2025's charge of USD 14.00 (100 MAU on the max plan) unpaid on an
 * empty balance: the account becomes inactive for billing. Answers the run.
 */
export async function billMayLeftUnpaid(db: Db, organizationId: string) {
  await newApplicationWithUsage(db, organizationId, { plan: 'max', billingCycle: '2025-05', mau: 100 });
  return monthlyRunService({ db, productName: 'Social' }).runMonthlyBilling({
    cycle: '2025-05',
    organizationId,
  });
}
