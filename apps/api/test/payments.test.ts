import type {
  AddPaymentProfileResponse,
  PaymentProfile,
  PayTransactionResponse,
  TopUpResponse,
} from '@portal/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import {
  claimTransactionForPayment,
  finishTransactionPayment,
} from '../src/modules/ledger/ledger.service.ts';
import { reconcilePaymentAttempts, warnLowBalances } from '../src/modules/payments/payments.jobs.ts';
import {
  deletePaymentProfile,
  setDefaultPaymentProfile,
} from '../src/modules/payments/payments.repository.ts';
import { balanceMovements, newApplicationWithUsage, organizationRow } from './billing-fixtures.ts';
import { billMay2025 } from './card-abuse-support.ts';
import { sandboxCardToken } from './card-fixtures.ts';
import { expectApiError, jsonRequest, setUpOrganization, untilMail, useTestApp } from './helper.ts';

/*
 * Cards, top-ups and invoice payments through the portal API against the sandbox gateway it hosts
 * at /card-sandbox: card data goes to the sandbox's tokeniser as a browser would send it, and the
 * portal only ever sees the token.
 */
const t = useTestApp();

const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  jcb: '3530111333300000',
};

interface Owner {
  cookie: string;
  email: string;
  organizationId: string;
}

let ownerCounter = 0;
async function newOwner(label: string): Promise<Owner> {
  const email = `${label}-${(ownerCounter += 1)}@payments.example.com`;
  const cookie = await setUpOrganization(t.app, email);
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  return { cookie, email, organizationId: (me.json() as { organizationId: string }).organizationId };
}

/** Card data to the sandbox's tokeniser, as the card form sends it; answers the token. */
function cardToken(owner: Owner, number: string): Promise<string> {
  return sandboxCardToken(t.app, owner.cookie, number);
}

async function addCard(owner: Owner, number: string, setAsDefault?: boolean) {
  const token = await cardToken(owner, number);
  return t.app.inject(
    jsonRequest('POST', '/api/v1/accounts/payment-profiles', { token, setAsDefault }, owner.cookie),
  );
}

async function cardsOf(owner: Owner): Promise<PaymentProfile[]> {
  const listed = await t.app.inject(
    jsonRequest('GET', '/api/v1/accounts/payment-profiles', undefined, owner.cookie),
  );
  expect(listed.statusCode).toBe(200);
  return listed.json() as PaymentProfile[];
}

async function havePaymentProfile(owner: Owner) {
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner.cookie));
  return (me.json() as { havePaymentProfile: string }).havePaymentProfile;
}

async function ledgerOf(organizationId: string) {
  return t.database.db
    .select()
    .from(schema.ledgerTransaction)
    .where(eq(schema.ledgerTransaction.organizationId, organizationId))
    .orderBy(asc(schema.ledgerTransaction.id));
}

async function attemptsOf(organizationId: string) {
  return t.database.db
    .select()
    .from(schema.paymentAttempt)
    .where(eq(schema.paymentAttempt.organizationId, organizationId))
    .orderBy(asc(schema.paymentAttempt.id));
}

/** The sandbox's own record of the charges made with an attempt's idempotency key. */
async function sandboxChargesFor(idempotencyKey: string) {
  const listed = await t.app.inject({
    method: 'GET',
    url: `/card-sandbox/v1/charges?idempotencyKey=${encodeURIComponent(idempotencyKey)}`,
    headers: { authorization: `Bearer ${sandboxSecretKey()}` },
  });
  expect(listed.statusCode, listed.body).toBe(200);
  const body = listed.json() as { data?: unknown[] } | unknown[];
  return Array.isArray(body) ? body : (body.data ?? []);
}

function sandboxSecretKey(): string {
  const gateway = t.app.paymentGateway as unknown as { secretKey?: string };
  if (!gateway.secretKey) throw new Error('the sandbox gateway does not say its secret key');
  return gateway.secretKey;
}

/** An owner whose account a billing run made inactive: May 2025's charge of USD 14.00 is open. */
async function inactiveOwner(label: string) {
  const owner = await newOwner(label);
  const run = await billMay2025(t.database.db, owner.organizationId);
  const invoiceId = run.billed[0]?.transactionId;
  if (!invoiceId || run.becameInactive[0] !== owner.organizationId)
    throw new Error('the account is not inactive');
  return { owner, invoiceId };
}

