import { and, asc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { ApplicationState, InactiveReason, InvoiceType, TransactionStatus } from '@portal/contracts';
import type { Executor, Tx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

/*
 * The ledger's tables: the transactions, the balance movements, and the organisation's balance and
 * account status. Only this repository writes them (test/ledger-owner.test.ts); the ledger service
 * calls it. The monthly run, the reconciliation and the status sweeps act across organisations:
 * each write is still given the organisation it changes and scoped by it.
 */

export type TransactionRow = typeof schema.ledgerTransaction.$inferSelect;

const transactions = schema.ledgerTransaction;

function ofOrganization(organizationId: string) {
  return eq(transactions.organizationId, organizationId);
}

/** The organisation's service charges still open: what it owes and no card is paying yet. */
function openChargesOf(organizationId: string) {
  return and(
    ofOrganization(organizationId),
    eq(transactions.type, 'service_charge'),
    eq(transactions.status, 'open'),
  );
}

/** A transaction of the organisation, by its id or by the idempotency key of the request that wrote it. */
export async function findTransaction(
  executor: Executor,
  organizationId: string,
  by: number | { idempotencyKey: string },
): Promise<TransactionRow | undefined> {
  const identified =
    typeof by === 'number' ? eq(transactions.id, by) : eq(transactions.idempotencyKey, by.idempotencyKey);
  const [row] = await executor
    .select()
    .from(transactions)
    .where(and(ofOrganization(organizationId), identified))
    .limit(1);
  return row;
}

/** The amount of a credit (trial credit, free credit) that covers another transaction; 0 if none. */
export async function findCreditAmount(
  executor: Executor,
  organizationId: string,
  creditTransactionId: number,
): Promise<number> {
  const [row] = await executor
    .select({ amountCents: transactions.amountCents })
    .from(transactions)
    .where(and(ofOrganization(organizationId), eq(transactions.id, creditTransactionId)))
    .limit(1);
  return row?.amountCents ?? 0;
}

export interface CycleTransactionValues {
  type: 'service_charge' | 'service_credit';
  status: TransactionStatus;
  billingCycle: string;
  amountCents: number;
  taxAmountCents?: number;
  taxRatePercent?: string;
  invoiceType?: InvoiceType;
  notes?: string;
  paidAt?: Date;
}

/**
 * Writes the organisation's transaction of a billing cycle unless one of its type exists already;
 * undefined when it does, so the caller knows the cycle was billed (by an earlier or a concurrent
 * run: on PostgreSQL this waits for a concurrent insert of the same key to commit or roll back).
 */
export async function insertCycleTransaction(
  tx: Tx,
  organizationId: string,
  values: CycleTransactionValues,
): Promise<TransactionRow | undefined> {
  const [row] = await tx
    .insert(transactions)
    .values({ ...values, organizationId })
    .onConflictDoNothing({
      target: [transactions.organizationId, transactions.billingCycle, transactions.type],
    })
    .returning();
  return row;
}

/**
 * A transaction an operator's request writes outside any billing cycle: a granted credit (paid) or a
 * miscellaneous charge (open), carrying the operator's notes; undefined when its idempotency key
 * names an earlier transaction.
 */
export async function insertOperatorTransaction(
  tx: Tx,
  organizationId: string,
  values: Pick<
    typeof transactions.$inferInsert,
    'amountCents' | 'taxAmountCents' | 'taxRatePercent' | 'notes' | 'paidAt' | 'idempotencyKey'
  > &
    ({ type: 'service_credit'; status: 'paid' } | { type: 'other'; status: 'open' }),
): Promise<TransactionRow | undefined> {
  const [row] = await tx
    .insert(transactions)
    .values({ ...values, organizationId })
    .onConflictDoNothing({ target: [transactions.organizationId, transactions.idempotencyKey] })
    .returning();
  return row;
}

/** Locks the organisation's row until the transaction ends and answers its balance and minimum. */
export async function lockBalance(tx: Tx, organizationId: string) {
  const { organization } = schema;
  const [row] = await tx
    .select({
      balanceCents: organization.balanceCents,
      minimumBalanceCents: organization.minimumBalanceCents,
    })
    .from(organization)
    .where(eq(organization.id, organizationId))
    .for('no key update');
  if (!row) throw new Error(`organisation ${organizationId} not found`);
  return row;
}

/** Moves the balance by `amountCents` and records the movement against the transaction causing it. */
export async function moveBalance(
  tx: Tx,
  organizationId: string,
  transactionId: number,
  amountCents: number,
) {
  const { organization } = schema;
  const [updated] = await tx
    .update(organization)
    .set({ balanceCents: sql`${organization.balanceCents} + ${amountCents}`, updatedAt: new Date() })
    .where(eq(organization.id, organizationId))
    .returning({ balanceCents: organization.balanceCents });
  if (!updated) throw new Error(`organisation ${organizationId} not found`);
  await tx.insert(schema.balanceMovement).values({
    organizationId,
    transactionId,
    amountCents,
    balanceAfterCents: updated.balanceCents,
  });
  return updated.balanceCents;
}

/** Records what was paid of a transaction and its resulting status. */
export async function settleTransaction(
  tx: Tx,
  organizationId: string,
  transactionId: number,
  values: Pick<TransactionRow, 'status' | 'paymentAmountCents' | 'paidAt' | 'creditTransactionId'>,
) {
  await tx
    .update(transactions)
    .set(values)
    .where(and(ofOrganization(organizationId), eq(transactions.id, transactionId)));
}

/**
 * Sets an active account inactive for billing (a charge or invoice left unpaid); true when it was
 * active until now. An account already inactive keeps its reason: an operator's suspension stays one.
 * Made inactive by a transaction left due, the account owes its super-admins a notice about it,
 * recorded with the status.
 */
export async function markAccountInactive(
  executor: Executor,
  organizationId: string,
  noticeOwedFor: number | null = null,
): Promise<boolean> {
  const { organization } = schema;
  const rows = await executor
    .update(organization)
    .set({
      accountStatus: 'inactive',
      inactiveReason: 'billing',
      inactiveNoticeTransactionId: noticeOwedFor,
      updatedAt: new Date(),
    })
    .where(and(eq(organization.id, organizationId), eq(organization.accountStatus, 'active')))
    .returning({ id: organization.id });
  return rows.length > 0;
}

/** The organisation's name, account status and why it is inactive. */
export async function findAccount(executor: Executor, organizationId: string) {
  const { organization } = schema;
  const [row] = await executor
    .select({
      name: organization.name,
      accountStatus: organization.accountStatus,
      inactiveReason: organization.inactiveReason,
    })
    .from(organization)
    .where(eq(organization.id, organizationId));
  return row;
}

/**
 * The organisation's name, account status and why it is inactive, its row locked until the
 * transaction ends: a status change reads what it replaces, and no other change comes between.
 */
export async function lockAccount(tx: Tx, organizationId: string) {
  const { organization } = schema;
  const [row] = await tx
    .select({
      name: organization.name,
      accountStatus: organization.accountStatus,
      inactiveReason: organization.inactiveReason,
    })
    .from(organization)
    .where(eq(organization.id, organizationId))
    .for('no key update');
  if (!row) throw new Error(`organisation ${organizationId} not found`);
  return row;
}

/** Whether the organisation still owes money: a service charge not (fully) paid, or being paid by card. */
export async function hasOpenCharges(executor: Executor, organizationId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        ofOrganization(organizationId),
        eq(transactions.type, 'service_charge'),
        inArray(transactions.status, ['open', 'processing']),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Flat-rate invoices still open that were issued before `issuedBefore`, oldest first. */
export async function listOverdueFlatRateInvoices(executor: Executor, issuedBefore: Date) {
  return executor
    .select({ organizationId: transactions.organizationId, transactionId: transactions.id })
    .from(transactions)
    .where(
      and(
        eq(transactions.type, 'service_charge'),
        eq(transactions.invoiceType, 'component_based'),
        eq(transactions.status, 'open'),
        lt(transactions.createdAt, issuedBefore),
      ),
    )
    .orderBy(asc(transactions.createdAt));
}

/** Inactive accounts whose notice is owed, with the transaction left due that made them so. */
export async function listOwedInactiveNotices(executor: Executor) {
  const { organization } = schema;
  const rows = await executor
    .select({ organizationId: organization.id, transactionId: organization.inactiveNoticeTransactionId })
    .from(organization)
    .where(
      and(eq(organization.accountStatus, 'inactive'), isNotNull(organization.inactiveNoticeTransactionId)),
    );
  return rows.flatMap(({ organizationId, transactionId }) =>
    transactionId === null ? [] : [{ organizationId, transactionId }],
  );
}

/** Records the notice of that transaction as queued. */
export async function clearOwedInactiveNotice(
  executor: Executor,
  organizationId: string,
  transactionId: number,
) {
  const { organization } = schema;
  await executor
    .update(organization)
    .set({ inactiveNoticeTransactionId: null })
    .where(
      and(eq(organization.id, organizationId), eq(organization.inactiveNoticeTransactionId, transactionId)),
    );
}

/**
 * Suspends the account for the operator, whether it was active or inactive for billing: the
 * operator's word wins, and only an operator makes the account active again. A notice owed for a
 * debt stays owed.
 */
export async function suspendAccount(executor: Executor, organizationId: string) {
  const { organization } = schema;
  await executor
    .update(organization)
    .set({ accountStatus: 'inactive', inactiveReason: 'operator', updatedAt: new Date() })
    .where(eq(organization.id, organizationId));
}

/**
 * Sets an inactive account active; true when it was inactive until now. Given a reason, only an
 * account inactive for that reason: a payment ends billing inactivity, never an operator's
 * suspension, and the condition is in the update so a suspension written meanwhile is never undone.
 */
export async function markAccountActive(
  executor: Executor,
  organizationId: string,
  onlyWhenInactiveFor?: InactiveReason,
): Promise<boolean> {
  const { organization } = schema;
  const rows = await executor
    .update(organization)
    .set({
      accountStatus: 'active',
      inactiveReason: null,
      inactiveNoticeTransactionId: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(organization.id, organizationId),
        eq(organization.accountStatus, 'inactive'),
        onlyWhenInactiveFor && eq(organization.inactiveReason, onlyWhenInactiveFor),
      ),
    )
    .returning({ id: organization.id });
  return rows.length > 0;
}

/** The organisation's applications in a state that have a network in their region. */
export async function listApplicationsInState(
  executor: Executor,
  organizationId: string,
  state: ApplicationState,
) {
  const { application } = schema;
  return executor
    .select({ id: application.id, region: application.region, networkId: application.networkId })
    .from(application)
    .where(
      and(
        eq(application.organizationId, organizationId),
        eq(application.state, state),
        isNotNull(application.networkId),
      ),
    )
    .orderBy(asc(application.id));
}

/**
 * Active organisations that still have applications the system suspended: their reactivation was
 * owed but not done (the job failed for good, or a crash came between the status and the job).
 */
export async function listActiveAccountsWithSuspendedApplications(executor: Executor): Promise<string[]> {
  const { application, organization } = schema;
  const rows = await executor
    .selectDistinct({ id: organization.id })
    .from(organization)
    .innerJoin(application, eq(application.organizationId, organization.id))
    .where(and(eq(organization.accountStatus, 'active'), eq(application.state, 'temporary_inactive')))
    .orderBy(asc(organization.id));
  return rows.map((row) => row.id);
}

/**
 * Moves an open charge of one of `types` to `status` in one statement guarded by both, so that of
 * several moves of the same charge at once (payments, a void) exactly one succeeds; undefined when
 * the transaction is not such an open charge.
 */
async function moveOpenCharge(
  tx: Tx,
  organizationId: string,
  transactionId: number,
  types: TransactionRow['type'][],
  status: TransactionRow['status'],
) {
  const [row] = await tx
    .update(transactions)
    .set({ status })
    .where(
      and(
        ofOrganization(organizationId),
        eq(transactions.id, transactionId),
        inArray(transactions.type, types),
        eq(transactions.status, 'open'),
      ),
    )
    .returning();
  return row;
}

/**
 * Claims a charge for a card payment: open → processing. A service charge or a miscellaneous charge
 * (type `other`) is paid by card; a top-up or a credit never. Only one claim succeeds however many
 * pay at once; undefined when the transaction is not an open charge (paid, or being paid).
 */
export function claimTransactionForPayment(tx: Tx, organizationId: string, transactionId: number) {
  return moveOpenCharge(tx, organizationId, transactionId, ['service_charge', 'other'], 'processing');
}

/**
 * Voids a miscellaneous charge an operator raised by mistake: open → voided, so a void and a
 * payment's claim cannot both succeed; undefined when the transaction is not an open miscellaneous
 * charge.
 */
export function voidOpenMiscellaneousCharge(tx: Tx, organizationId: string, transactionId: number) {
  return moveOpenCharge(tx, organizationId, transactionId, ['other'], 'voided');
}

/**
 * Ends a card payment of a service charge: paid with what the card paid added, or open again;
 * answers the transaction so ended, undefined when it was not being paid.
 */
export async function finishTransactionPayment(
  tx: Tx,
  organizationId: string,
  transactionId: number,
  outcome: { paidCents: number; paidAt: Date } | 'refused',
): Promise<TransactionRow | undefined> {
  const { ledgerTransaction: transactions } = schema;
  const [row] = await tx
    .update(transactions)
    .set(
      outcome === 'refused'
        ? { status: 'open' }
        : {
            status: 'paid',
            paymentAmountCents: sql`${transactions.paymentAmountCents} + ${outcome.paidCents}`,
            paidAt: outcome.paidAt,
          },
    )
    .where(
      and(
        eq(transactions.organizationId, organizationId),
        eq(transactions.id, transactionId),
        eq(transactions.status, 'processing'),
      ),
    )
    .returning();
  return row;
}

/** The organisation's open service charges, oldest first, locked for settlement from the balance. */
export async function lockOpenCharges(tx: Tx, organizationId: string) {
  return tx
    .select()
    .from(transactions)
    .where(openChargesOf(organizationId))
    .orderBy(asc(transactions.createdAt), asc(transactions.id))
    .for('update');
}

/** A ledger row a card payment writes: a paid top-up or the free credit it earned. */
export async function insertPaidTransaction(
  tx: Tx,
  organizationId: string,
  values: Pick<
    typeof schema.ledgerTransaction.$inferInsert,
    | 'type'
    | 'amountCents'
    | 'paymentAmountCents'
    | 'taxAmountCents'
    | 'taxRatePercent'
    | 'creditTransactionId'
    | 'notes'
    | 'idempotencyKey'
    | 'paidAt'
  >,
) {
  const [row] = await tx
    .insert(schema.ledgerTransaction)
    .values({ ...values, organizationId, status: 'paid' })
    .returning();
  if (!row) throw new Error('the transaction was not written');
  return row;
}

/** The ids of the organisation's open service charges, oldest first: what an inactive account owes. */
export async function listOpenChargeIds(executor: Executor, organizationId: string): Promise<number[]> {
  const rows = await executor
    .select({ id: transactions.id })
    .from(transactions)
    .where(openChargesOf(organizationId))
    .orderBy(asc(transactions.createdAt), asc(transactions.id));
  return rows.map((row) => row.id);
}
