import {
  DEFAULT_TOP_UP_AMOUNT,
  MAX_TOP_UP_AMOUNT,
  MIN_TOP_UP_AMOUNT,
  padTransactionId,
  type ErrorCode,
  type TopUpSummary,
} from '@portal/contracts';
import { z } from 'zod';
import {
  ApiError,
  CODE_WORDING,
  errorText,
  isNetworkError,
  isToastedNetworkFailure,
} from '../../lib/api-error';
import type { TranslationKey, TranslationValues } from '../../lib/i18n';
import { PAYMENT_PARAM, TOP_UP_PARAM } from './payment-return';

const key = (k: TranslationKey) => k;

/**
 * What /payment/:sub/:type is asked to do (§2): top up the balance (the amount the query proposes,
 * default 1000), pay transaction `id` (the spec's types `invoice` and `misc`, decision 040), or
 * nothing it can do: unknown types, and `invoice` or `misc` without an id (decision 020: what is
 * charged always comes from the server's ledger, never from the address's amount).
 */
export type PaymentPageRequest =
  | { type: 'top-up'; amount: number }
  | { type: 'transaction'; transactionId: string }
  | { type: 'unavailable' };

const hasCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

export const TopUpFormSchema = z.object({
  amount: z
    .number({ error: key('payment.amount.required') })
    .min(MIN_TOP_UP_AMOUNT, key('payment.amount.min'))
    .max(MAX_TOP_UP_AMOUNT, key('payment.amount.max'))
    .refine(hasCents, key('payment.amount.decimals')),
});
export type TopUpForm = z.infer<typeof TopUpFormSchema>;

/** The amount the form starts with: the query's when it is one the form takes, else 1000 (§9). */
export function proposedTopUpAmount(query: string | null): number {
  const amount = query === null || query.trim() === '' ? NaN : Number(query);
  return TopUpFormSchema.safeParse({ amount }).success ? amount : DEFAULT_TOP_UP_AMOUNT;
}

export function paymentPageRequestOf(type: string | undefined, search: URLSearchParams): PaymentPageRequest {
  if (type === 'top-up') return { type, amount: proposedTopUpAmount(search.get('amount')) };
  const id = search.get('id')?.trim() ?? '';
  if ((type === 'invoice' || type === 'misc') && /^\d{1,18}$/.test(id))
    return { type: 'transaction', transactionId: padTransactionId(id) };
  return { type: 'unavailable' };
}

export interface SummaryLine {
  label: TranslationKey;
  values?: TranslationValues;
  /** USD; a deduction is negative. */
  amount: number;
  total?: boolean;
}

/**
 * The top-up's order summary as the page lists it (§5): amount, the free credit taken off (when
 * the organisation's top-ups earn any), subtotal, tax at the country's rate, total.
 */
export function topUpSummaryLines(
  summary: TopUpSummary,
  { taxRatePercent, freeCreditEnabled }: { taxRatePercent: number; freeCreditEnabled: boolean },
): SummaryLine[] {
  const usd = (cents: number) => cents / 100;
  return [
    { label: 'payment.summary.amount', amount: usd(summary.amountCents) },
    ...(freeCreditEnabled
      ? [
          {
            label: key('payment.summary.freeCredit'),
            amount: summary.freeCreditCents === 0 ? 0 : -usd(summary.freeCreditCents),
          },
        ]
      : []),
    { label: 'payment.summary.subtotal', amount: usd(summary.subtotalCents) },
    { label: 'payment.summary.tax', values: { percentage: taxRatePercent }, amount: usd(summary.taxCents) },
    { label: 'payment.summary.total', amount: usd(summary.totalCents), total: true },
  ];
}

/**
 * Failures after which the page stays, says why, and the user may try again: the card refused
 * (another card may be taken), the request refused, the payment service not reachable (later), too
 * many card attempts (the answer says how long to wait; nothing was charged).
 */
const TRY_AGAIN: readonly string[] = [
  'CARD_NOT_SUPPORTED',
  'CARD_DECLINED',
  'CARD_INSUFFICIENT_FUNDS',
  'CARD_EXPIRED',
  'CARD_TOKEN_INVALID',
  'CARD_AUTHENTICATION_REQUIRED',
  'VALIDATION_ERROR',
  'PAYMENT_GATEWAY_UNAVAILABLE',
  'RATE_LIMITED',
] satisfies readonly ErrorCode[];

/**
 * How a failed charge ends:
 * - 'retry': the card or the request was refused, or the payment service was not reachable, or
 *   too many cards were tried; the page says why and stays.
 * - 'unconfirmed': no answer, or the server could not confirm the charge: whether the card was
 *   charged is not known yet, so the page says to check billing and offers no second payment.
 * - 'other': anything else; a transaction's payment returns to billing with success=false (§2).
 */
export type PaymentFailure = 'retry' | 'unconfirmed' | 'other';

export function paymentFailureOf(error: unknown): PaymentFailure {
  if (isNetworkError(error)) return 'unconfirmed';
  if (!(error instanceof ApiError)) return 'other';
  if (error.code === 'PAYMENT_NOT_CONFIRMED') return 'unconfirmed';
  return TRY_AGAIN.includes(error.code) ? 'retry' : 'other';
}

/**
 * What a failed charge shows (§8 top-up failure): the portal's wording of its code when it has one
 * (a card it does not take), else the first message of the answer (a field's, when the answer lists
 * them); nothing for a network failure already toasted.
 */
export function paymentFailureText(error: unknown): string | null {
  if (!error || isToastedNetworkFailure(error)) return null;
  if (error instanceof ApiError && !(error.code in CODE_WORDING))
    return error.fields[0]?.message ?? errorText(error);
  return errorText(error);
}

const billingPath = (sub: string, query: Record<string, string>) =>
  `/billing/${encodeURIComponent(sub)}?${new URLSearchParams(query).toString()}`;

/** Where a top-up leads (§2): the billing list, which shows its success modal. */
export function topUpReturnPath(sub: string, amount: number): string {
  return billingPath(sub, { [TOP_UP_PARAM]: String(amount) });
}

/** Where a transaction's payment leads (§2): the billing list, with a toast saying how it went. */
export function transactionPaymentReturnPath(sub: string, succeeded: boolean): string {
  return billingPath(sub, { [PAYMENT_PARAM]: String(succeeded) });
}
