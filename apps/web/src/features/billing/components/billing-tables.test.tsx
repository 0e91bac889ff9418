// @vitest-environment jsdom
import type { MauDetailLine, Transaction } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderSignedInPart } from '../../../components/render-for-test';
import { TRANSACTION_DETAIL_QUERY_KEY } from '../api/get-transaction-detail';
import { InvoiceDetail } from './invoice-detail';
import { TransactionsTable } from './transactions-table';

/*
 * On phones the billing tables stack each row as a card whose values are labelled by their column
 * (a CSS media query, seen in the browser tests' screenshots); these check what the cards are
 * made of: every value but the first names its column, and a row without an action adds no line.
 */
afterEach(cleanup);

function transaction(id: string, overrides: Partial<Transaction> = {}): Transaction {
  return {
    transactionId: id,
    transactionCreatedAt: '2026-01-05T10:00:00.000Z',
    type: 'service_charge',
    status: 'paid',
    amount: 12.34,
    paymentAmount: 12.34,
    taxAmount: 0,
    taxPercentage: 0,
    freeCreditTransactionId: null,
    notes: '',
    invoiceId: `INV-${id}`,
    invoiceType: 'mau_based',
    billingCycle: '2026-01',
    detail: [],
    ...overrides,
  };
}

/** Each body row's cells as [data-label or null, text], beside the header row's texts. */
function cardsOf(table: HTMLElement) {
  const [head, ...rows] = within(table).getAllByRole('row');
  const headers = within(head!)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent);
  const cells = rows.map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => [cell.getAttribute('data-label'), cell.textContent]),
  );
  return { headers, cells };
}

describe('the transactions table', () => {
  it('labels every value of a row but the id by its column, and leaves the action cell of a paid row empty', () => {
    renderSignedInPart(
      <TransactionsTable
        sub="asc"
        transactions={[
          transaction('000000002', { status: 'open', amount: 1234.5, paymentAmount: 0 }),
          transaction('000000001', { type: 'topup', billingCycle: null, invoiceId: null, invoiceType: null }),
        ]}
      />,
    );
    const { headers, cells } = cardsOf(screen.getByRole('table'));
    expect(headers).toEqual([
      'Transaction ID',
      'Date',
      'Type',
      'Billing cycle',
      'Amount',
      'Status',
      'Actions',
    ]);
    expect(cells).toEqual([
      [
        [null, '000000002'],
        ['Date', '05 Jan 2026'],
        ['Type', 'Service charge'],
        ['Billing cycle', '2026-01'],
        ['Amount', '$1,234.50'],
        ['Status', 'Open'],
        [null, 'Pay'],
      ],
      [
        [null, '000000001'],
        ['Date', '05 Jan 2026'],
        ['Type', 'Top-up'],
        ['Billing cycle', '—'],
        ['Amount', '$12.34'],
        ['Status', 'Paid'],
        [null, ''],
      ],
    ]);
    const [, , paid] = screen.getAllByRole('row');
    expect(within(paid!).getAllByRole('cell').at(-1)?.childNodes).toHaveLength(0);
    expect(screen.getByRole('link', { name: '000000002' })).toHaveProperty(
      'href',
      expect.stringMatching(/\/billing\/asc\/000000002$/),
    );
    expect(screen.getByRole('button', { name: 'Pay transaction 000000002' })).toBeDefined();
  });
});

describe('the lines of an invoice', () => {
  it('MAU-based: names the table after the invoice and labels plan, users, price per user and amount', () => {
    const served = transaction('000000042', {
      detail: [
        { applicationId: 'app-nebula', name: 'Nebula Chat', invoiceId: 'INV-000000042' },
        { applicationId: 'app-comet', name: 'Comet Live', invoiceId: 'INV-000000042' },
      ],
    });
    const line = { invoiceId: 'INV-000000042', supportPlan: '', MAULicense: 0 };
    const lines: MauDetailLine[] = [
      { ...line, productName: 'Basic', MAUUsage: 100, price: 6, unitPrice: 0.06 },
      { ...line, productName: 'Social Core', MAUUsage: 1_000, price: 90, unitPrice: 0.09 },
    ];
    const queryClient = new QueryClient();
    queryClient.setQueryData([...TRANSACTION_DETAIL_QUERY_KEY, '000000042', 'mau_based'], {
      invoiceType: 'mau_based',
      lines,
    });
    renderSignedInPart(<InvoiceDetail transaction={served} invoiceType="mau_based" />, queryClient);

    const { headers, cells } = cardsOf(screen.getByRole('table', { name: 'Lines of invoice INV-000000042' }));
    expect(headers).toEqual(['Application', 'Plan', 'Monthly active users', 'Price per user', 'Amount']);
    expect(cells).toEqual([
      [
        [null, 'Nebula Chatapp-nebula'],
        ['Plan', 'Basic'],
        ['Monthly active users', '100'],
        ['Price per user', '$0.06'],
        ['Amount', '$6.00'],
      ],
      [
        [null, 'Comet Liveapp-comet'],
        ['Plan', 'Social Core'],
        ['Monthly active users', '1,000'],
        ['Price per user', '$0.09'],
        ['Amount', '$90.00'],
      ],
    ]);
  });

  it('component-based: one table per invoice, its quantity and amount labelled', () => {
    const served = transaction('000000007', { invoiceType: 'component_based' });
    const queryClient = new QueryClient();
    queryClient.setQueryData([...TRANSACTION_DETAIL_QUERY_KEY, '000000007', 'component_based'], {
      invoiceType: 'component_based',
      invoices: [
        {
          invoiceId: 'INV-000000007',
          components: [
            { title: 'Licence fee', quantity: 1, total_amount: 499 },
            { title: 'Monthly active users above the licence', quantity: 2_500, total_amount: 225 },
          ],
        },
      ],
    });
    renderSignedInPart(<InvoiceDetail transaction={served} invoiceType="component_based" />, queryClient);

    const { headers, cells } = cardsOf(screen.getByRole('table', { name: 'Lines of invoice INV-000000007' }));
    expect(headers).toEqual(['Item', 'Quantity', 'Amount']);
    expect(cells).toEqual([
      [
        [null, 'Licence fee'],
        ['Quantity', '1'],
        ['Amount', '$499.00'],
      ],
      [
        [null, 'Monthly active users above the licence'],
        ['Quantity', '2,500'],
        ['Amount', '$225.00'],
      ],
    ]);
  });
});
