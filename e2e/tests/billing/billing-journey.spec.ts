import type { Page } from '@playwright/test';
import { PLAN_PRICES_MICRO_USD } from '@portal/contracts';
import { inflateStreams, pdfText } from '../../../apps/api/test/pdf-text.ts';
import { Applications, sdkPing } from '../../support/applications.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import {
  applicationsInUse,
  billMonthLeftDue,
  billingCycleOf,
  clockedTest,
  shownDate,
  startOfMonth,
} from '../../support/billing-journey.ts';
import { transactionRow, transactionsTable } from '../../support/billing.ts';
import { expect, test } from '../../support/fixtures.ts';
import { Operator, sharedPortal } from '../../support/operator.ts';
import { linkIn } from '../../support/mail-store.ts';
import { loginRedirectUrl, mainNavigation, submitSignIn } from '../../support/ui.ts';

const usd = (amount: number) => `$${amount.toFixed(2)}`;

/** The figure beside a label: an amount of the payment summary, a value on the subscription page. */
const valueBeside = (page: Page, label: string) =>
  page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');

/** The progress bar's colour over the licence (the theme's red) and within it (its blue). */
const RED = 'rgb(224, 49, 49)';
const BLUE = 'rgb(25, 113, 194)';

/*
 * Billing for real: the sample SDK client makes monthly active users, the operator CLI imports and
 * bills them, and the owner sees the result in the browser. A month is billed once it has ended, so
 * the PAYG journey runs on a portal of its own whose clock starts on the first day of next month and,
 * started again on the same data, on the first day of the month after (support/billing-journey.ts).
 */

