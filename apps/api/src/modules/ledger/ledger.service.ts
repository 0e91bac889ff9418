import { padTransactionId } from '@portal/contracts';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { JobQueue } from '../../plugins/job-queue.ts';
import { SYSTEM_AUDIT_CONTEXT, type AuditContext } from '../audit-log/audit-context.ts';
import { changedFields, record, type AuditTarget } from '../audit-log/audit-log.record.ts';
import { settleFromBalance, type ChargeSettlement } from './balance-settlement.ts';
import { invoiceNumber } from './invoice-number.ts';
import { reactivateApplicationsSoon } from './ledger.jobs.ts';
import {
  findAccount,
  findCreditAmount,
  findTransaction,
  finishTransactionPayment,
  hasOpenCharges,
  insertCycleTransaction,
  insertOperatorTransaction,
  insertPaidTransaction,
  listOverdueFlatRateInvoices,
  lockAccount,
  lockBalance,
  lockOpenCharges,
  markAccountActive,
  markAccountInactive,
  moveBalance,
  settleTransaction,
  suspendAccount,
  voidOpenMiscellaneousCharge,
  type CycleTransactionValues,
  type TransactionRow,
} from './ledger.repository.ts';

/*
 * The ledger: the organisation's transactions, its prepaid balance and the account status they
 * decide (docs/decisions/036-ledger-owner-and-one-noun.md). Billing, payments and operators write
 * them through this service alone; the functions taking a transaction (`tx`) run inside the
 * caller's, so a charge and what it does to the balance and the status commit together.
 */

export {
  claimTransactionForPayment,
  clearOwedInactiveNotice,
  finishTransactionPayment,
} from './ledger.repository.ts';

/** Why an account's status changed, as its audit entry says. */
type AccountStatusCause =
  /** A month's PAYG charge is left due with the balance at its minimum. */
  | 'balance_exhausted'
  /** A flat-rate invoice stayed open for the grace period. */
  | 'unpaid_invoice'
  /** Nothing is due any more: a payment, a top-up or a new card settled the debt. */
  | 'nothing_due'
  | 'operator';

/** An amount as the audit log shows it, in USD with two decimals beside a `currency` of USD. */
export function auditAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A transaction as the audit log names it: by its invoice number when it has an invoice. */
function transactionTarget(row: Pick<TransactionRow, 'id' | 'invoiceType'>): AuditTarget {
  const id = padTransactionId(row.id);
  return { type: 'transaction', id, name: row.invoiceType ? invoiceNumber(row.id) : id };
}

/**
 * Changes the account status with `write` in the caller's transaction, the organisation's row
 * locked first so the entry's before is what the change replaced, and records the change with its
 * cause; a write that changed nothing records nothing. Answers whether the status changed.
 */
async function changeAccountStatus(
  tx: Tx,
  organizationId: string,
  write: () => Promise<unknown>,
  { cause, context }: { cause: AccountStatusCause; context: AuditContext },
): Promise<boolean> {
  const before = await lockAccount(tx, organizationId);
  await write();
  const after = await lockAccount(tx, organizationId);
  const changes = changedFields(
    { status: before.accountStatus, inactiveReason: before.inactiveReason },
    { status: after.accountStatus, inactiveReason: after.inactiveReason },
  );
  if (Object.keys(changes).length === 0) return false;
  await record(tx, {
    organizationId,
    action: after.accountStatus === 'active' ? 'account.made_active' : 'account.made_inactive',
    target: { type: 'organization', id: organizationId, name: after.name },
    changes: { ...changes, reason: { after: cause } },
    context,
  });
  return 'status' in changes;
}

/**
 * How a charge was paid, as its audit entry says: what this payment paid, and with what — a card,
 * the balance, or only the credit covering the charge (a month within the trial).
 */
type ChargePayment =
  | { paidCents: number; creditCents: number; paidWith: 'balance' | 'credit' }
  | { paidCents: number; paidWith: 'card'; card: string };

