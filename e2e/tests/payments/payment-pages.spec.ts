import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Account } from '@portal/contracts';
import { E2E_DIR } from '../../harness/harness-state.ts';
import { expectNoSeriousA11yViolations } from '../../support/axe.ts';
import { servePaymentSummary } from '../../support/billing.ts';
import { expect, test } from '../../support/fixtures.ts';
import { Operator, sharedPortal } from '../../support/operator.ts';
import {
  FUTURE_YEAR,
  NOT_SUPPORTED_WORDING,
  SANDBOX_GATEWAY,
  TEST_CARDS,
  fillCard,
  payButton,
  savedCard,
  savedProfile,
  serveGateway,
  servePay,
  serveProfiles,
  serveTokenizer,
  serveTopUp,
  summaryLine,
  topUpAnswer,
} from '../../support/payments.ts';

/*
 * The payment pages against answers in the contract's shape, served in place of the gateway's
 * and of the payment endpoints: what they send, what they show for each answer. The free credit
 * tiers, tax rates, countries and the billing form are the portal's own. The journeys against the
 * running portal and its sandbox gateway are in payments-journey.spec.ts.
 */

/** Saved cards: VISA 4242 (the default), Mastercard 4444, AMEX 0005. */
const VISA_DEFAULT = savedProfile('pp_visa', { defaultPayment: true });
const MASTERCARD = savedProfile('pp_master', {
  cardType: 'master',
  maskedCardNumber: '**** 4444',
  expirationMonth: 1,
  expirationYear: 2029,
});
const AMEX = savedProfile('pp_amex', { cardType: 'american_express', maskedCardNumber: '*** 0005' });

/** Transaction 000000042: 96 and 10 % VAT, 5 paid, so 100.60 due. */
function serveOpenInvoice(page: Page) {
  return servePaymentSummary(page, '000000042', 100.6, {
    subTotal: 96,
    taxes: [{ title: 'VAT', percentage: 10, taxAmount: 9.6 }],
    totalAmount: 105.6,
    paidAmount: 5,
  });
}

/** Serves the signed-in account with some fields changed (a contract type, a status). */
async function serveAccountWith(page: Page, changes: Partial<Account>) {
  await page.route('**/api/v1/accounts/me', async (route) => {
    const account = (await (await route.fetch()).json()) as Account;
    await route.fulfill({ json: { ...account, ...changes } });
  });
}

