import {
  TRANSACTION_STATUSES,
  type MauDetailLine,
  type Transaction,
  padTransactionId,
} from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import {
  canPayByCard,
  formatUsd,
  hasPaymentSummary,
  mauDetailRows,
  searchTermOf,
  showsPagination,
  statusTone,
  transactionPageCount,
  transactionPaymentPath,
  withKnownLabels,
} from './transactions';

describe('formatUsd', () => {
  it.each([
    [0, '$0.00'],
    [1.5, '$1.50'],
    [0.06, '$0.06'],
    [1234.567, '$1,234.57'],
    [-20, '-$20.00'],
  ])('writes %s as %s', (amount, shown) => {
    expect(formatUsd(amount)).toBe(shown);
  });
});

describe('padTransactionId', () => {
  it('pads to 9 digits and leaves a padded or longer id as it is', () => {
    expect(padTransactionId('42')).toBe('000000042');
    expect(padTransactionId('000000042')).toBe('000000042');
    expect(padTransactionId('1234567890')).toBe('1234567890');
  });
});

describe('statusTone and canPayByCard', () => {
  it('styles paid as a success and every other status as information', () => {
    expect(TRANSACTION_STATUSES.map((status) => [status, statusTone(status)])).toEqual([
      ['open', 'info'],
      ['pending', 'info'],
      ['paid', 'success'],
      ['processing', 'info'],
      ['voided', 'info'],
      ['cancelled', 'info'],
    ]);
  });

  it('offers paying by card only for an open transaction', () => {
    expect(TRANSACTION_STATUSES.filter((status) => canPayByCard({ status }))).toEqual(['open']);
  });
});

describe('transactionPaymentPath', () => {
  it('names the transaction and the amount due with 2 decimals', () => {
    expect(transactionPaymentPath('asc', { transactionId: '000000042', type: 'service_charge' }, 12.5)).toBe(
      '/payment/asc/invoice?id=000000042&amount=12.50',
    );
  });

  it('pays a miscellaneous charge on the misc payment page', () => {
    expect(transactionPaymentPath('asc', { transactionId: '000000043', type: 'other' }, 130.8)).toBe(
      '/payment/asc/misc?id=000000043&amount=130.80',
    );
  });
});

describe('hasPaymentSummary', () => {
  it('is true for a service charge with an invoice and a miscellaneous charge, false for a top-up or credit', () => {
    expect(hasPaymentSummary({ type: 'service_charge', invoiceType: 'mau_based' })).toBe(true);
    expect(hasPaymentSummary({ type: 'other', invoiceType: null })).toBe(true);
    expect(hasPaymentSummary({ type: 'topup', invoiceType: null })).toBe(false);
    expect(hasPaymentSummary({ type: 'service_credit', invoiceType: null })).toBe(false);
  });
});

describe('pagination', () => {
  it.each([
    [0, false, 1],
    [30, false, 1],
    [31, true, 2],
    [90, true, 3],
    [91, true, 4],
  ])('with %s transactions shows pagination: %s, over %s pages', (total, shown, pages) => {
    expect(showsPagination(total)).toBe(shown);
    expect(transactionPageCount(total)).toBe(pages);
  });
});

describe('withKnownLabels', () => {
  const known = { type: 'service_charge', status: 'open' } as const;

  it('answers transactions whose type and status all have labels', () => {
    const transactions = [known, { type: 'topup', status: 'paid' }] as const;
    expect(withKnownLabels(transactions)).toBe(transactions);
  });

  it('refuses a list with an unknown type or status', () => {
    const unknownType = { ...known, type: 'refund' } as unknown as Transaction;
    const unknownStatus = { ...known, status: 'disputed' } as unknown as Transaction;
    expect(() => withKnownLabels([known, unknownType])).toThrow(/refund/);
    expect(() => withKnownLabels([unknownStatus])).toThrow(/disputed/);
  });
});

describe('searchTermOf', () => {
  it('trims the input and sends nothing for blanks', () => {
    expect(searchTermOf(' 0000 ')).toBe('0000');
    expect(searchTermOf('   ')).toBeNull();
  });
});

describe('mauDetailRows', () => {
  const line = (price: number): MauDetailLine => ({
    invoiceId: 'INV-000000042',
    productName: 'Basic',
    supportPlan: '',
    MAUUsage: 100,
    MAULicense: 0,
    price,
    unitPrice: 0.06,
  });
  const applications = [
    { applicationId: 'a1', name: 'Nebula', invoiceId: 'INV-000000042' },
    { applicationId: 'a2', name: 'Comet', invoiceId: 'INV-000000042' },
  ];

  it('pairs each line with the application in the same position', () => {
    const rows = mauDetailRows([line(6), line(12)], applications);
    expect(rows.map((row) => [row.price, row.application?.name])).toEqual([
      [6, 'Nebula'],
      [12, 'Comet'],
    ]);
  });

  it('names no application when the two lists do not match', () => {
    expect(mauDetailRows([line(6)], applications).map((row) => row.application)).toEqual([null]);
  });
});
