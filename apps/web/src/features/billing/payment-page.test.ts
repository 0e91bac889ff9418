import { topUpSummary } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError, CODE_WORDING, NETWORK_ERROR } from '../../lib/api-error';
import { registerToastContainer } from '../../lib/toasts';
import { enPayments } from '../../locales/en-payments';
import {
  transactionPaymentReturnPath,
  paymentFailureOf,
  paymentFailureText,
  paymentPageRequestOf,
  proposedTopUpAmount,
  topUpReturnPath,
  topUpSummaryLines,
  TopUpFormSchema,
} from './payment-page';
import { paymentReturnOf } from './payment-return';

const query = (text: string) => new URLSearchParams(text);

describe('paymentPageRequestOf (§2 /payment/:sub/:type)', () => {
  it('tops up the amount the query proposes, 1000 by default', () => {
    expect(paymentPageRequestOf('top-up', query(''))).toEqual({ type: 'top-up', amount: 1000 });
    expect(paymentPageRequestOf('top-up', query('amount=250.5'))).toEqual({ type: 'top-up', amount: 250.5 });
  });

  it('pays the transaction the query names, padded to 9 digits', () => {
    expect(paymentPageRequestOf('invoice', query('id=42&amount=100.60'))).toEqual({
      type: 'transaction',
      transactionId: '000000042',
    });
    expect(paymentPageRequestOf('invoice', query('id=000000042'))).toEqual({
      type: 'transaction',
      transactionId: '000000042',
    });
  });

  it('pays the miscellaneous charge the misc type names, whatever amount the address says', () => {
    expect(paymentPageRequestOf('misc', query('id=42&amount=10'))).toEqual({
      type: 'transaction',
      transactionId: '000000042',
    });
  });

  it('has nothing to do for an unknown type, or the invoice or misc type without a proper id', () => {
    expect(paymentPageRequestOf('misc', query('amount=10'))).toEqual({ type: 'unavailable' });
    expect(paymentPageRequestOf('misc', query('id=4.2'))).toEqual({ type: 'unavailable' });
    expect(paymentPageRequestOf('donate', query(''))).toEqual({ type: 'unavailable' });
    expect(paymentPageRequestOf(undefined, query(''))).toEqual({ type: 'unavailable' });
    expect(paymentPageRequestOf('invoice', query(''))).toEqual({ type: 'unavailable' });
    expect(paymentPageRequestOf('invoice', query('id=../x'))).toEqual({ type: 'unavailable' });
  });
});

describe('the top-up amount (§5: a positive number of at least 1)', () => {
  it('proposes the default for an amount the form would refuse', () => {
    for (const amount of ['', ' ', 'lots', '0.5', '-10', '12.345', '2000000', 'Infinity'])
      expect(proposedTopUpAmount(amount)).toBe(1000);
    expect(proposedTopUpAmount(null)).toBe(1000);
    expect(proposedTopUpAmount('1')).toBe(1);
  });

  it('refuses what is below 1, above the ceiling, or has more than 2 decimals', () => {
    const messageOf = (amount: number) => {
      const result = TopUpFormSchema.safeParse({ amount });
      return result.success ? null : result.error.issues[0]?.message;
    };
    expect(messageOf(NaN)).toBe('payment.amount.required');
    expect(messageOf(0.99)).toBe('payment.amount.min');
    expect(messageOf(1_000_000.01)).toBe('payment.amount.max');
    expect(messageOf(10.005)).toBe('payment.amount.decimals');
    expect(messageOf(1)).toBeNull();
    expect(messageOf(19.99)).toBeNull();
  });
});

describe('topUpSummaryLines', () => {
  const tiers = [
    { start: 1000, credit: 50 },
    { start: 5000, credit: 500 },
  ];

  it('lists amount, free credit taken off, subtotal, tax at the rate and total', () => {
    const summary = topUpSummary({ amount: 1000, tiers, freeCreditEnabled: true, taxRatePercent: 9 });
    expect(topUpSummaryLines(summary, { taxRatePercent: 9, freeCreditEnabled: true })).toEqual([
      { label: 'payment.summary.amount', amount: 1000 },
      { label: 'payment.summary.freeCredit', amount: -50 },
      { label: 'payment.summary.subtotal', amount: 950 },
      { label: 'payment.summary.tax', values: { percentage: 9 }, amount: 85.5 },
      { label: 'payment.summary.total', amount: 1035.5, total: true },
    ]);
  });

  it('lists no free credit for an organisation whose top-ups earn none', () => {
    const summary = topUpSummary({ amount: 10.01, tiers, freeCreditEnabled: false, taxRatePercent: 7.25 });
    const lines = topUpSummaryLines(summary, { taxRatePercent: 7.25, freeCreditEnabled: false });
    expect(lines.map((line) => line.label)).not.toContain('payment.summary.freeCredit');
    // Below the first tier the free credit is none, not a negative zero.
    const belowTiers = topUpSummary({ amount: 999, tiers, freeCreditEnabled: true, taxRatePercent: 0 });
    expect(topUpSummaryLines(belowTiers, { taxRatePercent: 0, freeCreditEnabled: true })[1]).toEqual({
      label: 'payment.summary.freeCredit',
      amount: 0,
    });
    // 10.01 × 7.25 % = 0.7257…, rounded up to the cent.
    expect(lines.find((line) => line.label === 'payment.summary.tax')?.amount).toBe(0.73);
    expect(lines.at(-1)?.amount).toBe(10.74);
  });
});

