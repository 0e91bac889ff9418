import type { OperatorOrganization } from '@portal/contracts';
import { billingCycleOf, clockedTest, startOfMonth } from '../../support/billing-journey.ts';
import { transactionRow, transactionsTable } from '../../support/billing.ts';
import { expect, test } from '../../support/fixtures.ts';
import { Operator, sharedPortal } from '../../support/operator.ts';
import {
  NOT_SUPPORTED_WORDING,
  TEST_CARDS,
  fillCard,
  payButton,
  savedCard,
  summaryLine,
} from '../../support/payments.ts';
import { mainNavigation } from '../../support/ui.ts';

/*
 * Card payments for real: the pages, the portal's payments API and the sandbox gateway it hosts at
 * /card-sandbox, with the sandbox's test cards. An open invoice needs a month that has ended, so that
 * journey runs on a portal of its own whose clock the test sets (support/billing-journey.ts).
 */

test('saved cards: a card added is the default, a declined card and a JCB card are refused, another becomes the default, the first is removed', async ({
  page,
  users,
}) => {
  await users.signedIn({ label: 'cards-journey' });
  await page.goto('/apps/asc');
  await mainNavigation(page).getByRole('link', { name: 'Manage payment' }).click();
  await expect(page).toHaveURL(/\/manage-payment$/);
  await expect(page.getByText('No saved cards yet.', { exact: false })).toBeVisible();

  const adding = page.getByRole('dialog', { name: 'Add a card' });
  const addCard = async (number: string) => {
    await page.getByRole('button', { name: 'Add card' }).click();
    await fillCard(adding, number);
    await adding.getByRole('button', { name: 'Save card' }).click();
  };

  await addCard(TEST_CARDS.succeeds);
  await expect(page.getByText('The VISA ending in 4242 was added.')).toBeVisible();
  await expect(adding).toBeHidden();
  const visa = savedCard(page, 'VISA ending in 4242');
  await expect(visa).toContainText('Default');
  await expect(visa).toContainText(`Expires 12/${new Date().getUTCFullYear() + 3}`);

  await addCard(TEST_CARDS.declined);
  await expect(adding.getByRole('alert')).toHaveText('Your card was declined.');
  await adding.getByRole('button', { name: 'Cancel' }).click();
  await addCard(TEST_CARDS.jcb);
  await expect(adding.getByRole('alert')).toHaveText(NOT_SUPPORTED_WORDING);
  await adding.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('list', { name: 'Saved cards' }).getByRole('listitem')).toHaveCount(1);

  await page.getByRole('button', { name: 'Add card' }).click();
  await fillCard(adding, '5555 5555 5555 4444');
  await adding.getByLabel('Use as my default card').uncheck();
  await adding.getByRole('button', { name: 'Save card' }).click();
  const master = savedCard(page, 'Mastercard ending in 4444');
  await expect(master).toBeVisible();
  await expect(master).not.toContainText('Default');
  await expect(visa).toContainText('Default');

  await master.getByRole('button', { name: 'Set the Mastercard ending in 4444 as default' }).click();
  await expect(master).toContainText('Default');
  await expect(visa).not.toContainText('Default');

  await visa.getByRole('button', { name: 'Remove the VISA ending in 4242' }).click();
  await page
    .getByRole('dialog', { name: 'Remove card' })
    .getByRole('button', { name: 'Remove card' })
    .click();
  await expect(page.getByText('The VISA ending in 4242 was removed.')).toBeVisible();
  await expect(visa).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Saved cards' }).getByRole('listitem')).toHaveCount(1);
  await expect(master).toContainText('Default');
});