describe('saved cards', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await newOwner('cards');
  });

  it('saves the first card as the default, shows only its last 4 digits, and says the account has one', async () => {
    expect(await havePaymentProfile(owner)).toBe('false');
    const added = await addCard(owner, CARDS.visa, false);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      cardType: 'visa',
      maskedCardNumber: '**** **** **** 4242',
      expirationMonth: 12,
      defaultPayment: true,
      accountReactivated: false,
    } satisfies Partial<AddPaymentProfileResponse>);
    expect(JSON.stringify(await ledgerOf(owner.organizationId))).not.toContain('4242424242424242');
    expect(await havePaymentProfile(owner)).toBe('true');
  });

  it('adds a second card as not default when asked, sets it default, and removing the default promotes the other', async () => {
    const second = (await addCard(owner, CARDS.mastercard, false)).json() as PaymentProfile;
    expect(second).toMatchObject({ cardType: 'master', defaultPayment: false });
    let cards = await cardsOf(owner);
    expect(cards.map((card) => [card.cardType, card.defaultPayment])).toEqual([
      ['visa', true],
      ['master', false],
    ]);

    const made = await t.app.inject(
      jsonRequest('PUT', `/api/v1/accounts/payment-profiles/${second.id}/default`, undefined, owner.cookie),
    );
    expect(made.statusCode, made.body).toBe(200);
    cards = await cardsOf(owner);
    expect(cards.filter((card) => card.defaultPayment).map((card) => card.id)).toEqual([second.id]);

    const removed = await t.app.inject(
      jsonRequest('DELETE', `/api/v1/accounts/payment-profiles/${second.id}`, undefined, owner.cookie),
    );
    expect(removed.statusCode).toBe(204);
    cards = await cardsOf(owner);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ cardType: 'visa', defaultPayment: true });

    await t.app.inject(
      jsonRequest('DELETE', `/api/v1/accounts/payment-profiles/${cards[0]?.id}`, undefined, owner.cookie),
    );
    expect(await cardsOf(owner)).toEqual([]);
    expect(await havePaymentProfile(owner)).toBe('false');
  });

  it.each([
    [CARDS.declined, 402, 'CARD_DECLINED', 'Your card was declined.'],
    [CARDS.jcb, 422, 'CARD_NOT_SUPPORTED', 'Your card is not supported.'],
  ])('refuses card %s with %s %s and keeps nothing', async (number, status, code, message) => {
    const refused = await addCard(owner, number);
    expect(expectApiError(refused, status, code).message).toBe(message);
    expect(await cardsOf(owner)).toEqual([]);
  });

  it('makes the customer again when the gateway lost it, and charges the card under the new one', async () => {
    const lost = await newOwner('lost-customer');
    await t.database.db
      .update(schema.organization)
      .set({ gatewayCustomerRef: 'cus_lost_by_the_gateway' })
      .where(eq(schema.organization.id, lost.organizationId));
    const added = await addCard(lost, CARDS.visa);
    expect(added.statusCode, added.body).toBe(201);
    const [organization] = await t.database.db
      .select({ customerRef: schema.organization.gatewayCustomerRef })
      .from(schema.organization)
      .where(eq(schema.organization.id, lost.organizationId));
    expect(organization?.customerRef).toMatch(/^cus_(?!lost)/);
    const paid = await t.app.inject(
      jsonRequest(
        'POST',
        '/api/v1/accounts/topup',
        { amount: 1, paymentProfileId: (added.json() as PaymentProfile).id },
        lost.cookie,
      ),
    );
    expect(paid.statusCode, paid.body).toBe(201);
  });

  it('refuses a token used once already', async () => {
    const token = await cardToken(owner, CARDS.visa);
    const body = { token };
    expect(
      (await t.app.inject(jsonRequest('POST', '/api/v1/accounts/payment-profiles', body, owner.cookie)))
        .statusCode,
    ).toBe(201);
    expectApiError(
      await t.app.inject(jsonRequest('POST', '/api/v1/accounts/payment-profiles', body, owner.cookie)),
      400,
      'CARD_TOKEN_INVALID',
    );
    expect(await cardsOf(owner)).toHaveLength(1);
  });

  it("answers 404 for another organisation's card, and changes nothing", async () => {
    const [card] = await cardsOf(owner);
    const other = await newOwner('other-cards');
    for (const request of [
      jsonRequest('DELETE', `/api/v1/accounts/payment-profiles/${card?.id}`, undefined, other.cookie),
      jsonRequest('PUT', `/api/v1/accounts/payment-profiles/${card?.id}/default`, undefined, other.cookie),
      jsonRequest('POST', '/api/v1/accounts/topup', { amount: 10, paymentProfileId: card?.id }, other.cookie),
    ]) {
      expectApiError(await t.app.inject(request), 404, 'NOT_FOUND');
    }
    expect(await cardsOf(owner)).toHaveLength(1);
  });
});

