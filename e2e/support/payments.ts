import { expect, type Locator, type Page, type Request } from '@playwright/test';
import type {
  AddPaymentProfileResponse,
  PaymentGatewayConfiguration,
  PaymentProfile,
  TopUpResponse,
} from '@portal/contracts';

/** The sandbox's test cards (issue 13): one that succeeds, one declined, one of a brand not taken (JCB). */
export const TEST_CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  jcb: '3530 1113 3330 0000',
} as const;

export const NOT_SUPPORTED_WORDING =
  'Your card is not supported. We accept VISA, Mastercard, AMEX and Discover cards.';

/** A card expiry year the sandbox takes: a few years ahead of the test's clock. */
export const FUTURE_YEAR = String(new Date().getUTCFullYear() + 3);

/** Fills the card form (its fields, wherever it is on the page or in a dialog). */
export async function fillCard(
  scope: Page | Locator,
  number: string,
  { cvc = '123', firstName = 'Ada', lastName = 'Lovelace' } = {},
) {
  await scope.getByLabel('Card number').fill(number);
  await scope.getByLabel('Expiry month').selectOption('12');
  await scope.getByLabel('Expiry year').selectOption(FUTURE_YEAR);
  await scope.getByLabel('CVC').fill(cvc);
  await scope.getByLabel('First name on card').fill(firstName);
  await scope.getByLabel('Last name on card').fill(lastName);
}

/**
 * On /manage-payment of an inactive account: adds a card, which pays what is due and makes the account
 * active, and closes the reactivation dialog once it has said the applications are back within 24 hours.
 */
export async function addCardToInactiveAccount(page: Page, number: string) {
  await page.getByRole('button', { name: 'Add card' }).click();
  const adding = page.getByRole('dialog', { name: 'Add a card' });
  await fillCard(adding, number);
  await adding.getByRole('button', { name: 'Save card' }).click();
  const reactivated = page.getByRole('dialog', { name: 'Your account is being reactivated' });
  await expect(reactivated).toContainText('What your account owed has been paid with the new card');
  await expect(reactivated).toContainText('Your applications will be back within 24 hours.');
  await reactivated.getByRole('button', { name: 'Got it' }).click();
  await expect(reactivated).toBeHidden();
}

/** The order summary's line with its label, read as the figure beside it. */
export function summaryLine(page: Page, label: string | RegExp): Locator {
  return page
    .locator('.mantine-Card-root')
    .filter({ hasText: 'Order summary' })
    .locator('.mantine-Group-root')
    .filter({ hasText: label });
}

/** A saved card on /manage-payment, found by its name ('VISA ending in 4242'). */
export function savedCard(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Saved cards' }).getByRole('listitem', { name, exact: true });
}

/*
 * Answers in the contract's shape, served in place of the portal's and the gateway's, for what the
 * running portal cannot be brought to answer (a provider other than its own, a charge whose outcome
 * is unknown, a removal that fails) and for screenshots.
 */

export const SANDBOX_GATEWAY: PaymentGatewayConfiguration = {
  provider: 'sandbox',
  publicKey: 'pk_test_served',
  siteSubdomain: 'sandbox',
  tokenizeUrl: '/card-sandbox/v1/tokens',
};

export function savedProfile(id: string, overrides: Partial<PaymentProfile> = {}): PaymentProfile {
  return {
    id,
    cardType: 'visa',
    maskedCardNumber: '**** **** **** 4242',
    expirationMonth: 12,
    expirationYear: 2030,
    defaultPayment: false,
    ...overrides,
  };
}

/** Serves GET /api/v1/accounts/payment-gateway. */
export async function serveGateway(page: Page, configuration: PaymentGatewayConfiguration = SANDBOX_GATEWAY) {
  await page.route('**/api/v1/accounts/payment-gateway', (route) => route.fulfill({ json: configuration }));
}

/**
 * Serves the tokeniser: a token for any card, or the refusal given. Answers the requests it took,
 * to look at what the browser sent it.
 */