/** Records a charge (an invoice or a miscellaneous charge) paid in full. */
function recordChargePaid(
  tx: Tx,
  organizationId: string,
  charge: Pick<TransactionRow, 'id' | 'invoiceType'>,
  payment: ChargePayment,
  context: AuditContext,
) {
  return record(tx, {
    organizationId,
    action: 'billing.invoice_paid',
    target: transactionTarget(charge),
    changes: {
      status: { before: 'open', after: 'paid' },
      paid: { after: auditAmount(payment.paidCents) },
      currency: { after: 'USD' },
      paidWith: { after: payment.paidWith },
      ...(payment.paidWith === 'card' && { card: { after: payment.card } }),
      ...(payment.paidWith !== 'card' &&
        payment.creditCents > 0 && { credit: { after: auditAmount(payment.creditCents) } }),
    },
    context,
  });
}

/** How long an inactive account keeps its applications running, and how long a flat-rate invoice may stay open. */
export const GRACE_DAYS = 30;
const DAY_MS = 86_400_000;
const TRIAL_CREDIT_NOTE = 'Trial credit';
const FREE_CREDIT_NOTE = 'Free credit';

export interface CreditGrant {
  transactionId: number;
  amountCents: number;
  balanceCents: number;
  /** An earlier request with the same idempotency key made this grant; nothing moved now. */
  alreadyGranted: boolean;
}

/** A top-up a card paid: what the card paid, what it adds to the balance, and the free credit it earned. */
export interface PaidTopUp {
  amountCents: number;
  topUpAmountCents: number;
  freeCreditCents: number;
  taxCents: number;
  taxRatePercent: string;
  idempotencyKey: string;
}

/**
 * Claims the organisation's month by writing its service charge, open until settled; undefined when
 * an earlier or concurrent run wrote it, and then nothing is written.
 */
export async function openMonthlyCharge(
  tx: Tx,
  organizationId: string,
  values: Omit<CycleTransactionValues, 'type' | 'status'>,
): Promise<TransactionRow | undefined> {
  return insertCycleTransaction(tx, organizationId, { ...values, type: 'service_charge', status: 'open' });
}

/** The month's trial credit, written with the charge it covers part of. */
export async function creditTrial(
  tx: Tx,
  organizationId: string,
  { billingCycle, amountCents, paidAt }: { billingCycle: string; amountCents: number; paidAt: Date },
): Promise<TransactionRow> {
  const credit = await insertCycleTransaction(tx, organizationId, {
    type: 'service_credit',
    status: 'paid',
    billingCycle,
    amountCents,
    notes: TRIAL_CREDIT_NOTE,
    paidAt,
  });
  if (!credit) throw new Error('the cycle has a service credit without its charge');
  return credit;
}

/**
 * Pays what a charge still owes from the balance down to its minimum, after the credit covering it:
 * the balance movement against the charge and the charge's new status, in the caller's transaction.
 * A charge so paid in full is recorded as paid by the system.
 */
async function payFromBalance(
  tx: Tx,
  organizationId: string,
  charge: Pick<TransactionRow, 'id' | 'invoiceType' | 'amountCents' | 'paymentAmountCents'>,
  {
    creditCents,
    creditTransactionId,
    now,
  }: { creditCents: number; creditTransactionId: number | null; now: Date },
): Promise<ChargeSettlement> {
  const balance = await lockBalance(tx, organizationId);
  const settlement = settleFromBalance({
    chargeCents: charge.amountCents - charge.paymentAmountCents,
    creditCents,
    ...balance,
  });
  if (settlement.paidCents > 0) await moveBalance(tx, organizationId, charge.id, -settlement.paidCents);
  await settleTransaction(tx, organizationId, charge.id, {
    status: settlement.status,
    paymentAmountCents: charge.paymentAmountCents + settlement.paidCents,
    paidAt: settlement.status === 'paid' ? now : null,
    creditTransactionId,
  });
  if (settlement.status === 'paid') {
    const paidWith = settlement.paidCents > 0 ? 'balance' : 'credit';
    const payment = { paidCents: settlement.paidCents, creditCents, paidWith } as const;
    await recordChargePaid(tx, organizationId, charge, payment, SYSTEM_AUDIT_CONTEXT);
  }
  return settlement;
}

/**
 * Pays a month's PAYG charge from the balance; money still due with the balance at its minimum makes
 * the account inactive for billing, owing its super-admins a notice of that charge.
 */
