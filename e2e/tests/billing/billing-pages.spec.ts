import path from 'node:path';
import type { Page } from '@playwright/test';
import { E2E_DIR } from '../../harness/harness-state.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import {
  serveLedger,
  servePaymentSummary,
  serveTransaction,
  transaction,
  transactionRow as rowOf,
  transactionsTable,
} from '../../support/billing.ts';
import { Applications } from '../../support/applications.ts';
import { expect, test } from '../../support/fixtures.ts';
import { joinAs, Members } from '../../support/members.ts';

test.describe('billing: the transaction list', () => {
  test('an organisation without transactions sees the empty state, searches in vain, and the list is accessible', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'billing-empty' });
    await page.goto('/billing/asc');
    await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
    await expect(page.getByText('You have no transactions yet.', { exact: false })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Transaction pages' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, '/billing/asc without transactions');

    const search = page.getByRole('combobox', { name: 'Search transactions' });
    const searched = page.waitForRequest('**/api/v1/transactions/search');
    await search.fill('0000');
    expect((await searched).postDataJSON()).toEqual({ term: '0000' });
    await expect(page.getByRole('status').filter({ hasText: 'No transactions match “0000”.' })).toBeVisible();
  });

  test('a role without VIEW_BILLING is sent to /forbidden', async ({ page, users, browser, baseURL }) => {
    await users.signedIn({ label: 'billing-owner' });
    const admin = await joinAs(browser, baseURL!, new Members(page.request, baseURL!), 'portal.admin');
    try {
      await admin.page.goto('/billing/asc');
      await expect(admin.page).toHaveURL(/\/forbidden$/);
      await expect(admin.page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
    } finally {
      await admin.context.close();
    }
  });

  test('a ledger of 31: labels, USD amounts, pay only when open, 30 a page, sort, search', async ({
    page,
    users,
  }) => {
    const ledger = Array.from({ length: 31 }, (_, index) => transaction(index + 1));
    ledger[30] = transaction(31, { status: 'open', amount: 1234.5, paymentAmount: 0 });
    ledger[29] = transaction(30, {
      type: 'topup',
      status: 'pending',
      amount: 50,
      invoiceId: null,
      invoiceType: null,
      billingCycle: null,
    });
    await users.signedIn({ label: 'billing-ledger' });
    await serveLedger(page, ledger);
    await servePaymentSummary(page, '000000031', 1000.25);
    await page.goto('/billing/asc');

    const newest = rowOf(page, '000000031');
    await expect(newest).toContainText('Service charge');
    await expect(newest).toContainText('$1,234.50');
    await expect(newest).toContainText('Open');
    await expect(rowOf(page, '000000030')).toContainText('Top-up');
    await expect(rowOf(page, '000000030')).toContainText('Pending');
    await expect(rowOf(page, '000000029')).toContainText('Paid');
    await expect(rowOf(page, '000000029')).toContainText('$12.34');
    await expect(transactionsTable(page).getByRole('row')).toHaveCount(31);
    await expect(transactionsTable(page).getByRole('button', { name: /^Pay transaction/ })).toHaveCount(1);
    await expectNoSeriousA11yViolations(page, '/billing/asc with transactions');

    const pages = page.getByRole('navigation', { name: 'Transaction pages' });
    await pages.getByRole('button', { name: 'Page 2' }).click();
    await expect(transactionsTable(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, '000000001')).toBeVisible();

    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Oldest first' }).click();
    await expect(transactionsTable(page).getByRole('row').nth(1)).toContainText('000000001');
    await expect(pages.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    await page.getByRole('combobox', { name: 'Search transactions' }).fill('00000003');
    await expect(transactionsTable(page).getByRole('row')).toHaveCount(3);
    await page.getByRole('option', { name: '000000031' }).click();
    await expect(page).toHaveURL(/\/billing\/asc\/000000031$/);

    await page.goto('/billing/asc');
    await rowOf(page, '000000031').getByRole('button', { name: 'Pay transaction 000000031' }).click();
    await expect(page).toHaveURL(/\/payment\/asc\/invoice\?id=000000031&amount=1000\.25$/);
  });

  test('a list that cannot be loaded says so', async ({ page, users }) => {
    await users.signedIn({ label: 'billing-error' });
    await page.route(/\/api\/v1\/transactions(\?.*)?$/, (route) =>
      route.fulfill({
        status: 500,
        json: { code: 'INTERNAL', message: 'Something went wrong. Please try again later.' },
      }),
    );
    await page.goto('/billing/asc');
    await expect(
      page.getByRole('alert').filter({ hasText: 'The transactions could not be loaded.' }),
    ).toBeVisible();
  });

  test('coming back from a top-up shows its modal once; from a payment, a toast', async ({ page, users }) => {
    await users.signedIn({ label: 'billing-return' });
    await page.goto('/billing/asc?successTopUp=1000');
    const modal = page.getByRole('dialog', { name: 'Top-up successful' });
    await expect(modal).toContainText('$1,000.00 has been added to your balance.');
    await modal.getByRole('button', { name: 'Done' }).click();
    await expect(modal).toBeHidden();
    await expect(page).toHaveURL(/\/billing\/asc$/);

    await page.goto('/billing/asc?success=true');
    await expect(page.getByText('Your payment was successful.')).toBeVisible();
    await expect(page).toHaveURL(/\/billing\/asc$/);
  });
});