describe('top-up', () => {
  it.each([
    // billing country, free-credit flag, amount → charged, tax, free credit, balance after (USD)
    ['SG', true, 1000, 1035.5, 85.5, 50, 1000],
    ['SG', false, 1000, 1090, 90, 0, 1000],
    ['US', true, 999.99, 999.99, 0, 0, 999.99],
    ['SG', true, 5000, 4905, 405, 500, 5000],
  ])(
    'in %s with free credit %s, %s USD charges %s (tax %s, free credit %s) and raises the balance to %s',
    async (country, freeCredit, amount, total, tax, free, balance) => {
      const owner = await newOwner('top-up');
      await t.database.db
        .update(schema.organization)
        .set({ billingCountry: country, isFreeCredit: freeCredit })
        .where(eq(schema.organization.id, owner.organizationId));
      const token = await cardToken(owner, CARDS.visa);
      const response = await t.app.inject(
        jsonRequest('POST', '/api/v1/accounts/topup', { amount, token }, owner.cookie),
      );
      expect(response.statusCode, response.body).toBe(201);
      const topUp = response.json() as TopUpResponse;
      expect(topUp).toMatchObject({
        amount,
        freeCredit: free,
        tax,
        total,
        balance,
        accountReactivated: false,
      });

      const ledger = await ledgerOf(owner.organizationId);
      const charged = ledger.find((row) => row.type === 'topup');
      expect(charged).toMatchObject({
        status: 'paid',
        amountCents: Math.round(total * 100),
        paymentAmountCents: Math.round(total * 100),
        taxAmountCents: Math.round(tax * 100),
      });
      expect(ledger.filter((row) => row.type === 'service_credit').map((row) => row.amountCents)).toEqual(
        free > 0 ? [Math.round(free * 100)] : [],
      );
      expect(charged?.creditTransactionId ?? null).toBe(
        free > 0 ? (ledger.find((row) => row.type === 'service_credit')?.id ?? null) : null,
      );
      const movements = await balanceMovements(t.database.db, owner.organizationId);
      expect(movements.reduce((sum, movement) => sum + movement.amountCents, 0)).toBe(
        Math.round(balance * 100),
      );
      expect((await organizationRow(t.database.db, owner.organizationId)).balanceCents).toBe(
        Math.round(balance * 100),
      );
      const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner.cookie));
      expect((me.json() as { balance: number }).balance).toBe(balance);

      const [attempt] = await attemptsOf(owner.organizationId);
      expect(attempt).toMatchObject({ status: 'succeeded', amountCents: Math.round(total * 100) });
      expect(await sandboxChargesFor(attempt?.idempotencyKey ?? '')).toHaveLength(1);
      await untilMail(t.app, owner.email, 'receipt');
    },
  );

  it.each([
    [CARDS.declined, 'CARD_DECLINED'],
    [CARDS.insufficientFunds, 'CARD_INSUFFICIENT_FUNDS'],
  ])(
    'a top-up with card %s is refused with %s and leaves no ledger row and no balance change',
    async (number, code) => {
      const owner = await newOwner('refused-top-up');
      const token = await cardToken(owner, number);
      expectApiError(
        await t.app.inject(
          jsonRequest('POST', '/api/v1/accounts/topup', { amount: 100, token }, owner.cookie),
        ),
        402,
        code,
      );
      expect(await ledgerOf(owner.organizationId)).toEqual([]);
      expect(await balanceMovements(t.database.db, owner.organizationId)).toEqual([]);
      expect((await attemptsOf(owner.organizationId)).map((attempt) => attempt.status)).toEqual(['refused']);
    },
  );

  it('pays with a saved card', async () => {
    const owner = await newOwner('saved-card-top-up');
    const card = (await addCard(owner, CARDS.visa)).json() as PaymentProfile;
    const response = await t.app.inject(
      jsonRequest('POST', '/api/v1/accounts/topup', { amount: 20, paymentProfileId: card.id }, owner.cookie),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json() as TopUpResponse).balance).toBe(20);
  });

  it('is refused to a flat-rate account, whose invoices are paid by card', async () => {
    const owner = await newOwner('flat-rate-top-up');
    await t.database.db
      .update(schema.organization)
      .set({ contractType: 'flat_rate' })
      .where(eq(schema.organization.id, owner.organizationId));
    const token = await cardToken(owner, CARDS.visa);
    expectApiError(
      await t.app.inject(jsonRequest('POST', '/api/v1/accounts/topup', { amount: 100, token }, owner.cookie)),
      409,
      'TOP_UP_NOT_AVAILABLE',
    );
    expect(await attemptsOf(owner.organizationId)).toEqual([]);
  });

  it('pays what an inactive account owes from the new balance, and reactivates it', async () => {
    const { owner, invoiceId } = await inactiveOwner('top-up-inactive');
    const token = await cardToken(owner, CARDS.visa);
    const response = await t.app.inject(
      jsonRequest('POST', '/api/v1/accounts/topup', { amount: 100, token }, owner.cookie),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ balance: 86, accountReactivated: true });
    const invoice = (await ledgerOf(owner.organizationId)).find((row) => row.id === invoiceId);
    expect(invoice).toMatchObject({ status: 'paid', paymentAmountCents: 1400 });
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('active');
  });
});