export async function payMonthlyCharge(
  tx: Tx,
  organizationId: string,
  charge: TransactionRow,
  options: { creditCents: number; creditTransactionId: number | null; now: Date },
): Promise<{ settlement: ChargeSettlement; becameInactive: boolean }> {
  const settlement = await payFromBalance(tx, organizationId, charge, options);
  const becameInactive =
    settlement.accountBecomesInactive &&
    (await changeAccountStatus(tx, organizationId, () => markAccountInactive(tx, organizationId, charge.id), {
      cause: 'balance_exhausted',
      context: SYSTEM_AUDIT_CONTEXT,
    }));
  return { settlement, becameInactive };
}

/**
 * Pays the organisation's open service charges, oldest first, from its balance down to the minimum:
 * what a top-up makes possible. Each payment is a balance movement against the charge it pays.
 */
async function payOpenChargesFromBalance(tx: Tx, organizationId: string, now: Date) {
  for (const charge of await lockOpenCharges(tx, organizationId)) {
    const creditCents = charge.creditTransactionId
      ? await findCreditAmount(tx, organizationId, charge.creditTransactionId)
      : 0;
    const { status } = await payFromBalance(tx, organizationId, charge, {
      creditCents,
      creditTransactionId: charge.creditTransactionId,
      now,
    });
    if (status !== 'paid') break;
  }
}

/**
 * Ends a card payment of a charge as paid with what the card paid, and records the charge paid by
 * the card (`card`: its brand and last four digits) in the caller's transaction.
 */
export async function payChargeByCard(
  tx: Tx,
  organizationId: string,
  transactionId: number,
  payment: { paidCents: number; paidAt: Date; card: string },
  context: AuditContext,
) {
  const paid = await finishTransactionPayment(tx, organizationId, transactionId, payment);
  if (paid) {
    const { paidCents, card } = payment;
    await recordChargePaid(tx, organizationId, paid, { paidCents, paidWith: 'card', card }, context);
  }
}

/**
 * Writes a top-up a card paid, with the free credit it earned, raises the balance by the amount
 * topped up (what the card paid before tax, and the free credit) and pays the open charges from it;
 * records the top-up (`card`: its brand and last four digits) and answers its transaction id.
 */
export async function recordTopUp(
  tx: Tx,
  organizationId: string,
  topUp: PaidTopUp,
  { paidAt, card, context }: { paidAt: Date; card: string; context: AuditContext },
) {
  await lockBalance(tx, organizationId);
  const credit =
    topUp.freeCreditCents > 0
      ? await insertPaidTransaction(tx, organizationId, {
          type: 'service_credit',
          amountCents: topUp.freeCreditCents,
          paymentAmountCents: 0,
          notes: FREE_CREDIT_NOTE,
          idempotencyKey: `${topUp.idempotencyKey}:free-credit`,
          paidAt,
        })
      : undefined;
  const row = await insertPaidTransaction(tx, organizationId, {
    type: 'topup',
    amountCents: topUp.amountCents,
    paymentAmountCents: topUp.amountCents,
    taxAmountCents: topUp.taxCents,
    taxRatePercent: topUp.taxRatePercent,
    creditTransactionId: credit?.id ?? null,
    notes: '',
    idempotencyKey: topUp.idempotencyKey,
    paidAt,
  });
  await moveBalance(tx, organizationId, row.id, topUp.topUpAmountCents - topUp.freeCreditCents);
  if (credit) await moveBalance(tx, organizationId, credit.id, topUp.freeCreditCents);
  await record(tx, {
    organizationId,
    action: 'billing.top_up',
    target: transactionTarget(row),
    changes: {
      amount: { after: auditAmount(topUp.topUpAmountCents) },
      currency: { after: 'USD' },
      ...(topUp.freeCreditCents > 0 && { freeCredit: { after: auditAmount(topUp.freeCreditCents) } }),
      charged: { after: auditAmount(topUp.amountCents) },
      card: { after: card },
    },
    context,
  });
  await payOpenChargesFromBalance(tx, organizationId, paidAt);
  return row.id;
}

/**
 * Sets an account inactive for billing active once nothing is due, within the caller's database
 * transaction (which holds the organisation's row lock): a payment's settlement, or a settled debt.
 * An account an operator suspended stays so, whatever is paid (only an operator lifts it).
 */
