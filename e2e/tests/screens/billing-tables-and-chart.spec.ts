import path from 'node:path';
import type { Page } from '@playwright/test';
import type { MonthlyUsage } from '@portal/contracts';
import { E2E_DIR } from '../../harness/harness-state.ts';
import { serveLedger, servePaymentSummary, serveTransaction, transaction } from '../../support/billing.ts';
import { expect, test } from '../../support/fixtures.ts';

/** Screens for a person to look at: e2e/test-results/screenshots/billing-<page>-<width>.png */
const SCREENSHOT_DIR = path.join(E2E_DIR, 'test-results', 'screenshots');
/** Below Mantine's "sm" breakpoint (48em) the billing tables stack their rows as cards. */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The page is no wider than the window: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    content: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.content, 'the page scrolls sideways').toBeLessThanOrEqual(widths.window);
}

/** An open PAYG invoice of three applications with long names, and a paid flat-rate one. */
async function serveInvoices(page: Page) {
  const payg = transaction(33, { status: 'open', amount: 1_451.88, paymentAmount: 0 });
  payg.detail = [
    {
      applicationId: 'app-0c9f6b1e-nebula',
      name: 'Nebula Chat for the customer support team',
      invoiceId: 'INV-000000033',
    },
    { applicationId: 'app-5e2d7a40-comet', name: 'Comet Live', invoiceId: 'INV-000000033' },
    { applicationId: 'app-9a1b3c7d-orbit', name: 'Orbit Community Feed', invoiceId: 'INV-000000033' },
  ];
  const line = { invoiceId: 'INV-000000033', supportPlan: '', MAULicense: 0 };
  await serveTransaction(page, payg, [
    { ...line, productName: 'Basic', MAUUsage: 1_200, price: 72, unitPrice: 0.06 },
    { ...line, productName: 'Social Core', MAUUsage: 12_000, price: 1_080, unitPrice: 0.09 },
    { ...line, productName: 'Max', MAUUsage: 2_142, price: 299.88, unitPrice: 0.14 },
  ]);
  await servePaymentSummary(page, payg.transactionId, 1_451.88, {
    subTotal: 1_451.88,
    totalAmount: 1_451.88,
  });

  const flat = transaction(32, {
    invoiceType: 'component_based',
    amount: 652.91,
    taxAmount: 53.91,
    taxPercentage: 9,
  });
  await serveTransaction(page, flat, [
    {
      invoiceId: 'INV-000000032',
      components: [
        { title: 'Licence fee (5000 MAU)', quantity: 1, total_amount: 499 },
        { title: 'Monthly active users above the licence', quantity: 1_000, total_amount: 90 },
        { title: 'Support plan Gold', quantity: 1, total_amount: 10 },
      ],
    },
  ]);
  await servePaymentSummary(page, flat.transactionId, 0, {
    subTotal: 599,
    taxes: [{ title: 'Tax', percentage: 9, taxAmount: 53.91 }],
    totalAmount: 652.91,
    paidAmount: 652.91,
  });
}

/** Twelve months of three applications, as GET /api/v1/accounts/usages/monthly answers them. */
async function serveMonthlyUsage(page: Page) {
  const now = new Date();
  const answer: MonthlyUsage[] = Array.from({ length: 12 }, (_, index) => ({
    month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11 + index, 1))
      .toISOString()
      .slice(0, 7),
    applications: [
      {
        applicationId: 'app-0c9f6b1e-nebula',
        name: 'Nebula Chat for the customer support team',
        mau: 800 + index * 40,
      },
      {
        applicationId: 'app-5e2d7a40-comet',
        name: 'Comet Live',
        mau: index < 5 ? 0 : 6_000 + (index - 5) * 1_000,
      },
      {
        applicationId: 'app-9a1b3c7d-orbit',
        name: 'Orbit Community Feed',
        mau: [2_000, 2_600, 2_100, 2_900][index % 4]!,
      },
    ],
  }));
  await page.route('**/api/v1/accounts/usages/monthly', (route) => route.fulfill({ json: answer }));
}

for (const viewport of [DESKTOP, PHONE]) {
  const phone = viewport.width === PHONE.width;

  test(`billing tables and the usage chart at ${viewport.width} px`, async ({ page, users }) => {
    const capture = (name: string) =>
      page.screenshot({
        path: path.join(SCREENSHOT_DIR, `billing-${name}-${viewport.width}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    await page.setViewportSize(viewport);
    await users.signedIn({ label: `billing-tables-${viewport.width}` });
    const ledger = Array.from({ length: 31 }, (_, index) =>
      transaction(
        index + 1,
        index % 4 === 0
          ? { type: 'topup', invoiceId: null, invoiceType: null, billingCycle: null, amount: 500 }
          : {},
      ),
    );
    ledger[30] = transaction(31, { status: 'open', amount: 1_234.5, paymentAmount: 0 });
    await serveLedger(page, ledger);
    await serveInvoices(page);
    await serveMonthlyUsage(page);

    await page.goto('/billing/asc');
    // Table or cards, each transaction is a row whose values keep their column's name.
    const open = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: '000000031', exact: true }) });
    await expect(open).toBeVisible();
    await expect(open.getByRole('cell', { name: '$1,234.50' })).toBeVisible();
    await expect(open.getByRole('button', { name: 'Pay transaction 000000031' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Amount' })).toBeAttached();
    if (phone) {
      // A card: the value's label stands beside it, the column headers are out of sight.
      await expect(page.getByRole('columnheader', { name: 'Amount' })).not.toBeInViewport();
      const amount = open.getByRole('cell', { name: '$1,234.50' });
      expect(await amount.evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe('"Amount"');
      const card = await open.boundingBox();
      expect(card!.width).toBeLessThanOrEqual(viewport.width);
    }
    await expectNoSidewaysScroll(page);
    await capture('ledger');

    await page.goto('/billing/asc/33');
    const lines = page.getByRole('table', { name: 'Lines of invoice INV-000000033' });
    await expect(lines.getByRole('row').filter({ hasText: 'Comet Live' })).toContainText('$1,080.00');
    await expect(page.getByText('Amount due')).toBeVisible();
    if (phone) {
      const price = lines.getByRole('cell', { name: '$0.14' });
      expect(await price.evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe(
        '"Price per user"',
      );
    }
    await expectNoSidewaysScroll(page);
    await capture('invoice-mau');

    await page.goto('/billing/asc/32');
    const components = page.getByRole('table', { name: 'Lines of invoice INV-000000032' });
    await expect(components.getByRole('row').filter({ hasText: 'Support plan Gold' })).toContainText(
      '$10.00',
    );
    await expectNoSidewaysScroll(page);
    await capture('invoice-components');

    await page.goto('/subscription-licenses/asc');
    await expect(page.getByRole('img', { name: /^Line chart/ }).locator('.recharts-line-curve')).toHaveCount(
      3,
    );
    await expectNoSidewaysScroll(page);
    await capture('subscription-chart');
  });
}