test.describe('payments: top-up (/payment/:sub/top-up)', () => {
  test('the order summary with free credit and the country tax, the amount and card rules, then one top-up however many clicks', async ({
    page,
    users,
  }) => {
    // A Singapore organisation (9 % tax); new organisations earn free credit (1,000 earns 50).
    await users.signedIn({ label: 'pay-top-up' });
    await serveGateway(page);
    await serveProfiles(page, []);
    const tokens = await serveTokenizer(page);
    const topUps = await serveTopUp(page, { status: 200, body: topUpAnswer(1000, 50, 85.5) });
    await page.goto('/payment/asc/top-up');

    await expect(page.getByRole('heading', { level: 1, name: 'Top up your balance' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing/asc');
    await expect(page.getByLabel('Top-up amount (USD)')).toHaveValue('$1,000');
    await expect(summaryLine(page, /^Top-up amount/)).toContainText('$1,000.00');
    await expect(summaryLine(page, /^Free credit/)).toContainText('-$50.00');
    await expect(summaryLine(page, /^Subtotal/)).toContainText('$950.00');
    await expect(summaryLine(page, /^Tax \(9%\)/)).toContainText('$85.50');
    await expect(summaryLine(page, /^Total/)).toContainText('$1,035.50');
    await expect(payButton(page)).toHaveText('Pay $1,035.50');
    await expectNoSeriousA11yViolations(page, '/payment/asc/top-up');

    await page.getByLabel('Top-up amount (USD)').fill('5000');
    await expect(summaryLine(page, /^Free credit/)).toContainText('-$500.00');
    await expect(summaryLine(page, /^Tax \(9%\)/)).toContainText('$405.00');
    await expect(payButton(page)).toHaveText('Pay $4,905.00');

    // Below 1: the amount is refused and nothing is sent, not even the card.
    await fillCard(page, TEST_CARDS.succeeds);
    await page.getByLabel('Top-up amount (USD)').fill('0.5');
    await payButton(page).click();
    await expect(page.getByText('The amount must be at least $1.00.')).toBeVisible();
    await expect(page.getByText('Enter an amount to see the total.')).toBeVisible();

    // An empty card is refused field by field, and nothing is sent.
    await page.goto('/payment/asc/top-up?amount=1000');
    await payButton(page).click();
    for (const message of [
      'Please enter the card number.',
      'Please choose the expiry month.',
      'Please choose the expiry year.',
      'Please enter the CVC.',
    ])
      await expect(page.getByText(message)).toBeVisible();
    expect(tokens).toHaveLength(0);
    expect(topUps).toHaveLength(0);

    await fillCard(page, TEST_CARDS.succeeds);
    await payButton(page).dblclick();
    await expect(page).toHaveURL(/\/billing\/asc\?successTopUp=1000$/);
    await expect(page.getByRole('dialog', { name: 'Top-up successful' })).toContainText(
      '$1,000.00 has been added to your balance.',
    );

    expect(tokens).toHaveLength(1);
    const tokenRequest = tokens[0]!;
    expect(tokenRequest.postDataJSON()).toEqual({
      number: '4242424242424242',
      expMonth: 12,
      expYear: Number(FUTURE_YEAR),
      cvc: '123',
      name: 'Ada Lovelace',
    });
    const sentHeaders = await tokenRequest.allHeaders();
    expect(sentHeaders.authorization).toBe(`Bearer ${SANDBOX_GATEWAY.publicKey}`);
    // The portal's session never goes to the gateway.
    expect(sentHeaders.cookie).toBeUndefined();
    expect(topUps).toHaveLength(1);
    expect(topUps[0]!.postDataJSON()).toEqual({ amount: 1000, token: 'tok_served_1' });
  });

  test('refusals: the gateway’s field errors and not-supported text, a declined card, a card not supported, a charge not confirmed', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'pay-refusals' });
    await serveGateway(page);
    await serveProfiles(page, []);
    await serveTokenizer(page, {
      status: 400,
      body: { errors: [{ field: 'number', message: 'Your card number is incorrect.' }] },
    });
    const topUps = await serveTopUp(page, {
      status: 402,
      body: { code: 'CARD_DECLINED', message: 'Your card was declined.' },
    });
    await page.goto('/payment/asc/top-up');
    await fillCard(page, '4242 4242 4242 4241');
    await payButton(page).click();
    await expect(page.getByText('Your card number is incorrect.')).toBeVisible();

    // The card token error may be a string (§8); 'Your card is not supported.' names the brands taken.
    await serveTokenizer(page, { status: 400, body: { errors: 'Your card is not supported.' } });
    await payButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: NOT_SUPPORTED_WORDING })).toBeVisible();
    expect(topUps).toHaveLength(0);

    await serveTokenizer(page);
    await payButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await expect(page).toHaveURL(/\/payment\/asc\/top-up$/);
    await expect(payButton(page)).toBeEnabled();

    await serveTopUp(page, {
      status: 422,
      body: { code: 'CARD_NOT_SUPPORTED', message: 'Your card is not supported.' },
    });
    await payButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: NOT_SUPPORTED_WORDING })).toBeVisible();

    // Whether the card was charged is not known: no second payment, a way to billing to look.
    await serveTopUp(page, {
      status: 503,
      body: {
        code: 'PAYMENT_NOT_CONFIRMED',
        message:
          'The payment could not be confirmed yet. It will be confirmed shortly: check your billing page before paying again.',
      },
    });
    await payButton(page).click();
    const unconfirmed = page
      .getByRole('alert')
      .filter({ hasText: 'check your billing page before paying again' });
    await expect(unconfirmed).toBeVisible();
    await expect(unconfirmed.getByRole('link', { name: 'Go to billing' })).toHaveAttribute(
      'href',
      '/billing/asc',
    );
    await expect(payButton(page)).toBeDisabled();
  });

  test('the default saved card is chosen and paid with; another card can be entered instead', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'pay-saved-card' });
    await serveGateway(page);
    await serveProfiles(page, [
      savedProfile('pp_master', { cardType: 'master', maskedCardNumber: '**** 4444' }),
      VISA_DEFAULT,
    ]);
    const topUps = await serveTopUp(page, { status: 200, body: topUpAnswer(250, 0, 22.5) });
    await page.goto('/payment/asc/top-up?amount=250');

    const choice = page.getByRole('radiogroup', { name: 'Pay with' });
    await expect(choice.getByRole('radio', { name: /VISA ending in 4242/ })).toBeChecked();
    await expect(choice.getByRole('radio', { name: /Mastercard ending in 4444/ })).not.toBeChecked();
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    await choice.getByRole('radio', { name: 'A new card' }).check();
    await expect(page.getByLabel('Card number')).toBeVisible();
    await choice.getByRole('radio', { name: /Mastercard ending in 4444/ }).check();
    await expect(page.getByLabel('Card number')).toHaveCount(0);

    await payButton(page).click();
    await expect(page).toHaveURL(/\/billing\/asc\?successTopUp=250$/);
    expect(topUps.map((request) => request.postDataJSON())).toEqual([
      { amount: 250, paymentProfileId: 'pp_master' },
    ]);
  });

  test('a flat-rate organisation has no balance to top up', async ({ page, users }) => {
    await users.signedIn({ label: 'pay-flat-rate' });
    await serveAccountWith(page, { contractType: 'flat_rate' });
    await page.goto('/payment/asc/top-up');
    await expect(
      page.getByText('Top-ups are for pay-as-you-go accounts. Your invoices are paid by card from Billing.'),
    ).toBeVisible();
    await expect(payButton(page)).toHaveCount(0);
  });
});

