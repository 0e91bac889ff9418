import type { PaymentGatewayConfiguration } from '@portal/contracts';
import type { Page } from '@playwright/test';
import { transactionRow, transactionsTable } from '../../support/billing.ts';
import { expect, test } from '../../support/fixtures.ts';
import { Operator, sharedPortal } from '../../support/operator.ts';
import { FUTURE_YEAR, TEST_CARDS, fillCard, payButton } from '../../support/payments.ts';
import { screenshotsAtWidths } from '../../support/screenshots.ts';

/*
 * A miscellaneous charge (decision 040) for real: the operator raises it with the CLI, the owner
 * finds it in Billing, pays it by card on /payment/asc/misc through the sandbox gateway, and lands
 * back on billing with success=true; the server then refuses to be paid for it again. One raised by
 * mistake, the operator voids: billing shows it voided, with nothing to pay.
 */

/** A one-time token of the sandbox's card that succeeds, made as the card form makes one. */
async function sandboxCardToken(page: Page): Promise<string> {
  const configuration = await page.request.get('/api/v1/accounts/payment-gateway');
  expect(configuration.ok()).toBe(true);
  const { publicKey, tokenizeUrl } = (await configuration.json()) as PaymentGatewayConfiguration;
  const tokenized = await page.request.post(tokenizeUrl ?? '', {
    headers: { authorization: `Bearer ${publicKey}` },
    data: {
      number: TEST_CARDS.succeeds.replaceAll(' ', ''),
      expMonth: 12,
      expYear: Number(FUTURE_YEAR),
      cvc: '123',
      name: 'Ada Lovelace',
    },
  });
  expect(tokenized.ok(), await tokenized.text()).toBe(true);
  return ((await tokenized.json()) as { id: string }).id;
}

test('an operator raises a miscellaneous charge; the owner pays it by card once on /payment/asc/misc and billing says so', async ({
  page,
  users,
  baseURL,
}) => {
  const owner = await users.signedIn({ label: 'misc-charge' });
  const operator = new Operator(sharedPortal(baseURL!));
  const charge = await operator.raiseCharge(owner.email, '120.00', 'Onboarding workshop');
  // Singapore: 9 % tax on the amount raised.
  expect(charge).toMatchObject({ status: 'open', amount: 120, tax: 10.8, total: 130.8 });
  const { transactionId } = charge;

  await page.goto('/billing/asc');
  const row = transactionRow(page, transactionId);
  await expect(row).toContainText('Other');
  await expect(row).toContainText('$130.80');
  await expect(row).toContainText('Open');

  await row.getByRole('link', { name: transactionId, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/billing/asc/${transactionId}$`));
  await expect(page.getByText('Onboarding workshop')).toBeVisible();
  const detailSummary = page.locator('.mantine-Card-root').filter({ hasText: 'Payment summary' });
  await expect(detailSummary).toContainText('Tax (9%)$10.80');
  await expect(detailSummary).toContainText('Amount due$130.80');
  await page.getByRole('link', { name: 'Pay by card' }).click();

  await expect(page).toHaveURL(new RegExp(`/payment/asc/misc\\?id=${transactionId}&amount=130\\.80$`));
  await expect(
    page.getByRole('heading', { level: 1, name: `Pay transaction ${transactionId}` }),
  ).toBeVisible();
  await expect(page.getByText('Onboarding workshop')).toBeVisible();
  await expect(payButton(page)).toHaveText('Pay $130.80');
  await fillCard(page, TEST_CARDS.succeeds);
  await screenshotsAtWidths(page, 'misc-charge-payment');

  // The list takes success=true out of the address once its toast is up: every address is kept.
  const addresses: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) addresses.push(frame.url());
  });
  await payButton(page).click();
  await expect(page.getByText('Your payment was successful.')).toBeVisible();
  expect(addresses.map((address) => address.slice(baseURL!.length))).toContain('/billing/asc?success=true');
  await expect(transactionRow(page, transactionId)).toContainText('Paid');
  await expect(
    transactionsTable(page).getByRole('button', { name: `Pay transaction ${transactionId}` }),
  ).toHaveCount(0);

  // What the page no longer offers, the server refuses: the charge is paid.
  const again = await page.request.post(`/api/v1/transactions/${transactionId}/pay`, {
    data: { token: await sandboxCardToken(page) },
    headers: { origin: baseURL! },
  });
  expect(again.status()).toBe(409);
  expect(await again.json()).toMatchObject({ code: 'TRANSACTION_NOT_PAYABLE' });
});

test('an operator voids a charge raised by mistake; billing shows it voided with nothing to pay, and the server refuses to take payment', async ({
  page,
  users,
  baseURL,
}) => {
  const owner = await users.signedIn({ label: 'misc-charge-void' });
  const operator = new Operator(sharedPortal(baseURL!));
  const { transactionId } = await operator.raiseCharge(owner.email, '80.00', 'Courier, raised twice');
  await page.goto('/billing/asc');
  await expect(transactionRow(page, transactionId)).toContainText('Open');

  const voided = await operator.voidCharge(owner.email, transactionId, 'Raised twice');
  expect(voided).toMatchObject({ transactionId, status: 'voided', alreadyVoided: false });
  await page.reload();
  const row = transactionRow(page, transactionId);
  await expect(row).toContainText('Voided');
  await expect(row).toContainText('$87.20');
  await expect(
    transactionsTable(page).getByRole('button', { name: `Pay transaction ${transactionId}` }),
  ).toHaveCount(0);
  await row.getByRole('link', { name: transactionId, exact: true }).click();
  await expect(page.getByText('Courier, raised twice')).toBeVisible();
  const summary = page.locator('.mantine-Card-root').filter({ hasText: 'Payment summary' });
  await expect(summary).toContainText('Total$87.20');
  await expect(summary).toContainText('Amount due$0.00');
  await expect(page.getByRole('link', { name: 'Pay by card' })).toHaveCount(0);
  await screenshotsAtWidths(page, 'misc-charge-voided');

  const paid = await page.request.post(`/api/v1/transactions/${transactionId}/pay`, {
    data: { token: await sandboxCardToken(page) },
    headers: { origin: baseURL! },
  });
  expect(paid.status()).toBe(409);
  expect(await paid.json()).toMatchObject({ code: 'TRANSACTION_NOT_PAYABLE' });
});