/**
 * An open MAU-based invoice of two applications (100 MAU on Basic, 1,000 on the Core plan), 10 % VAT,
 * $5 paid, so $100.60 due.
 */
async function serveOpenMauInvoice(page: Page, sequence: number) {
  const served = transaction(sequence, { status: 'open', amount: 105.6, paymentAmount: 5 });
  const invoiceId = `INV-${served.transactionId}`;
  served.detail = [
    { applicationId: 'app-nebula', name: 'Nebula Chat', invoiceId },
    { applicationId: 'app-comet', name: 'Comet Live', invoiceId },
  ];
  const line = { invoiceId, supportPlan: '', MAULicense: 0 };
  await serveTransaction(page, served, [
    { ...line, productName: 'Basic', MAUUsage: 100, price: 6, unitPrice: 0.06 },
    { ...line, productName: 'Social Core', MAUUsage: 1_000, price: 90, unitPrice: 0.09 },
  ]);
  await servePaymentSummary(page, served.transactionId, 100.6, {
    subTotal: 96,
    taxes: [{ title: 'VAT', percentage: 10, taxAmount: 9.6 }],
    totalAmount: 105.6,
    paidAmount: 5,
  });
}

test.describe('billing: a transaction and its invoice', () => {
  test('a paid component-based invoice lists its components and its tax, and offers no payment', async ({
    page,
    users,
  }) => {
    const paid = transaction(7, {
      invoiceType: 'component_based',
      amount: 652.91,
      taxAmount: 53.91,
      taxPercentage: 9,
    });
    await users.signedIn({ label: 'billing-components' });
    await serveTransaction(page, paid, [
      {
        invoiceId: 'INV-000000007',
        components: [
          { title: 'Licence fee', quantity: 1, total_amount: 499 },
          { title: 'Support plan', quantity: 1, total_amount: 100 },
        ],
      },
    ]);
    await servePaymentSummary(page, '000000007', 0, {
      subTotal: 599,
      taxes: [{ title: 'Tax', percentage: 9, taxAmount: 53.91 }],
      totalAmount: 652.91,
      paidAmount: 652.91,
    });
    await page.goto('/billing/asc/000000007');

    const lines = page.getByRole('table', { name: 'Lines of invoice INV-000000007' });
    await expect(lines.getByRole('row').filter({ hasText: 'Licence fee' })).toContainText('$499.00');
    await expect(page.getByText('Tax (9%)', { exact: true }).locator('..')).toContainText('$53.91');
    await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Pay by card' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Download invoice' })).toHaveAttribute(
      'href',
      '/billing/asc/000000007/print',
    );
  });

  test('a transaction of another organisation or none cannot be loaded', async ({ page, users }) => {
    await users.signedIn({ label: 'billing-missing' });
    await page.goto('/billing/asc/999999999');
    await expect(
      page.getByRole('alert').filter({ hasText: 'This transaction could not be loaded.' }),
    ).toBeVisible();
  });

  test('print of a transaction without an invoice says Invoice not found and returns to the list', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'billing-print' });
    await page.goto('/billing/asc/999999999/print');
    await expect(page.getByText('Invoice not found', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/billing\/asc$/);
  });
});

