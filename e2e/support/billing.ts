import type { Locator, Page } from '@playwright/test';
import type {
  ComponentDetail,
  ListTransactionsResponse,
  MauDetailLine,
  PaymentSummary,
  Transaction,
} from '@portal/contracts';

/** §9: the list answers 30 transactions a page. */
export const TRANSACTION_PAGE_SIZE = 30;

/** The transaction list's table on /billing/:sub. */
export function transactionsTable(page: Page): Locator {
  return page.getByRole('table');
}

/** The list's row of one transaction, found by the link its padded id is. */
export function transactionRow(page: Page, transactionId: string): Locator {
  return transactionsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: transactionId, exact: true }) });
}

/**
 * The billing journey (tests/billing/billing-journey.spec.ts) has the operator bill a month for
 * real. What a real ledger is too costly or impossible to bring about for (more than a page of
 * transactions, a paid flat-rate invoice, a load error, a contract type the portal does not know)
 * is tested against answers in the contract's shape, served in place of the portal's.
 */
export function transaction(sequence: number, overrides: Partial<Transaction> = {}): Transaction {
  const transactionId = String(sequence).padStart(9, '0');
  return {
    transactionId,
    transactionCreatedAt: new Date(Date.UTC(2026, 0, 1) + sequence * 86_400_000).toISOString(),
    type: 'service_charge',
    status: 'paid',
    amount: 12.34,
    paymentAmount: 12.34,
    taxAmount: 0,
    taxPercentage: 0,
    freeCreditTransactionId: null,
    notes: '',
    invoiceId: `INV-${transactionId}`,
    invoiceType: 'mau_based',
    billingCycle: '2026-01',
    detail: [],
    ...overrides,
  };
}

/** Serves GET /api/v1/transactions (30 a page, newest or oldest first) and its prefix search from `ledger`. */
export async function serveLedger(page: Page, ledger: readonly Transaction[]) {
  await page.route(/\/api\/v1\/transactions(\?.*)?$/, async (route) => {
    const query = new URL(route.request().url()).searchParams;
    const pageNumber = Number(query.get('page') ?? '1');
    const ordered = query.get('sortBy') === 'firstCreated' ? [...ledger] : [...ledger].reverse();
    const start = (pageNumber - 1) * TRANSACTION_PAGE_SIZE;
    const answer: ListTransactionsResponse = {
      data: ordered.slice(start, start + TRANSACTION_PAGE_SIZE),
      total: ledger.length,
    };
    await route.fulfill({ json: answer });
  });
  await page.route('**/api/v1/transactions/search', async (route) => {
    const { term } = route.request().postDataJSON() as { term: string };
    await route.fulfill({ json: ledger.filter((entry) => entry.transactionId.startsWith(term)) });
  });
}

/** Serves GET /api/v1/transactions/{id}/payment-summary of an invoice with `dueAmount` still due. */
export async function servePaymentSummary(
  page: Page,
  id: string,
  dueAmount: number,
  overrides: Partial<PaymentSummary> = {},
) {
  const summary: PaymentSummary = {
    invoiceId: `INV-${id}`,
    subTotal: dueAmount,
    discountAmount: 0,
    taxes: [],
    totalAmount: dueAmount,
    creditAmount: 0,
    paidAmount: 0,
    dueAmount,
    ...overrides,
  };
  await page.route(`**/api/v1/transactions/${id}/payment-summary`, (route) =>
    route.fulfill({ json: summary }),
  );
}

/** Serves GET /api/v1/transactions/{id} and the lines of its invoice (details/{invoiceType}). */
export async function serveTransaction(
  page: Page,
  served: Transaction,
  lines: MauDetailLine[] | ComponentDetail[],
) {
  await page.route(`**/api/v1/transactions/${served.transactionId}`, (route) =>
    route.fulfill({ json: served }),
  );
  await page.route(`**/api/v1/transactions/${served.transactionId}/details/${served.invoiceType}`, (route) =>
    route.fulfill({ json: lines }),
  );
}