describe('paymentFailureOf', () => {
  const refusal = (code: string, status = 402) =>
    new ApiError({ status, code, message: 'x', path: '/api/v1/accounts/topup' });

  it('keeps the page for a refused card or request or an unreachable payment service, to try again', () => {
    for (const code of [
      'CARD_NOT_SUPPORTED',
      'CARD_DECLINED',
      'CARD_INSUFFICIENT_FUNDS',
      'CARD_EXPIRED',
      'CARD_TOKEN_INVALID',
      'VALIDATION_ERROR',
      'PAYMENT_GATEWAY_UNAVAILABLE',
    ])
      expect(paymentFailureOf(refusal(code))).toBe('retry');
  });

  it('keeps the page when too many cards were tried, saying how long to wait (paying a transaction does not return to billing)', () => {
    const limited = new ApiError({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many card attempts. Please wait 10 minutes and try again.',
      path: '/api/v1/transactions/000000042/pay',
    });
    expect(paymentFailureOf(limited)).toBe('retry');
    expect(paymentFailureText(limited)).toBe('Too many card attempts. Please wait 10 minutes and try again.');
  });

  it('does not know the outcome without an answer or when the server could not confirm it', () => {
    expect(paymentFailureOf(refusal('PAYMENT_NOT_CONFIRMED', 503))).toBe('unconfirmed');
    expect(
      paymentFailureOf(
        new ApiError({ status: 0, code: NETWORK_ERROR, message: 'common.networkError', path: '/' }),
      ),
    ).toBe('unconfirmed');
  });

  it('calls anything else another failure', () => {
    expect(paymentFailureOf(refusal('TRANSACTION_NOT_PAYABLE', 409))).toBe('other');
    expect(paymentFailureOf(refusal('INTERNAL_ERROR', 500))).toBe('other');
    expect(paymentFailureOf(new TypeError('x'))).toBe('other');
  });
});

describe('where a payment returns to (§2)', () => {
  it('a top-up to the list with its amount, which the list reads back for its modal', () => {
    expect(topUpReturnPath('asc', 1000)).toBe('/billing/asc?successTopUp=1000');
    expect(paymentReturnOf(new URL(topUpReturnPath('asc', 12.5), 'http://x').searchParams).topUpAmount).toBe(
      12.5,
    );
  });

  it('paying a transaction to the list with success true or false', () => {
    expect(transactionPaymentReturnPath('asc', true)).toBe('/billing/asc?success=true');
    expect(transactionPaymentReturnPath('asc', false)).toBe('/billing/asc?success=false');
  });
});

describe('paymentFailureText (§8)', () => {
  const networkFailure = () =>
    new ApiError({
      status: 0,
      code: NETWORK_ERROR,
      message: 'common.networkError',
      path: '/api/v1/accounts/topup',
    });

  it('shows the first error message of the answer', () => {
    const declined = new ApiError({
      status: 402,
      code: 'CARD_DECLINED',
      message: 'Your card was declined.',
      path: '/api/v1/accounts/topup',
    });
    expect(paymentFailureText(declined)).toBe('Your card was declined.');
    const invalid = new ApiError({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Some fields are not valid.',
      fields: [
        { field: 'amount', message: 'must be at least 1' },
        { field: 'token', message: 'Required' },
      ],
      path: '/api/v1/accounts/topup',
    });
    expect(paymentFailureText(invalid)).toBe('must be at least 1');
  });

  it("shows a card the portal does not take in the portal's words, naming the brands it takes", () => {
    // The API client puts the wording of a code in CODE_WORDING in place of the server's text.
    expect(CODE_WORDING.CARD_NOT_SUPPORTED).toBe('payment.card.notSupported');
    expect(enPayments['payment.card.notSupported']).toBe(
      'Your card is not supported. We accept VISA, Mastercard, AMEX and Discover cards.',
    );
    const notSupported = new ApiError({
      status: 422,
      code: 'CARD_NOT_SUPPORTED',
      message: 'payment.card.notSupported',
      fields: [{ field: 'token', message: 'Your card is not supported.' }],
      path: '/api/v1/accounts/payment-profiles',
    });
    expect(paymentFailureText(notSupported)).toBe('payment.card.notSupported');
  });

  it('shows nothing more for a network failure a toast reported already', () => {
    expect(paymentFailureText(null)).toBeNull();
    expect(paymentFailureText(networkFailure())).toBe('common.networkError');
    const unregister = registerToastContainer();
    expect(paymentFailureText(networkFailure())).toBeNull();
    unregister();
  });
});