describe('paying an invoice', () => {
  it('charges what is due, marks the invoice paid, reactivates the account, and cannot be paid twice', async () => {
    const { owner, invoiceId } = await inactiveOwner('pay-invoice');
    const token = await cardToken(owner, CARDS.visa);
    const paid = await t.app.inject(
      jsonRequest('POST', `/api/v1/transactions/${invoiceId}/pay`, { token }, owner.cookie),
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      status: 'paid',
      paidAmount: 14,
      accountReactivated: true,
    } satisfies Partial<PayTransactionResponse>);
    const summary = await t.app.inject(
      jsonRequest('GET', `/api/v1/transactions/${invoiceId}/payment-summary`, undefined, owner.cookie),
    );
    expect(summary.json()).toMatchObject({ paidAmount: 14, dueAmount: 0 });
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('active');

    const again = await t.app.inject(
      jsonRequest(
        'POST',
        `/api/v1/transactions/${invoiceId}/pay`,
        { token: await cardToken(owner, CARDS.visa) },
        owner.cookie,
      ),
    );
    expectApiError(again, 409, 'TRANSACTION_NOT_PAYABLE');
    expect(
      (await attemptsOf(owner.organizationId)).filter((attempt) => attempt.status === 'succeeded'),
    ).toHaveLength(1);
    await untilMail(t.app, owner.email, 'receipt');
  });

  it('a refused card leaves the invoice open and the account inactive', async () => {
    const { owner, invoiceId } = await inactiveOwner('pay-refused');
    const token = await cardToken(owner, CARDS.insufficientFunds);
    expectApiError(
      await t.app.inject(
        jsonRequest('POST', `/api/v1/transactions/${invoiceId}/pay`, { token }, owner.cookie),
      ),
      402,
      'CARD_INSUFFICIENT_FUNDS',
    );
    const invoice = (await ledgerOf(owner.organizationId)).find((row) => row.id === invoiceId);
    expect(invoice).toMatchObject({ status: 'open', paymentAmountCents: 0 });
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('inactive');
  });

  it('50 pays of one invoice at once charge the card once', async () => {
    const { owner, invoiceId } = await inactiveOwner('pay-concurrently');
    const card = (await addCardWithoutPaying(owner)).id;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject(
          jsonRequest(
            'POST',
            `/api/v1/transactions/${invoiceId}/pay`,
            { paymentProfileId: card },
            owner.cookie,
          ),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const attempts = await attemptsOf(owner.organizationId);
    expect(attempts).toHaveLength(1);
    expect(await sandboxChargesFor(attempts[0]?.idempotencyKey ?? '')).toHaveLength(1);
    const invoice = (await ledgerOf(owner.organizationId)).find((row) => row.id === invoiceId);
    expect(invoice).toMatchObject({ status: 'paid', paymentAmountCents: 1400 });
  });

  it("answers 404 for another organisation's invoice and for an id of no transaction", async () => {
    const { invoiceId } = await inactiveOwner('pay-owner');
    const other = await newOwner('pay-other');
    const token = await cardToken(other, CARDS.visa);
    for (const id of [String(invoiceId), '999999999']) {
      expectApiError(
        await t.app.inject(jsonRequest('POST', `/api/v1/transactions/${id}/pay`, { token }, other.cookie)),
        404,
        'NOT_FOUND',
      );
    }
    expect(await attemptsOf(other.organizationId)).toEqual([]);
  });

  it('adding a card to an inactive account pays what is due with it and reactivates the account', async () => {
    const { owner, invoiceId } = await inactiveOwner('card-reactivates');
    const added = await addCard(owner, CARDS.visa);
    expect(added.statusCode, added.body).toBe(201);
    expect((added.json() as AddPaymentProfileResponse).accountReactivated).toBe(true);
    const invoice = (await ledgerOf(owner.organizationId)).find((row) => row.id === invoiceId);
    expect(invoice).toMatchObject({ status: 'paid' });
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('active');
  });

  it('a card refused for what an inactive account owes is not kept', async () => {
    const { owner } = await inactiveOwner('card-refused-inactive');
    expectApiError(await addCard(owner, CARDS.insufficientFunds), 402, 'CARD_INSUFFICIENT_FUNDS');
    expect(await cardsOf(owner)).toEqual([]);
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('inactive');
  });
});