export async function activateWhenNothingDue(tx: Tx, organizationId: string): Promise<boolean> {
  if ((await findAccount(tx, organizationId))?.inactiveReason !== 'billing') return false;
  if (await hasOpenCharges(tx, organizationId)) return false;
  return changeAccountStatus(tx, organizationId, () => markAccountActive(tx, organizationId, 'billing'), {
    cause: 'nothing_due',
    context: SYSTEM_AUDIT_CONTEXT,
  });
}

/**
 * Flat-rate invoices open for the grace period make their accounts inactive for billing, each owing
 * its super-admins a notice of the invoice; each account in a database transaction of its own.
 */
export async function inactivateForOverdueInvoices(db: Db, now: Date) {
  const issuedBefore = new Date(now.getTime() - GRACE_DAYS * DAY_MS);
  for (const { organizationId, transactionId } of await listOverdueFlatRateInvoices(db, issuedBefore)) {
    await db.transaction((tx) =>
      changeAccountStatus(tx, organizationId, () => markAccountInactive(tx, organizationId, transactionId), {
        cause: 'unpaid_invoice',
        context: SYSTEM_AUDIT_CONTEXT,
      }),
    );
  }
}

/** A miscellaneous charge as raised: its transaction, and whether an earlier request raised it. */
export interface MiscellaneousCharge {
  transaction: TransactionRow;
  /** An earlier request with the same idempotency key raised this charge; nothing was written now. */
  alreadyCreated: boolean;
}

export interface LedgerDeps {
  db: Db;
  jobQueue: JobQueue;
}

