import {
  PAYABLE_TRANSACTION_STATUS,
  TRANSACTION_PAGE_SIZE,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type MauDetailLine,
  type Transaction,
  type TransactionApplication,
  type TransactionStatus,
} from '@portal/contracts';
import { PortalError } from '../../lib/api-error';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** An amount as every billing page shows it (§9: USD, 2 decimals): $1,234.50 */
export function formatUsd(amount: number): string {
  return usd.format(amount);
}

/** Paid is the one settled status and is styled as a success; every other status is information. */
export type StatusTone = 'success' | 'info';

export function statusTone(status: TransactionStatus): StatusTone {
  return status === 'paid' ? 'success' : 'info';
}

/** Only an open transaction can be paid by card (§2). */
export function canPayByCard(transaction: Pick<Transaction, 'status'>): boolean {
  return transaction.status === PAYABLE_TRANSACTION_STATUS;
}

/**
 * A charge with a payment summary (what it comes to and what is due): a service charge's invoice,
 * or a miscellaneous charge an operator raised, which has no invoice (decision 040).
 */
export function hasPaymentSummary(transaction: Pick<Transaction, 'type' | 'invoiceType'>): boolean {
  return transaction.invoiceType !== null || transaction.type === 'other';
}

/**
 * Where paying a transaction by card happens (§2 /payment/:sub/:type with id and amount): type
 * `misc` for a miscellaneous charge, `invoice` for a service charge.
 */
export function transactionPaymentPath(
  sub: string,
  { transactionId, type }: Pick<Transaction, 'transactionId' | 'type'>,
  dueAmount: number,
): string {
  const query = new URLSearchParams({ id: transactionId, amount: dueAmount.toFixed(2) });
  return `/payment/${encodeURIComponent(sub)}/${type === 'other' ? 'misc' : 'invoice'}?${query.toString()}`;
}

/** Pagination shows only when there is more than one page (§9: 30 a page). */
export function showsPagination(total: number): boolean {
  return total > TRANSACTION_PAGE_SIZE;
}

export function transactionPageCount(total: number): number {
  return Math.max(1, Math.ceil(total / TRANSACTION_PAGE_SIZE));
}

const knownTypes: ReadonlySet<string> = new Set(TRANSACTION_TYPES);
const knownStatuses: ReadonlySet<string> = new Set(TRANSACTION_STATUSES);

/**
 * The transactions, refused when one has a type or status the page cannot label (§8: the list
 * throws on an unknown type or status), so the page shows its load error rather than a blank label.
 */
export function withKnownLabels<T extends readonly Pick<Transaction, 'type' | 'status'>[]>(
  transactions: T,
): T {
  const unknown = transactions.find(
    (transaction) => !knownTypes.has(transaction.type) || !knownStatuses.has(transaction.status),
  );
  if (unknown)
    throw new PortalError(`Unknown transaction type or status: ${unknown.type}, ${unknown.status}`);
  return transactions;
}

/** A search term worth sending: trimmed, and only when something is left. */
export function searchTermOf(input: string): string | null {
  const term = input.trim();
  return term ? term : null;
}

export interface MauDetailRow extends MauDetailLine {
  /** The billed application's name and id, when the transaction lists it. */
  application: TransactionApplication | null;
}

/**
 * A MAU-based invoice's lines with the application each bills. The API answers both lists in the
 * invoice's line order (every line of a MAU-based invoice is one application), so they pair by position.
 */
export function mauDetailRows(
  lines: readonly MauDetailLine[],
  applications: readonly TransactionApplication[],
): MauDetailRow[] {
  const paired = lines.length === applications.length;
  return lines.map((line, index) => ({
    ...line,
    application: paired ? (applications[index] ?? null) : null,
  }));
}