test.describe('payments: an invoice (/payment/:sub/invoice)', () => {
  test('pays what the payment summary has due and returns to billing with success, or success=false', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'pay-invoice' });
    await serveGateway(page);
    await serveProfiles(page, []);
    const tokens = await serveTokenizer(page);
    await serveOpenInvoice(page);
    const pays = await servePay(page, '000000042', {
      status: 200,
      body: { transactionId: '000000042', status: 'paid', paidAmount: 100.6, accountReactivated: false },
    });
    await page.goto('/payment/asc/invoice?id=000000042&amount=100.60');

    await expect(page.getByRole('heading', { level: 1, name: 'Pay transaction 000000042' })).toBeVisible();
    await expect(page.getByText('Amount due')).toBeVisible();
    await expect(payButton(page)).toHaveText('Pay $100.60');
    await expectNoSeriousA11yViolations(page, '/payment/asc/invoice');
    await fillCard(page, TEST_CARDS.succeeds);
    await payButton(page).click();
    await expect(page.getByText('Your payment was successful.')).toBeVisible();
    await expect(page).toHaveURL(/\/billing\/asc$/);
    expect(pays.map((request) => request.postDataJSON())).toEqual([{ token: 'tok_served_1' }]);
    expect(tokens).toHaveLength(1);

    // A declined card stays to try another; a transaction no longer open returns with success=false.
    await page.goto('/payment/asc/invoice?id=42');
    await servePay(page, '000000042', {
      status: 402,
      body: { code: 'CARD_DECLINED', message: 'Your card was declined.' },
    });
    await fillCard(page, TEST_CARDS.declined);
    await payButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    await servePay(page, '000000042', {
      status: 409,
      body: { code: 'TRANSACTION_NOT_PAYABLE', message: 'This transaction is not open for payment.' },
    });
    await payButton(page).click();
    await expect(page.getByText('Your payment did not go through. Please try again.')).toBeVisible();
    await expect(page).toHaveURL(/\/billing\/asc$/);
  });

  test("an unknown type, and misc or an invoice without an id, have nothing to pay; in Stripe mode the card form is Stripe's", async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'pay-unavailable' });
    for (const path of ['/payment/asc/misc?amount=10', '/payment/asc/donate', '/payment/asc/invoice']) {
      await page.goto(path);
      await expect(
        page.getByRole('heading', { level: 1, name: 'This payment is not available' }),
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Go to billing' })).toHaveAttribute('href', '/billing/asc');
    }

    await serveGateway(page, {
      provider: 'stripe',
      publicKey: 'pk_live_x',
      siteSubdomain: 'acme',
      tokenizeUrl: null,
    });
    await serveProfiles(page, []);
    // Stripe.js comes from Stripe's CDN, which this machine cannot reach: the page asks for it, and
    // says the form could not be loaded, instead of showing the sandbox's fields.
    const stripeJs = page.waitForRequest('https://js.stripe.com/v3');
    await page.route('https://js.stripe.com/**', (route) => route.abort());
    await page.goto('/payment/asc/top-up');
    await stripeJs;
    await expect(page.getByText('The card form could not be loaded.')).toBeVisible();
    await expect(page.getByLabel('Expiry month')).toHaveCount(0);
  });
});