/** The ledger's operations that open their own database transaction or send a job. */
export function ledgerService({ db, jobQueue }: LedgerDeps) {
  return {
    /**
     * Raises an organisation's prepaid balance by credit an operator grants: the service credit and
     * the balance movement it causes are written in one database transaction, so neither exists
     * without the other, with the grant's audit entry. Money still due stays due: settling it is the
     * payment's work. Repeated with its idempotency key (a retry after a lost answer), it answers the
     * grant made and records nothing more.
     */
    async grantCredit(
      organizationId: string,
      {
        amountCents,
        note,
        idempotencyKey,
        now = new Date(),
        context,
      }: { amountCents: number; note: string; idempotencyKey?: string; now?: Date; context: AuditContext },
    ): Promise<CreditGrant> {
      return db.transaction(async (tx) => {
        // The row lock orders this grant with a billing run paying from the same balance, and a
        // repeat of it after this one.
        const balance = await lockBalance(tx, organizationId);
        const credit = await insertOperatorTransaction(tx, organizationId, {
          type: 'service_credit',
          status: 'paid',
          amountCents,
          notes: note,
          paidAt: now,
          idempotencyKey: idempotencyKey ?? null,
        });
        if (credit) {
          const balanceCents = await moveBalance(tx, organizationId, credit.id, amountCents);
          await record(tx, {
            organizationId,
            action: 'operator.credit_granted',
            target: transactionTarget(credit),
            changes: {
              amount: { after: auditAmount(amountCents) },
              currency: { after: 'USD' },
              note: { after: note },
              balance: { before: auditAmount(balance.balanceCents), after: auditAmount(balanceCents) },
            },
            context,
          });
          return { transactionId: credit.id, amountCents, balanceCents, alreadyGranted: false };
        }
        const earlier = idempotencyKey
          ? await findTransaction(tx, organizationId, { idempotencyKey })
          : undefined;
        if (
          earlier?.type !== 'service_credit' ||
          earlier.amountCents !== amountCents ||
          earlier.notes !== note
        ) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', { field: 'idempotencyKey' });
        }
        return {
          transactionId: earlier.id,
          amountCents,
          balanceCents: balance.balanceCents,
          alreadyGranted: true,
        };
      });
    },

    /**
     * Opens a miscellaneous charge an operator raises (decision 040): a transaction of type `other`,
     * open until paid by card, its tax worked out by the caller. It moves no balance and leaves the
     * account status alone; its audit entry is written with it. Repeated with its idempotency key (a
     * retry after a lost answer), it answers the charge raised and records nothing more; the key with
     * another amount or notes is refused.
     */
    async openMiscellaneousCharge(
      organizationId: string,
      charge: { amountCents: number; taxAmountCents: number; taxRatePercent: string; notes: string },
      { idempotencyKey, context }: { idempotencyKey?: string; context: AuditContext },
    ): Promise<MiscellaneousCharge> {
      return db.transaction(async (tx) => {
        const opened = await insertOperatorTransaction(tx, organizationId, {
          type: 'other',
          status: 'open',
          ...charge,
          idempotencyKey: idempotencyKey ?? null,
        });
        if (opened) {
          await record(tx, {
            organizationId,
            action: 'operator.charge_raised',
            target: transactionTarget(opened),
            changes: {
              amount: { after: auditAmount(charge.amountCents - charge.taxAmountCents) },
              tax: { after: auditAmount(charge.taxAmountCents) },
              total: { after: auditAmount(charge.amountCents) },
              currency: { after: 'USD' },
              notes: { after: charge.notes },
            },
            context,
          });
          return { transaction: opened, alreadyCreated: false };
        }
        const earlier = idempotencyKey
          ? await findTransaction(tx, organizationId, { idempotencyKey })
          : undefined;
        // The amount before tax is what the operator typed; the tax may have been worked out at
        // another rate since.
        if (
          earlier?.type !== 'other' ||
          earlier.amountCents - earlier.taxAmountCents !== charge.amountCents - charge.taxAmountCents ||
          earlier.notes !== charge.notes
        ) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', { field: 'idempotencyKey' });
        }
        return { transaction: earlier, alreadyCreated: true };
      });
    },

    /**
     * Voids a miscellaneous charge an operator raised by mistake (decision 040, "Voiding"): open →
     * voided, with its audit entry, so it is no longer due and no card can pay it. A payment that
     * claimed it first keeps it (processing, then paid or open again); a paid one stands. Repeated,
     * it answers the charge voided and records nothing more.
     */
    async voidMiscellaneousCharge(
      organizationId: string,
      transactionId: number,
      { reason, context }: { reason: string; context: AuditContext },
    ): Promise<{ transaction: TransactionRow; alreadyVoided: boolean }> {
      return db.transaction(async (tx) => {
        const voided = await voidOpenMiscellaneousCharge(tx, organizationId, transactionId);
        if (voided) {
          await record(tx, {
            organizationId,
            action: 'operator.charge_voided',
            target: transactionTarget(voided),
            changes: {
              status: { before: 'open', after: 'voided' },
              total: { before: auditAmount(voided.amountCents) },
              reason: { after: reason },
            },
            context,
          });
          return { transaction: voided, alreadyVoided: false };
        }
        const found = await findTransaction(tx, organizationId, transactionId);
        if (!found) throw new AppError('NOT_FOUND', { field: 'transactionId' });
        if (found.type === 'other' && found.status === 'voided') {
          return { transaction: found, alreadyVoided: true };
        }
        throw new AppError('TRANSACTION_NOT_VOIDABLE', { field: 'transactionId' });
      });
    },

    /**
     * Once nothing is due, sets the account inactive for billing active and reactivates its
     * applications at once through a job; false while a charge is still open, or the account is not
     * inactive for billing (an operator's suspension stays).
     */
    async reactivateWhenSettled(organizationId: string): Promise<boolean> {
      const reactivated = await db.transaction(async (tx) => {
        await lockBalance(tx, organizationId);
        return activateWhenNothingDue(tx, organizationId);
      });
      if (reactivated) await reactivateApplicationsSoon(jobQueue, organizationId);
      return reactivated;
    },

    /** After a settlement made the account active: its applications come back through a job. */
    async accountReactivated(organizationId: string) {
      await reactivateApplicationsSoon(jobQueue, organizationId);
    },

    /**
     * The operator's word on the account status. Inactive is a suspension (reason operator), also
     * over billing inactivity, which payments and new cards do not lift. Active lifts either reason,
     * and the account gets back the applications the system deactivated while it was inactive,
     * through the same job a settled debt sends. A change is recorded as the operator's; a status
     * the account has already (a suspension repeated) records nothing.
     */
    async setStatusByOperator(organizationId: string, status: 'active' | 'inactive', context: AuditContext) {
      const madeActive = await db.transaction((tx) =>
        changeAccountStatus(
          tx,
          organizationId,
          () =>
            status === 'inactive'
              ? suspendAccount(tx, organizationId)
              : markAccountActive(tx, organizationId),
          { cause: 'operator', context },
        ),
      );
      if (status === 'active' && madeActive) await reactivateApplicationsSoon(jobQueue, organizationId);
    },
  };
}

export type LedgerService = ReturnType<typeof ledgerService>;