export async function serveTokenizer(
  page: Page,
  refusal?: { status: number; body: unknown },
): Promise<Request[]> {
  const taken: Request[] = [];
  await page.route('**/card-sandbox/v1/tokens', async (route) => {
    taken.push(route.request());
    if (refusal) return route.fulfill({ status: refusal.status, json: refusal.body });
    const card = route.request().postDataJSON() as { number: string; expMonth: number; expYear: number };
    return route.fulfill({
      json: {
        id: `tok_served_${taken.length}`,
        card: { brand: 'visa', last4: card.number.slice(-4), expMonth: card.expMonth, expYear: card.expYear },
      },
    });
  });
  return taken;
}

/** Serves the saved cards (GET), and keeps the list as the page changes it (POST, PUT default, DELETE). */
export async function serveProfiles(
  page: Page,
  profiles: PaymentProfile[],
  {
    accountReactivated = false,
    removal,
  }: { accountReactivated?: boolean; removal?: { status: number; body: unknown } } = {},
) {
  let list = [...profiles];
  await page.route('**/api/v1/accounts/payment-profiles', async (route) => {
    if (route.request().method() === 'GET') return route.fulfill({ json: list });
    const { setAsDefault } = route.request().postDataJSON() as { token: string; setAsDefault: boolean };
    const added: AddPaymentProfileResponse = {
      ...savedProfile(`pp_${list.length + 1}`, { defaultPayment: setAsDefault }),
      accountReactivated,
    };
    const { accountReactivated: _reactivated, ...profile } = added;
    list = [...list.map((entry) => (setAsDefault ? { ...entry, defaultPayment: false } : entry)), profile];
    return route.fulfill({ status: 201, json: added });
  });
  await page.route('**/api/v1/accounts/payment-profiles/*', async (route) => {
    const id = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop() ?? '');
    if (removal) return route.fulfill({ status: removal.status, json: removal.body });
    list = list.filter((entry) => entry.id !== id);
    return route.fulfill({ status: 204 });
  });
  await page.route('**/api/v1/accounts/payment-profiles/*/default', async (route) => {
    const id = decodeURIComponent(new URL(route.request().url()).pathname.split('/').at(-2) ?? '');
    list = list.map((entry) => ({ ...entry, defaultPayment: entry.id === id }));
    return route.fulfill({ status: 204 });
  });
}

/** Serves POST /api/v1/accounts/topup: the summary the server would answer, or a refusal. Answers the requests. */
export async function serveTopUp(
  page: Page,
  answer: { status: number; body: TopUpResponse | { code: string; message: string } },
): Promise<Request[]> {
  const taken: Request[] = [];
  await page.route('**/api/v1/accounts/topup', (route) => {
    taken.push(route.request());
    return route.fulfill({ status: answer.status, json: answer.body });
  });
  return taken;
}

/** Serves POST /api/v1/transactions/{id}/pay with the answer given. Answers the requests. */
export async function servePay(
  page: Page,
  id: string,
  answer: { status: number; body: unknown },
): Promise<Request[]> {
  const taken: Request[] = [];
  await page.route(`**/api/v1/transactions/${id}/pay`, (route) => {
    taken.push(route.request());
    return route.fulfill({ status: answer.status, json: answer.body });
  });
  return taken;
}

/** The answer of a top-up of `amount` that earned `freeCredit`, taxed `tax`. */
export function topUpAnswer(amount: number, freeCredit: number, tax: number): TopUpResponse {
  const subTotal = amount - freeCredit;
  return {
    transactionId: '000000001',
    freeCreditTransactionId: freeCredit > 0 ? '000000002' : null,
    amount,
    freeCredit,
    subTotal,
    tax,
    total: subTotal + tax,
    balance: amount,
    accountReactivated: false,
  };
}

/** The pay button, named by what it charges. */
export function payButton(page: Page): Locator {
  return page.getByRole('button', { name: /^Pay( \$[\d,.]+)?$/ });
}