test.describe('payments: manage payment (/manage-payment)', () => {
  test('saved cards: labels, last 4, expiry, the default; set default; remove after asking, an error toast when it fails', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'manage-cards' });
    await serveGateway(page);
    await serveProfiles(page, [VISA_DEFAULT, MASTERCARD, AMEX]);
    await page.goto('/manage-payment');

    const visa = savedCard(page, 'VISA ending in 4242');
    const master = savedCard(page, 'Mastercard ending in 4444');
    const amex = savedCard(page, 'AMEX ending in 0005');
    await expect(visa).toContainText('Default');
    await expect(visa).toContainText('Expires 12/2030');
    await expect(master).toContainText('Expires 01/2029');
    await expect(master).not.toContainText('Default');
    await expect(visa.getByRole('button', { name: /^Set the/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, '/manage-payment');

    await master.getByRole('button', { name: 'Set the Mastercard ending in 4444 as default' }).click();
    await expect(page.getByText('The Mastercard ending in 4444 is now your default card.')).toBeVisible();
    await expect(master).toContainText('Default');
    await expect(visa).not.toContainText('Default');

    await amex.getByRole('button', { name: 'Remove the AMEX ending in 0005' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove card' });
    await expect(dialog).toContainText(
      'Remove the AMEX ending in 0005? It can no longer be used for payments.',
    );
    await dialog.getByRole('button', { name: 'Keep card' }).click();
    await expect(dialog).toBeHidden();
    await amex.getByRole('button', { name: 'Remove the AMEX ending in 0005' }).click();
    await dialog.getByRole('button', { name: 'Remove card' }).click();
    await expect(page.getByText('The AMEX ending in 0005 was removed.')).toBeVisible();
    await expect(amex).toHaveCount(0);

    await serveProfiles(page, [VISA_DEFAULT], {
      removal: {
        status: 409,
        body: { code: 'CONFLICT', message: 'Add another card before removing your only card.' },
      },
    });
    await page.reload();
    await visa.getByRole('button', { name: 'Remove the VISA ending in 4242' }).click();
    await dialog.getByRole('button', { name: 'Remove card' }).click();
    await expect(page.getByText('Add another card before removing your only card.')).toBeVisible();
    await expect(visa).toBeVisible();
  });

  test('a card added to an inactive account reactivates it: the dialog says the applications are back within 24 hours', async ({
    page,
    users,
    baseURL,
  }) => {
    const user = await users.signedIn({ label: 'manage-reactivation' });
    await new Operator(sharedPortal(baseURL!)).run('org', 'set-status', user.email, 'inactive');
    await serveGateway(page);
    const tokens = await serveTokenizer(page);
    await serveProfiles(page, [], { accountReactivated: true });
    await page.goto('/manage-payment');
    await expect(page.getByText('Your account is inactive.', { exact: false })).toBeVisible();
    await expect(
      page.getByText('Billing information can be changed while the account is active.'),
    ).toBeVisible();
    await expect(page.getByLabel('Billing address')).toBeDisabled();
    await expect(page.getByText('No saved cards yet.', { exact: false })).toBeVisible();

    await page.getByRole('button', { name: 'Add card' }).click();
    const adding = page.getByRole('dialog', { name: 'Add a card' });
    await adding.getByRole('button', { name: 'Save card' }).click();
    await expect(adding.getByText('Please enter the card number.')).toBeVisible();
    expect(tokens).toHaveLength(0);
    await fillCard(adding, TEST_CARDS.succeeds);
    await expect(adding.getByLabel('Use as my default card')).toBeChecked();
    await adding.getByRole('button', { name: 'Save card' }).click();

    const reactivated = page.getByRole('dialog', { name: 'Your account is being reactivated' });
    await expect(reactivated).toContainText('Your applications will be back within 24 hours.');
    await expect(page.getByText('The VISA ending in 4242 was added.')).toBeVisible();
    await reactivated.getByRole('button', { name: 'Got it' }).click();
    await expect(savedCard(page, 'VISA ending in 4242')).toContainText('Default');
  });

  test('billing information: required fields, country then its states, no state NA, VAT registered needs its number, saved only after a change', async ({
    page,
    users,
  }) => {
    await users.signedIn({ label: 'manage-billing' });
    await page.goto('/manage-payment');
    const form = page.getByRole('form', { name: 'Billing information' });
    const save = form.getByRole('button', { name: 'Save billing information' });
    const country = form.getByRole('combobox', { name: 'Country' });
    const state = form.getByRole('combobox', { name: 'State or province' });
    await expect(form.getByLabel('Organization name')).toHaveValue('Acme Rockets');
    await expect(country).toHaveValue('Singapore');
    await expect(form.getByRole('radio', { name: 'Not VAT registered' })).toBeChecked();
    await expect(save).toBeDisabled();

    await form.getByLabel('Billing address').fill('1 Launch Road');
    await expect(save).toBeEnabled();
    await save.click();
    await expect(form.getByText('Please select a state.')).toBeVisible();
    await expect(form.getByText('Please enter a zip or postal code.')).toBeVisible();
    await state.click();
    await page.getByRole('option', { name: 'Central Singapore' }).click();
    await form.getByLabel('Zip or postal code').fill('018989');
    await form.getByRole('radio', { name: 'VAT registered', exact: true }).check();
    await save.click();
    await expect(form.getByText('Please enter your VAT number.')).toBeVisible();
    await form.getByLabel('VAT number').fill('T08GB0001A');
    await save.click();
    await expect(page.getByText('Billing information saved.')).toBeVisible();
    await expect(save).toBeDisabled();

    await page.reload();
    await expect(state).toHaveValue('Central Singapore');
    await expect(form.getByLabel('VAT number')).toHaveValue('T08GB0001A');
    // Unregistered clears the number; the form sends none.
    await form.getByRole('radio', { name: 'Not VAT registered' }).check();
    await expect(form.getByLabel('VAT number')).toHaveCount(0);
    await form.getByRole('radio', { name: 'VAT registered', exact: true }).check();
    await expect(form.getByLabel('VAT number')).toHaveValue('');
    await form.getByRole('radio', { name: 'Not VAT registered' }).check();

    // Changing the country clears the state and offers the new country's.
    await country.fill('Germany');
    await page.getByRole('option', { name: 'Germany', exact: true }).click();
    await expect(state).toHaveValue('');
    await state.click();
    await page.getByRole('option', { name: 'Bayern' }).click();
    await save.click();
    await expect(page.getByText('Billing information saved.')).toBeVisible();
    await page.reload();
    await expect(country).toHaveValue('Germany');
    await expect(state).toHaveValue('Bayern');
    await expect(form.getByLabel('VAT number')).toHaveCount(0);

    // A country without states offers the one 'no state' option (the country list has none such: served).
    await page.route(/\/api\/v1\/utils\/subdivisions\?countryCode=AW$/, (route) =>
      route.fulfill({ json: [] }),
    );
    await country.fill('Aruba');
    await page.getByRole('option', { name: 'Aruba', exact: true }).click();
    await state.click();
    await expect(page.getByRole('option')).toHaveText(['No state']);
  });
});

/** Screens for a person to look at: e2e/test-results/screenshots/payments-<page>-<width>.png */
const SCREENSHOT_DIR = path.join(E2E_DIR, 'test-results', 'screenshots');

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`payment screens at ${viewport.width} px`, async ({ page, users }) => {
    const capture = (name: string) =>
      page.screenshot({
        path: path.join(SCREENSHOT_DIR, `payments-${name}-${viewport.width}.png`),
        fullPage: true,
        animations: 'disabled',
      });
    await page.setViewportSize(viewport);
    await users.signedIn({ label: `payment-screens-${viewport.width}` });
    await serveGateway(page);
    await serveTokenizer(page);
    await serveProfiles(page, []);

    await page.goto('/payment/asc/top-up');
    await expect(page.getByLabel('Card number')).toBeVisible();
    await expect(summaryLine(page, /^Total/)).toBeVisible();
    await capture('top-up');
    await payButton(page).click();
    await expect(page.getByText('Please enter the card number.')).toBeVisible();
    await capture('top-up-errors');

    await serveOpenInvoice(page);
    await serveProfiles(page, [VISA_DEFAULT, MASTERCARD]);
    await page.goto('/payment/asc/invoice?id=000000042&amount=100.60');
    await expect(page.getByRole('radiogroup', { name: 'Pay with' })).toBeVisible();
    await capture('invoice-saved-cards');

    await serveProfiles(page, [VISA_DEFAULT, MASTERCARD, AMEX]);
    await page.goto('/manage-payment');
    await expect(savedCard(page, 'AMEX ending in 0005')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('Singapore');
    await capture('manage');
    await page.getByRole('button', { name: 'Add card' }).click();
    await expect(page.getByRole('dialog', { name: 'Add a card' }).getByLabel('Card number')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCSS('opacity', '1');
    await capture('add-card');
  });
}
