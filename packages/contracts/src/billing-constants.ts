/**
 * Billing values shared by the web app and the API, without zod, like constants.ts: pages that only
 * label transactions need these lists, not the schemas. The page size, the id padding and the trial
 * length are in constants.ts (TRANSACTION_PAGE_SIZE, TRANSACTION_ID_PADDING, TRIAL_LENGTH_DAYS).
 */
import { TRANSACTION_ID_PADDING, type PlanKey } from './constants.ts';

export const TRANSACTION_TYPES = ['other', 'topup', 'service_charge', 'service_credit'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_STATUSES = ['open', 'pending', 'paid', 'processing', 'voided', 'cancelled'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** The only status with a pay-by-card action (§4). */
export const PAYABLE_TRANSACTION_STATUS: TransactionStatus = 'open';

/** Invoices are MAU-based (PAYG service charges) or component-based (flat-rate licence invoices). */
export const INVOICE_TYPES = ['mau_based', 'component_based'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

export const TRANSACTION_SORTS = ['lastCreated', 'firstCreated'] as const;
export type TransactionSort = (typeof TRANSACTION_SORTS)[number];

/** The most suggestions one autocomplete search answers. */
export const TRANSACTION_SEARCH_LIMIT = 10;
/** A term longer than any transaction id can match nothing. */
export const TRANSACTION_SEARCH_TERM_MAX_LENGTH = 32;

/** A transaction id as answered: its sequence number, zero-padded to at least 9 digits (§9). */
export const TRANSACTION_ID_PATTERN = /^\d{9,}$/;

/** A month of billing, as `YYYY-MM` (UTC). */
export const BILLING_CYCLE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * Price per monthly active user in millionths of a dollar (§3: 0.06, 0.09, 0.14 USD), as integers so
 * charges are computed without binary fractions; the plan catalogue shows them too. The only place
 * the prices are written.
 */
export const PLAN_PRICES_MICRO_USD: Record<PlanKey, number> = {
  basic: 60_000,
  advance: 90_000,
  max: 140_000,
};

export const USAGE_TYPES = ['mau'] as const;
export type UsageType = (typeof USAGE_TYPES)[number];

/** The months the monthly usage answers: the current month (UTC) and the 11 before it. */
export const MONTHLY_USAGE_MONTHS = 12;

/** A transaction id as shown and answered (§9: zero-padded to 9 digits), from its sequence number or its text. */
export function padTransactionId(id: number | string): string {
  if (typeof id === 'number' && (!Number.isSafeInteger(id) || id < 1))
    throw new RangeError('a transaction id is a number ≥ 1');
  return String(id).padStart(TRANSACTION_ID_PADDING, '0');
}