/**
 * What a kill between writing an attempt and settling it leaves: the invoice being paid and the
 * attempt pending, written a minute ago.
 */
async function pendingInvoiceAttempt(
  owner: Owner,
  invoiceId: number,
  idempotencyKey: string,
  sourceToken: string,
) {
  const [attempt] = await t.database.db.transaction(async (tx) => {
    await tx
      .update(schema.ledgerTransaction)
      .set({ status: 'processing' })
      .where(eq(schema.ledgerTransaction.id, invoiceId));
    return tx
      .insert(schema.paymentAttempt)
      .values({
        organizationId: owner.organizationId,
        idempotencyKey,
        purpose: 'invoice',
        invoiceTransactionId: invoiceId,
        amountCents: 1400,
        sourceToken,
        createdAt: new Date(Date.now() - 60_000),
      })
      .returning();
  });
  if (!attempt) throw new Error('no attempt');
  return attempt;
}

describe('reconciliation', () => {
  it('settles once an attempt whose charge the gateway made but whose ledger write a crash cut off', async () => {
    const { owner, invoiceId } = await inactiveOwner('reconcile');
    const token = await cardToken(owner, CARDS.visa);
    // The state a kill between the gateway's answer and the ledger write leaves: the invoice being
    // paid, the attempt pending, and the charge made at the gateway.
    const attempt = await pendingInvoiceAttempt(owner, invoiceId, `crash-${invoiceId}`, token);
    const charged = await t.app.paymentGateway.charge({
      amountCents: 1400,
      idempotencyKey: attempt.idempotencyKey,
      description: 'the charge before the crash',
      source: { token },
    });
    expect(charged.outcome).toBe('succeeded');

    const deps = { db: t.database.db, payments: t.app.payments, log: t.app.log };
    expect(await reconcilePaymentAttempts(deps, new Date())).toMatchObject({ succeeded: 1 });
    expect(await reconcilePaymentAttempts(deps, new Date())).toEqual({
      succeeded: 0,
      refused: 0,
      pending: 0,
    });

    expect(await sandboxChargesFor(attempt.idempotencyKey)).toHaveLength(1);
    const invoice = (await ledgerOf(owner.organizationId)).find((row) => row.id === invoiceId);
    expect(invoice).toMatchObject({ status: 'paid', paymentAmountCents: 1400 });
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('active');
  });

  it('an attempt the gateway never saw is refused on reconciliation once its token is no good, and the invoice is open again', async () => {
    const { owner, invoiceId } = await inactiveOwner('reconcile-unseen');
    const attempt = await pendingInvoiceAttempt(owner, invoiceId, `unseen-${invoiceId}`, 'tok_never_issued');
    expect(await t.app.payments.reconcile(attempt)).toBe('refused');
    const invoice = (await ledgerOf(owner.organizationId)).find((row) => row.id === invoiceId);
    expect(invoice?.status).toBe('open');
    const attempts = await t.database.db
      .select()
      .from(schema.paymentAttempt)
      .where(
        and(
          eq(schema.paymentAttempt.organizationId, owner.organizationId),
          eq(schema.paymentAttempt.status, 'refused'),
        ),
      );
    expect(attempts).toHaveLength(1);
  });
});