clockedTest(
  'a PAYG month: the SDK makes monthly active users, the operator bills them, the owner finds, opens and downloads the invoice, and the balance left short makes the account inactive',
  async ({ page, users, clockedPortal, playwright }) => {
    clockedTest.setTimeout(300_000);
    // The portal's clock: the first day of next month (a trial begun then covers half of it), then the
    // first day of the month after, when the month to bill has ended.
    const billedMonthAt = startOfMonth(new Date(), 1);
    const nextMonthAt = startOfMonth(new Date(), 2);
    const cycle = billingCycleOf(billedMonthAt);
    const operator = new Operator(clockedPortal);
    await clockedPortal.runFrom(billedMonthAt);

    const owner = await users.signedIn({ label: 'journey-owner' });
    const { productName } = (await (await page.request.get('/api/v1/config')).json()) as {
      productName: string;
    };
    const apps = new Applications(page.request, clockedPortal.baseURL);
    const endUsers = ['alice', 'bob', 'carol'];
    const app = await clockedTest.step(
      'the owner creates an app on the Max plan, and once it is provisioned the sample SDK client connects three users of it',
      async () => {
        const [inUse] = await applicationsInUse(apps, clockedPortal.baseURL, [
          { fields: { name: 'Nebula Live', plan: 'max', region: 'EU' }, endUsers },
        ]);
        // The same user again is still one monthly active user.
        await sdkPing(clockedPortal.baseURL, 'eu', inUse!.apiKey, 'alice');
        return inUse!.app;
      },
    );

    await clockedTest.step(
      "the operator imports this month's usage, and the subscription page shows it",
      async () => {
        expect(await operator.importUsage()).toEqual({ month: cycle, recorded: 1 });
        await page.goto('/subscription-licenses/asc');
        await expect(valueBeside(page, 'Total monthly active users this month')).toHaveText(
          String(endUsers.length),
        );
        await expect(page.getByText(`Latest update: ${shownDate(billedMonthAt)}, `)).toBeVisible();
        const row = page.getByRole('row').filter({ hasText: app.applicationId });
        await expect(row).toContainText('Nebula Live');
        await expect(row).toContainText(`${productName} Core`);
      },
    );

    const balance = 0.1;
    const grant = await clockedTest.step(
      'the operator grants a credit smaller than the coming charge',
      async () => {
        const granted = await operator.grantCredit(owner.email, balance.toFixed(2), 'Welcome credit');
        expect(granted).toMatchObject({ amount: balance, balance });
        return granted;
      },
    );

    const charge = (endUsers.length * PLAN_PRICES_MICRO_USD.max) / 1_000_000;
    const { billed, notice } = await clockedTest.step(
      'the month ends: the operator imports its usage and bills it, and the owner is told the account is inactive',
      async () => {
        await clockedPortal.runFrom(nextMonthAt);
        // Billing this month is refused: it has not ended.
        await expect(operator.runBilling(billingCycleOf(nextMonthAt), owner.email)).rejects.toThrow(
          'has not ended yet',
        );
        const { invoice, notice } = await billMonthLeftDue(operator, owner, {
          cycle,
          applications: 1,
          charge,
          paid: balance,
        });
        // The trial covers part of the month, the balance part of the rest; the remainder stays due.
        expect(invoice.credit).toBeGreaterThan(0);
        expect(invoice.credit + invoice.paid + invoice.due).toBeCloseTo(charge, 2);
        return { billed: invoice, notice };
      },
    );
    const { transactionId } = billed;
    const invoiceNumber = `INV-${transactionId}`;

    await clockedTest.step(
      "the owner follows the notice's link and signs in again: the application list says the account is inactive",
      async () => {
        // A month on, the session has expired.
        await page.goto(linkIn(notice, '/').toString());
        await expect(page).toHaveURL(loginRedirectUrl('/home'));
        await submitSignIn(page, owner);
        await expect(page).toHaveURL(/\/apps\/asc$/);
        await expect(page.getByRole('article', { name: 'Nebula Live', exact: true })).toBeVisible();
        await expect(page.getByRole('status').filter({ hasText: 'Your account is inactive.' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Create application' })).toHaveCount(0);
      },
    );

    await clockedTest.step(
      'in Billing, the owner finds the open charge in the list and by its id',
      async () => {
        await mainNavigation(page).getByRole('link', { name: 'Billing', exact: true }).click();
        await expect(page).toHaveURL(/\/billing\/asc$/);
        const row = transactionRow(page, transactionId);
        await expect(row).toContainText('Service charge');
        await expect(row).toContainText(cycle);
        await expect(row).toContainText(usd(charge));
        await expect(row).toContainText('Open');
        await expect(row.getByRole('button', { name: `Pay transaction ${transactionId}` })).toBeVisible();
        // Beside it, the operator's credit and the trial's share of the month, both paid.
        const credit = transactionRow(page, grant.transactionId);
        await expect(credit).toContainText('Service credit');
        await expect(credit).toContainText(usd(balance));
        await expect(credit).toContainText('Paid');
        await expect(transactionsTable(page).getByRole('row')).toHaveCount(4);
        await expect(transactionsTable(page).getByRole('button', { name: /^Pay transaction/ })).toHaveCount(
          1,
        );

        const search = page.getByRole('combobox', { name: 'Search transactions' });
        await search.fill(transactionId.slice(0, 8));
        await expect(page.getByRole('option')).toHaveCount(3);
        await search.fill(transactionId);
        await expect(page.getByRole('option')).toHaveCount(1);
        await page.getByRole('option', { name: transactionId, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`/billing/asc/${transactionId}$`));
      },
    );

    await clockedTest.step(
      "the detail shows the app's line and what is still due, and offers to pay it",
      async () => {
        await expect(
          page.getByRole('heading', { level: 1, name: `Transaction ${transactionId}` }),
        ).toBeVisible();
        const line = page
          .getByRole('table', { name: `Lines of invoice ${invoiceNumber}` })
          .getByRole('row')
          .nth(1);
        await expect(line.getByRole('cell')).toHaveText([
          `Nebula Live${app.applicationId}`,
          `${productName} Core`,
          String(endUsers.length),
          usd(PLAN_PRICES_MICRO_USD.max / 1_000_000),
          usd(charge),
        ]);
        await expect(valueBeside(page, 'Total')).toHaveText(usd(charge));
        await expect(valueBeside(page, 'Credit')).toHaveText(usd(billed.credit));
        await expect(valueBeside(page, 'Paid')).toHaveText(usd(balance));
        await expect(valueBeside(page, 'Amount due')).toHaveText(usd(billed.due));
        await expect(page.getByRole('link', { name: 'Pay by card' })).toHaveAttribute(
          'href',
          `/payment/asc/invoice?id=${transactionId}&amount=${billed.due.toFixed(2)}`,
        );
        await expectNoSeriousA11yViolations(page, '/billing/asc/:id of a billed month');
      },
    );

    await clockedTest.step(
      'Download invoice opens the PDF of the invoice through its signed address',
      async () => {
        const [tab] = await Promise.all([
          page.waitForEvent('popup'),
          page.getByRole('link', { name: 'Download invoice' }).click(),
        ]);
        // The print route replaces itself with the signed address, which the browser's PDF viewer opens;
        // the address alone, without a session, answers the file.
        await expect(tab).toHaveURL(new RegExp(`/api/v1/invoices/${transactionId}\\.pdf\\?expires=`));
        const anonymous = await playwright.request.newContext();
        const pdf = await anonymous.get(tab.url());
        expect(pdf.status()).toBe(200);
        expect(pdf.headers()['content-type']).toBe('application/pdf');
        expect(pdf.headers()['content-disposition']).toContain(`filename="${invoiceNumber}.pdf"`);
        const text = pdfText(inflateStreams(await pdf.body()));
        await anonymous.dispose();
        expect(text).toContain(invoiceNumber);
        expect(text).toContain('Nebula Live');
        await tab.close();
      },
    );

    await clockedTest.step(
      'the address may carry the id unpadded; the breadcrumb leads back to the list',
      async () => {
        await page.goto(`/billing/asc/${Number(transactionId)}`);
        await expect(
          page.getByRole('heading', { level: 1, name: `Transaction ${transactionId}` }),
        ).toBeVisible();
        await page.getByRole('link', { name: 'Billing', exact: true }).last().click();
        await expect(page).toHaveURL(/\/billing\/asc$/);
        await expect(transactionRow(page, transactionId)).toBeVisible();
      },
    );
  },
);

test("a flat-rate contract the operator sets: this month's MAU against the licence, the bar red from 100 %", async ({
  page,
  users,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await users.signedIn({ label: 'journey-flat-rate' });
  const apps = new Applications(page.request, baseURL!);
  const created = await apps.create({ name: 'Comet Chat', plan: 'basic', region: 'SG' });
  await apps.waitUntilAllActive(1);
  const apiKey = await apps.regionalApiKey(await apps.get(created.applicationId));
  for (const endUser of ['dana', 'eve']) await sdkPing(baseURL!, 'sg', apiKey, endUser);

  const operator = new Operator(sharedPortal(baseURL!));
  const contract = ['--type', 'flat-rate', '--fee', '499.00', '--support-plan', 'Gold'];
  const organization = await operator.setContract(owner.email, ...contract, '--license', '2');
  expect(organization.contract).toMatchObject({
    type: 'flat_rate',
    licenseMau: 2,
    licenseFee: 499,
    supportPlan: 'Gold',
  });
  await operator.importUsage();

  await page.goto('/subscription-licenses/asc');
  const bar = page.getByRole('progressbar', { name: 'Usage against license' });
  await expect(valueBeside(page, 'Usage against license')).toHaveText('2 of 2 MAU');
  await expect(page.getByText('100% used')).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await expect(page.locator('.mantine-Progress-section')).toHaveCSS('background-color', RED);
  await expect(valueBeside(page, 'Support plan')).toHaveText('Gold');
  await expect(valueBeside(page, 'License MAUs')).toHaveText('2');
  await expect(page.getByText(/^Latest update: \d{2} \w{3} \d{4}, \d{2}:\d{2}$/)).toBeVisible();
  // The PAYG view's total and application list are not part of a flat-rate contract.
  await expect(page.getByText('Total monthly active users this month')).toHaveCount(0);

  // A larger licence: the same usage is half of it, and the bar turns blue.
  await operator.setContract(owner.email, ...contract, '--license', '4');
  await page.reload();
  await expect(valueBeside(page, 'Usage against license')).toHaveText('2 of 4 MAU');
  await expect(page.getByText('50% used')).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', '50');
  await expect(page.locator('.mantine-Progress-section')).toHaveCSS('background-color', BLUE);
});
