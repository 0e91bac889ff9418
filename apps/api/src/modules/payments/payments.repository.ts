import { and, asc, desc, eq, isNull, lt, ne, not, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { hasSavedAlertOfKind } from '../usage-alerts/usage-alerts.repository.ts';

const { paymentProfile: profiles, paymentAttempt: attempts } = schema;

export type PaymentProfileRow = typeof profiles.$inferSelect;
export type PaymentAttemptRow = typeof attempts.$inferSelect;

function ofOrganization(organizationId: string) {
  return eq(profiles.organizationId, organizationId);
}

/** The organisation's saved cards, the default first, then the newest. */
export async function listPaymentProfiles(executor: Executor, organizationId: string) {
  return executor
    .select()
    .from(profiles)
    .where(ofOrganization(organizationId))
    .orderBy(desc(profiles.isDefault), desc(profiles.createdAt), asc(profiles.id));
}

export async function findPaymentProfile(
  executor: Executor,
  organizationId: string,
  profileId: string,
): Promise<PaymentProfileRow | undefined> {
  const [row] = await executor
    .select()
    .from(profiles)
    .where(and(ofOrganization(organizationId), eq(profiles.id, profileId)))
    .limit(1);
  return row;
}

export async function hasPaymentProfile(executor: Executor, organizationId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: profiles.id })
    .from(profiles)
    .where(ofOrganization(organizationId))
    .limit(1);
  return row !== undefined;
}

/**
 * Locks the organisation's cards for a change of them (which is the default, whether there is one)
 * by locking its row, which exists before its first card does: concurrent first cards wait for
 * each other, and each sees the cards the one before it wrote.
 */
export async function lockPaymentProfiles(tx: Tx, organizationId: string) {
  const { organization } = schema;
  await tx
    .select({ id: organization.id })
    .from(organization)
    .where(eq(organization.id, organizationId))
    .for('no key update');
}

export async function insertPaymentProfile(
  tx: Tx,
  organizationId: string,
  values: Omit<typeof profiles.$inferInsert, 'organizationId' | 'createdAt'>,
): Promise<PaymentProfileRow> {
  const [row] = await tx
    .insert(profiles)
    .values({ ...values, organizationId })
    .returning();
  if (!row) throw new Error('the payment profile was not written');
  return row;
}

/** Makes one card the default and every other card of the organisation not. */
export async function setDefaultPaymentProfile(tx: Tx, organizationId: string, profileId: string) {
  await tx
    .update(profiles)
    .set({ isDefault: false })
    .where(and(ofOrganization(organizationId), ne(profiles.id, profileId), eq(profiles.isDefault, true)));
  const updated = await tx
    .update(profiles)
    .set({ isDefault: true })
    .where(and(ofOrganization(organizationId), eq(profiles.id, profileId)))
    .returning({ id: profiles.id });
  return updated.length > 0;
}

export async function deletePaymentProfile(
  tx: Tx,
  organizationId: string,
  profileId: string,
): Promise<PaymentProfileRow | undefined> {
  const [row] = await tx
    .delete(profiles)
    .where(and(ofOrganization(organizationId), eq(profiles.id, profileId)))
    .returning();
  return row;
}

/** Records whether the organisation has a saved card, with the change of its cards. */
export async function setHasPaymentProfile(tx: Tx, organizationId: string, hasPaymentProfile: boolean) {
  const { organization } = schema;
  await tx.update(organization).set({ hasPaymentProfile }).where(eq(organization.id, organizationId));
}

/**
 * Stores the organisation's customer at the gateway in place of `replacing` (null: none yet, or one
 * the gateway lost), unless another request stored one first; answers the customer stored, this one
 * or the other request's. The organisation therefore has one customer however many save at once.
 */
export async function storeGatewayCustomerRef(
  executor: Executor,
  organizationId: string,
  customerRef: string,
  replacing: string | null,
): Promise<string> {
  const { organization } = schema;
  const [stored] = await executor
    .update(organization)
    .set({ gatewayCustomerRef: customerRef })
    .where(
      and(
        eq(organization.id, organizationId),
        replacing === null
          ? isNull(organization.gatewayCustomerRef)
          : eq(organization.gatewayCustomerRef, replacing),
      ),
    )
    .returning({ customerRef: organization.gatewayCustomerRef });
  if (stored?.customerRef) return stored.customerRef;
  const [current] = await executor
    .select({ customerRef: organization.gatewayCustomerRef })
    .from(organization)
    .where(eq(organization.id, organizationId));
  if (!current?.customerRef) throw new Error(`organisation ${organizationId} has no gateway customer`);
  return current.customerRef;
}

export type NewPaymentAttempt = Omit<
  typeof attempts.$inferInsert,
  'id' | 'organizationId' | 'status' | 'createdAt' | 'settledAt'
>;