test.describe('billing: subscription and licenses', () => {
  test('a PAYG organisation without usage: total MAU, not updated yet, its applications with their plans', async ({
    page,
    users,
    baseURL,
  }) => {
    await users.signedIn({ label: 'subscription-payg' });
    const apps = new Applications(page.request, baseURL!);
    const nebula = await apps.create({ name: 'Nebula Chat', plan: 'basic', region: 'EU' });
    await page.goto('/subscription-licenses/asc');

    await expect(page.getByRole('heading', { level: 1, name: 'Subscription and licenses' })).toBeVisible();
    await expect(page.getByText('Total monthly active users this month')).toBeVisible();
    await expect(page.getByText('Not updated yet this month')).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: nebula.applicationId });
    await expect(row).toContainText('Nebula Chat');
    // Created after 2024-08-30: the product's Core plan rather than Basic.
    const { productName } = (await (await page.request.get('/api/v1/config')).json()) as {
      productName: string;
    };
    await expect(row).toContainText(`${productName} Core`);
    await expectNoSeriousA11yViolations(page, '/subscription-licenses/asc (PAYG)');
  });

  test('an unknown contract type is an error', async ({ page, users }) => {
    await users.signedIn({ label: 'subscription-unknown' });
    await page.route('**/api/v1/accounts/contracts', (route) =>
      route.fulfill({ json: [{ type: 'enterprise', license: 0, supportPlan: '' }] }),
    );
    await page.goto('/subscription-licenses/asc');
    await expect(page.getByRole('alert')).toContainText('Your contract type is not supported.');
  });
});

/** Screens for a person to look at, beside the key screens: e2e/test-results/screenshots/billing-<page>-<width>.png */
const SCREENSHOT_DIR = path.join(E2E_DIR, 'test-results', 'screenshots');

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`billing screens at ${viewport.width} px`, async ({ page, users }) => {
    const capture = (name: string) =>
      page.screenshot({
        path: path.join(SCREENSHOT_DIR, `billing-${name}-${viewport.width}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    await page.setViewportSize(viewport);
    await users.signedIn({ label: `billing-screens-${viewport.width}` });
    const ledger = Array.from({ length: 33 }, (_, index) =>
      transaction(index + 1, index % 3 === 0 ? { type: 'service_credit', amount: 6 } : {}),
    );
    ledger[32] = transaction(33, { status: 'open', amount: 1234.5, paymentAmount: 0 });
    await serveLedger(page, ledger);
    await serveOpenMauInvoice(page, 33);

    await page.goto('/billing/asc');
    await expect(rowOf(page, '000000033')).toBeVisible();
    await capture('list');
    await page.getByRole('combobox', { name: 'Search transactions' }).fill('0000000');
    await expect(page.getByRole('option', { name: '000000001' })).toBeVisible();
    await capture('search');

    await page.goto('/billing/asc/33');
    await expect(page.getByText('Amount due')).toBeVisible();
    await capture('transaction');

    await page.goto('/billing/asc?successTopUp=1000');
    await expect(page.getByRole('dialog')).toHaveCSS('opacity', '1');
    await capture('top-up');

    await page.goto('/subscription-licenses/asc');
    await expect(page.getByText('Total monthly active users this month')).toBeVisible();
    await capture('subscription-payg');

    await page.route('**/api/v1/accounts/contracts', (route) =>
      route.fulfill({ json: [{ type: 'flat_rate', license: 1_000, supportPlan: 'Premium' }] }),
    );
    await page.route('**/api/v1/accounts/usages', (route) =>
      route.fulfill({ json: [{ type: 'mau', usage: 1_200, updatedAt: '2026-03-02T10:15:00.000Z' }] }),
    );
    await page.goto('/subscription-licenses/asc');
    await expect(page.getByText('120% used')).toBeVisible();
    await capture('subscription-flat-rate');
  });
}