/** Saves a card on an account without the save paying its debts: the card is added before the account is inactive. */
async function addCardWithoutPaying(owner: Owner): Promise<PaymentProfile> {
  await t.database.db
    .update(schema.organization)
    .set({ accountStatus: 'active', inactiveReason: null })
    .where(eq(schema.organization.id, owner.organizationId));
  const added = await addCard(owner, CARDS.visa);
  await t.database.db
    .update(schema.organization)
    .set({ accountStatus: 'inactive', inactiveReason: 'billing' })
    .where(eq(schema.organization.id, owner.organizationId));
  return added.json() as PaymentProfile;
}

describe('low-balance warning', () => {
  it("warns an active PAYG account whose balance is below last month's charge, once a month", async () => {
    const owner = await newOwner('low-balance');
    await newApplicationWithUsage(t.database.db, owner.organizationId, {
      plan: 'max',
      billingCycle: '2025-05',
      mau: 100,
    });
    await t.database.db
      .update(schema.organization)
      .set({ balanceCents: 2000 })
      .where(eq(schema.organization.id, owner.organizationId));
    await monthlyRunService({ db: t.database.db, productName: 'Social' }).runMonthlyBilling({
      cycle: '2025-05',
      organizationId: owner.organizationId,
    });
    // 20.00 paid May's 14.00: 6.00 is left, less than a month like May.
    const deps = { db: t.database.db, jobQueue: t.app.jobQueue };
    const june = new Date('2025-06-10T00:00:00Z');
    expect(await warnLowBalances(deps, june)).toContain(owner.organizationId);
    expect(await warnLowBalances(deps, new Date('2025-06-20T00:00:00Z'))).not.toContain(owner.organizationId);
    const mails = await untilMail(t.app, owner.email, 'running low');
    const warnings = mails.filter((mail) => mail.subject.includes('running low'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).toContain("is USD 6.00, less than last month's charge of USD 14.00");
    // In July, June's charge is what counts: there was none, so no warning.
    expect(await warnLowBalances(deps, new Date('2025-07-02T00:00:00Z'))).not.toContain(owner.organizationId);
  });
});

describe("writes named with another organisation's id change nothing", () => {
  it('cards and invoices stay as they were', async () => {
    const { owner, invoiceId } = await inactiveOwner('scoped-writes');
    const card = await addCardWithoutPaying(owner);
    const other = await newOwner('scoped-writes-other');
    await t.database.db.transaction(async (tx) => {
      expect(await setDefaultPaymentProfile(tx, other.organizationId, card.id)).toBe(false);
      expect(await deletePaymentProfile(tx, other.organizationId, card.id)).toBeUndefined();
      expect(await claimTransactionForPayment(tx, other.organizationId, invoiceId)).toBeUndefined();
      await finishTransactionPayment(tx, other.organizationId, invoiceId, {
        paidCents: 1400,
        paidAt: new Date(),
      });
    });
    const [kept] = await cardsOf(owner);
    expect(kept).toMatchObject({ id: card.id, defaultPayment: true });
    const invoice = (await ledgerOf(owner.organizationId)).find((row) => row.id === invoiceId);
    expect(invoice).toMatchObject({ status: 'open', paymentAmountCents: 0 });
  });
});

describe('a card added to an account inactive for billing, owing nothing', () => {
  it('reactivates the account at once', async () => {
    const owner = await newOwner('inactive-owing-nothing');
    await t.database.db
      .update(schema.organization)
      .set({ accountStatus: 'inactive', inactiveReason: 'billing' })
      .where(eq(schema.organization.id, owner.organizationId));
    const added = await addCard(owner, CARDS.visa);
    expect(added.statusCode, added.body).toBe(201);
    expect((added.json() as AddPaymentProfileResponse).accountReactivated).toBe(true);
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('active');
    expect(await attemptsOf(owner.organizationId)).toEqual([]);
  });
});