export async function insertPaymentAttempt(
  executor: Executor,
  organizationId: string,
  values: NewPaymentAttempt,
): Promise<PaymentAttemptRow> {
  const [row] = await executor
    .insert(attempts)
    .values({ ...values, organizationId })
    .returning();
  if (!row) throw new Error('the payment attempt was not written');
  return row;
}

/** Locks an attempt still pending for its settlement; undefined once another settled it. */
export async function lockPendingAttempt(
  tx: Tx,
  organizationId: string,
  attemptId: number,
): Promise<PaymentAttemptRow | undefined> {
  const [row] = await tx
    .select()
    .from(attempts)
    .where(
      and(
        eq(attempts.organizationId, organizationId),
        eq(attempts.id, attemptId),
        eq(attempts.status, 'pending'),
      ),
    )
    .for('update');
  return row;
}

export async function settleAttempt(
  tx: Tx,
  organizationId: string,
  attemptId: number,
  values: Pick<
    PaymentAttemptRow,
    'status' | 'chargeRef' | 'refusal' | 'cardBrand' | 'cardLast4' | 'resultTransactionId' | 'settledAt'
  >,
) {
  await tx
    .update(attempts)
    .set(values)
    .where(and(eq(attempts.organizationId, organizationId), eq(attempts.id, attemptId)));
}

export async function findAttempt(
  executor: Executor,
  organizationId: string,
  attemptId: number,
): Promise<PaymentAttemptRow | undefined> {
  const [row] = await executor
    .select()
    .from(attempts)
    .where(and(eq(attempts.organizationId, organizationId), eq(attempts.id, attemptId)))
    .limit(1);
  return row;
}

/*
 * The reconciliation acts for the operator across organisations, like the billing jobs: it reads
 * every organisation's unsettled attempts and settles each within its own organisation.
 */

/**
 * The attempt a gateway names by its idempotency key (a Stripe webhook's PaymentIntent carries it),
 * whichever organisation's it is; undefined when no attempt has the key.
 */
export async function findAttemptByIdempotencyKey(
  executor: Executor,
  idempotencyKey: string,
): Promise<PaymentAttemptRow | undefined> {
  const [row] = await executor
    .select()
    .from(attempts)
    .where(eq(attempts.idempotencyKey, idempotencyKey))
    .limit(1);
  return row;
}

/** Attempts still pending that were written before `createdBefore`, oldest first. */
export async function listUnsettledAttempts(executor: Executor, createdBefore: Date) {
  return executor
    .select()
    .from(attempts)
    .where(and(eq(attempts.status, 'pending'), lt(attempts.createdAt, createdBefore)))
    .orderBy(asc(attempts.createdAt));
}

/** What paying needs to know of the organisation, read fresh (not from the session's copy). */
export async function findPayingOrganization(executor: Executor, organizationId: string) {
  const { organization } = schema;
  const [row] = await executor
    .select({
      id: organization.id,
      name: organization.name,
      accountStatus: organization.accountStatus,
      contractType: organization.contractType,
      isFreeCredit: organization.isFreeCredit,
      billingCountry: organization.billingCountry,
      gatewayCustomerRef: organization.gatewayCustomerRef,
      balanceCents: organization.balanceCents,
    })
    .from(organization)
    .where(eq(organization.id, organizationId))
    .limit(1);
  return row;
}

/**
 * Active PAYG organisations not yet warned this month whose balance is below what last month's
 * service charge came to: at last month's usage, the balance will not cover this month. An
 * organisation that set a low-balance usage alert is warned by that alert instead (decision 044).
 */
export async function listLowBalances(executor: Executor, currentCycle: string, previousCycle: string) {
  const { organization, ledgerTransaction: transactions } = schema;
  return executor
    .select({
      organizationId: organization.id,
      balanceCents: organization.balanceCents,
      lastMonthCents: transactions.amountCents,
    })
    .from(organization)
    .innerJoin(
      transactions,
      and(
        eq(transactions.organizationId, organization.id),
        eq(transactions.type, 'service_charge'),
        eq(transactions.billingCycle, previousCycle),
      ),
    )
    .where(
      and(
        eq(organization.contractType, 'payg'),
        eq(organization.accountStatus, 'active'),
        sql`${organization.balanceCents} < ${transactions.amountCents}`,
        sql`${organization.lowBalanceWarnedFor} IS DISTINCT FROM ${currentCycle}`,
        not(hasSavedAlertOfKind(organization.id, 'low_balance')),
      ),
    )
    .orderBy(asc(organization.id));
}

/** Records the month the organisation's super-admins were warned of a low balance. */
export async function markLowBalanceWarned(executor: Executor, organizationId: string, cycle: string) {
  const { organization } = schema;
  await executor
    .update(organization)
    .set({ lowBalanceWarnedFor: cycle })
    .where(eq(organization.id, organizationId));
}