test('a top-up of 1000 with free credit: the summary, the success modal, the balance, and the top-up and its free credit in billing', async ({
  page,
  users,
  baseURL,
}) => {
  const owner = await users.signedIn({ label: 'top-up-journey' });
  const operator = new Operator(sharedPortal(baseURL!));
  await operator.run('org', 'set-free-credit', owner.email, 'on');

  await page.goto('/billing/asc');
  await expect(page.getByText('Prepaid balance $0.00')).toBeVisible();
  await page.getByRole('link', { name: 'Top up balance' }).click();
  await expect(page).toHaveURL(/\/payment\/asc\/top-up$/);
  // Singapore: 9 % tax; a top-up of 1,000 earns 50 of free credit.
  await expect(summaryLine(page, /^Top-up amount/)).toContainText('$1,000.00');
  await expect(summaryLine(page, /^Free credit/)).toContainText('-$50.00');
  await expect(summaryLine(page, /^Subtotal/)).toContainText('$950.00');
  await expect(summaryLine(page, /^Tax \(9%\)/)).toContainText('$85.50');
  await expect(summaryLine(page, /^Total/)).toContainText('$1,035.50');

  await fillCard(page, TEST_CARDS.succeeds);
  await payButton(page).click();
  await expect(page).toHaveURL(/\/billing\/asc\?successTopUp=1000$/);
  const modal = page.getByRole('dialog', { name: 'Top-up successful' });
  await expect(modal).toContainText('$1,000.00 has been added to your balance.');
  await modal.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Prepaid balance $1,000.00')).toBeVisible();

  const rows = transactionsTable(page).getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Top-up' })).toContainText('Paid');
  await expect(rows.filter({ hasText: 'Service credit' })).toContainText('$50.00');

  // 950 paid (and its tax), 50 of free credit: 1,000 on the balance.
  const organization = await operator.run<OperatorOrganization>('org', 'show', owner.email);
  expect(organization.balance).toBe(1000);
});

test("an account an operator suspended: a card added does not lift the suspension (no reactivation dialog), the operator's set-status active does", async ({
  page,
  users,
  baseURL,
}) => {
  const owner = await users.signedIn({ label: 'suspension-journey' });
  const operator = new Operator(sharedPortal(baseURL!));
  const suspended = await operator.run<OperatorOrganization>('org', 'set-status', owner.email, 'inactive');
  expect(suspended).toMatchObject({ accountStatus: 'inactive', inactiveReason: 'operator' });
  await page.goto('/manage-payment');
  await expect(page.getByLabel('Billing address')).toBeDisabled();

  await page.getByRole('button', { name: 'Add card' }).click();
  const adding = page.getByRole('dialog', { name: 'Add a card' });
  await fillCard(adding, TEST_CARDS.succeeds);
  await adding.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByText('The VISA ending in 4242 was added.')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Your account is being reactivated' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Your account is inactive.', { exact: false })).toBeVisible();
  await expect(page.getByLabel('Billing address')).toBeDisabled();

  await operator.run('org', 'set-status', owner.email, 'active');
  await page.reload();
  await expect(page.getByLabel('Billing address')).toBeEnabled();
  await expect(page.getByText('Your account is inactive.', { exact: false })).toHaveCount(0);
});

clockedTest(
  'paying an open flat-rate invoice by card: a declined card stays to try another, then it is paid and billing says so',
  async ({ page, users, clockedPortal }) => {
    clockedTest.setTimeout(240_000);
    const billedMonthAt = startOfMonth(new Date(), 1);
    const cycle = billingCycleOf(billedMonthAt);
    const operator = new Operator(clockedPortal);
    await clockedPortal.runFrom(billedMonthAt);
    const owner = await users.signedIn({ label: 'invoice-journey' });
    await operator.setContract(owner.email, '--type', 'flat-rate', '--license', '1000', '--fee', '499.00');

    await clockedPortal.runFrom(startOfMonth(new Date(), 2));
    await operator.importUsage(cycle);
    const run = await operator.runBilling(cycle, owner.email);
    const [invoice] = run.billed;
    expect(invoice).toMatchObject({ status: 'open' });
    const { transactionId, due } = invoice!;
    const amount = `$${due.toFixed(2)}`;

    // A month on, the session has expired.
    await users.signIn(owner);
    await page.goto('/billing/asc');
    await transactionRow(page, transactionId)
      .getByRole('button', { name: `Pay transaction ${transactionId}` })
      .click();
    await expect(page).toHaveURL(
      new RegExp(`/payment/asc/invoice\\?id=${transactionId}&amount=${due.toFixed(2)}$`),
    );
    await expect(
      page.getByRole('heading', { level: 1, name: `Pay transaction ${transactionId}` }),
    ).toBeVisible();
    await expect(payButton(page)).toHaveText(`Pay ${amount}`);

    await fillCard(page, TEST_CARDS.declined);
    await payButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await expect(page).toHaveURL(/\/payment\/asc\/invoice/);

    await page.getByLabel('Card number').fill(TEST_CARDS.succeeds);
    await payButton(page).click();
    await expect(page.getByText('Your payment was successful.')).toBeVisible();
    await expect(page).toHaveURL(/\/billing\/asc$/);
    await expect(transactionRow(page, transactionId)).toContainText('Paid');
    await expect(
      transactionsTable(page).getByRole('button', { name: `Pay transaction ${transactionId}` }),
    ).toHaveCount(0);
  },
);
