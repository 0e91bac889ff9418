import type {
  CreateMiscellaneousChargeResponse,
  PayTransactionResponse,
  PaymentSummary,
  Transaction,
  VoidMiscellaneousChargeResponse,
} from '@portal/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { organizationRow } from './billing-fixtures.ts';
import { SANDBOX_CARDS, sandboxCardToken, topUpWithSandboxCard } from './card-fixtures.ts';
import {
  accountOf,
  expectApiError,
  jsonRequest,
  setUpOrganization,
  untilMail,
  useTestApp,
} from './helper.ts';
import { operatorApi } from './operator-fixtures.ts';

/*
 * Miscellaneous charges (decision 040): an operator raises one through the operator API, once per
 * idempotency key, with the billing country's tax added; the organisation's owner sees it in billing
 * and pays it by card exactly once through POST /transactions/{id}/pay; nobody else can.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-miscellaneous-charges-test';
const t = useTestApp({ OPERATOR_TOKEN });
const operator = operatorApi(t, OPERATOR_TOKEN);

interface Owner {
  cookie: string;
  email: string;
  organizationId: string;
}

let ownerCounter = 0;
/** An owner of a new organisation set up in Singapore (tax 9 %). */
async function newOwner(label: string): Promise<Owner> {
  const email = `${label}-${(ownerCounter += 1)}@misc-charges.example.com`;
  const cookie = await setUpOrganization(t.app, email);
  return { cookie, email, organizationId: (await accountOf(t.app, cookie)).organizationId };
}

function chargesPath(reference: string) {
  return `/organizations/${encodeURIComponent(reference)}/charges`;
}

function voidCharge(reference: string, transactionId: string, body: Record<string, unknown>) {
  return operator('POST', `${chargesPath(reference)}/${transactionId}/void`, body);
}

async function raiseCharge(owner: Owner, body: Record<string, unknown>) {
  const response = await operator('POST', chargesPath(owner.organizationId), body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as CreateMiscellaneousChargeResponse;
}

function ledgerOf(organizationId: string) {
  return t.database.db
    .select()
    .from(schema.ledgerTransaction)
    .where(eq(schema.ledgerTransaction.organizationId, organizationId))
    .orderBy(asc(schema.ledgerTransaction.id));
}

function balanceMovementsOf(organizationId: string) {
  return t.database.db
    .select()
    .from(schema.balanceMovement)
    .where(eq(schema.balanceMovement.organizationId, organizationId));
}

function succeededAttemptsOf(organizationId: string) {
  return t.database.db
    .select()
    .from(schema.paymentAttempt)
    .where(
      and(
        eq(schema.paymentAttempt.organizationId, organizationId),
        eq(schema.paymentAttempt.status, 'succeeded'),
      ),
    );
}

function paymentSummaryOf(owner: Owner, transactionId: string) {
  return t.app.inject(
    jsonRequest('GET', `/api/v1/transactions/${transactionId}/payment-summary`, undefined, owner.cookie),
  );
}

function pay(owner: Owner, transactionId: string, body: Record<string, unknown>) {
  return t.app.inject(jsonRequest('POST', `/api/v1/transactions/${transactionId}/pay`, body, owner.cookie));
}

async function payWithNewCard(owner: Owner, transactionId: string) {
  return pay(owner, transactionId, {
    token: await sandboxCardToken(t.app, owner.cookie, SANDBOX_CARDS.visa),
  });
}

describe('raising a miscellaneous charge', () => {
  it("opens one transaction of type other with the notes and the billing country's tax, moving no balance", async () => {
    const owner = await newOwner('raise');
    const bystander = await newOwner('raise-bystander');
    const charge = await raiseCharge(owner, { amount: '120.00', notes: 'Onboarding workshop' });
    expect(charge).toMatchObject({
      status: 'open',
      notes: 'Onboarding workshop',
      amount: 120,
      tax: 10.8,
      taxPercentage: 9,
      total: 130.8,
      alreadyCreated: false,
    } satisfies Partial<CreateMiscellaneousChargeResponse>);
    expect(charge.transactionId).toMatch(/^\d{9}$/);

    expect(await ledgerOf(owner.organizationId)).toEqual([
      expect.objectContaining({
        id: Number(charge.transactionId),
        type: 'other',
        status: 'open',
        amountCents: 13080,
        taxAmountCents: 1080,
        taxRatePercent: '9.00',
        paymentAmountCents: 0,
        notes: 'Onboarding workshop',
        billingCycle: null,
        invoiceType: null,
      }),
    ]);
    expect(await balanceMovementsOf(owner.organizationId)).toEqual([]);
    expect(await ledgerOf(bystander.organizationId)).toEqual([]);
    // An open miscellaneous charge is paid by card when the customer chooses: it does not make the account inactive.
    expect((await organizationRow(t.database.db, owner.organizationId)).accountStatus).toBe('active');
  });

  it("finds the organisation by a member's address, as the other operator commands do", async () => {
    const owner = await newOwner('by-email');
    const response = await operator('POST', chargesPath(owner.email.toUpperCase()), {
      amount: '5.00',
      notes: 'Courier',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(await ledgerOf(owner.organizationId)).toHaveLength(1);
  });

  it('answers 404 for an organisation nobody has', async () => {
    for (const reference of ['3c1d8a52-6f0e-4b7a-9d21-5e8f4a7b6c90', 'nobody@nowhere.example.com']) {
      expectApiError(
        await operator('POST', chargesPath(reference), { amount: '5.00', notes: 'x' }),
        404,
        'NOT_FOUND',
      );
    }
  });

  it.each([
    [{ amount: '0', notes: 'x' }, 'amount'],
    [{ amount: '0.00', notes: 'x' }, 'amount'],
    [{ amount: '-5.00', notes: 'x' }, 'amount'],
    [{ amount: '5.001', notes: 'x' }, 'amount'],
    [{ amount: '1e3', notes: 'x' }, 'amount'],
    [{ amount: 5, notes: 'x' }, 'amount'],
    [{ amount: '100000.01', notes: 'x' }, 'amount'],
    [{ notes: 'x' }, 'amount'],
    [{ amount: '5.00' }, 'notes'],
    [{ amount: '5.00', notes: '   ' }, 'notes'],
    [{ amount: '5.00', notes: 'n'.repeat(501) }, 'notes'],
    [{ amount: '5.00', notes: 'x', idempotencyKey: '' }, 'idempotencyKey'],
    [{ amount: '5.00', notes: 'x', idempotencyKey: 'k'.repeat(101) }, 'idempotencyKey'],
  ])('refuses %j with 400 naming %s, and writes nothing', async (body, field) => {
    const owner = await newOwner('invalid');
    const body400 = expectApiError(
      await operator('POST', chargesPath(owner.organizationId), body),
      400,
      'VALIDATION_ERROR',
    );
    expect(body400.field, JSON.stringify(body400)).toBe(field);
    expect(await ledgerOf(owner.organizationId)).toEqual([]);
  });

  it('takes the largest amount allowed', async () => {
    const owner = await newOwner('largest');
    const charge = await raiseCharge(owner, { amount: '100000.00', notes: 'Data migration project' });
    expect(charge).toMatchObject({ amount: 100000, tax: 9000, total: 109000 });
  });
});

describe('the operator token guards raising a charge', () => {
  it.each([
    ['no credential', {}],
    ['a wrong token', { authorization: 'Bearer not-the-operator-token' }],
  ])('refuses %s with 401 before reading the body, and writes nothing', async (_label, headers) => {
    const owner = await newOwner('token');
    const request = jsonRequest('POST', `/api/operator/v1${chargesPath(owner.organizationId)}`, {
      amount: '5.00',
      notes: 'x',
    });
    expectApiError(
      await t.app.inject({ ...request, headers: { ...request.headers, ...headers } }),
      401,
      'UNAUTHORIZED',
    );
    expect(await ledgerOf(owner.organizationId)).toEqual([]);
  });

  it("refuses the organisation owner's own session", async () => {
    const owner = await newOwner('owner-session');
    expectApiError(
      await t.app.inject(
        jsonRequest(
          'POST',
          `/api/operator/v1${chargesPath(owner.organizationId)}`,
          { amount: '5.00', notes: 'x' },
          owner.cookie,
        ),
      ),
      401,
      'UNAUTHORIZED',
    );
    expect(await ledgerOf(owner.organizationId)).toEqual([]);
  });
});

describe('raising a charge again with its idempotency key', () => {
  it('raises it once however often, even at once, and answers the charge raised', async () => {
    const owner = await newOwner('idempotent');
    const body = { amount: '42.50', notes: 'Extra support hours', idempotencyKey: 'SUP-4711' };
    const answers = await Promise.all(
      [1, 2, 3].map(() => operator('POST', chargesPath(owner.organizationId), body)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 201]);
    const charges = answers.map((answer) => answer.json() as CreateMiscellaneousChargeResponse);
    expect(new Set(charges.map((charge) => charge.transactionId)).size).toBe(1);
    expect(charges.filter((charge) => !charge.alreadyCreated)).toHaveLength(1);
    expect(charges.map((charge) => charge.total)).toEqual([46.33, 46.33, 46.33]);
    expect(await ledgerOf(owner.organizationId)).toHaveLength(1);

    const anotherKey = await operator('POST', chargesPath(owner.organizationId), {
      ...body,
      idempotencyKey: 'SUP-4712',
    });
    expect(anotherKey.statusCode).toBe(201);
    expect(await ledgerOf(owner.organizationId)).toHaveLength(2);
  });

  it('refuses the key with another amount or notes, or one a credit grant used, and writes nothing', async () => {
    const owner = await newOwner('key-reused');
    const first = { amount: '5.00', notes: 'First', idempotencyKey: 'reused-key' };
    await raiseCharge(owner, first);
    const granted = await operator('POST', `/organizations/${owner.organizationId}/credits`, {
      amount: '1.00',
      note: 'Goodwill',
      idempotencyKey: 'credit-key',
    });
    expect(granted.statusCode, granted.body).toBe(201);
    for (const changed of [
      { ...first, amount: '6.00' },
      { ...first, notes: 'Second' },
      { ...first, idempotencyKey: 'credit-key' },
    ]) {
      const refused = expectApiError(
        await operator('POST', chargesPath(owner.organizationId), changed),
        409,
        'IDEMPOTENCY_KEY_REUSED',
      );
      expect(refused.field).toBe('idempotencyKey');
    }
    expect(await ledgerOf(owner.organizationId)).toHaveLength(2);
  });
});

describe('paying a miscellaneous charge by card', () => {
  it('shows in billing with its notes and what is due, is paid once, and cannot be paid again', async () => {
    const owner = await newOwner('pay');
    const charge = await raiseCharge(owner, { amount: '120.00', notes: 'Onboarding workshop' });

    const listed = await t.app.inject(jsonRequest('GET', '/api/v1/transactions', undefined, owner.cookie));
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as { data: Transaction[] }).data).toEqual([
      expect.objectContaining({
        transactionId: charge.transactionId,
        type: 'other',
        status: 'open',
        amount: 130.8,
        taxAmount: 10.8,
        notes: 'Onboarding workshop',
        invoiceId: null,
      }),
    ]);
    const summary = await paymentSummaryOf(owner, charge.transactionId);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toEqual({
      invoiceId: null,
      subTotal: 120,
      discountAmount: 0,
      taxes: [{ title: 'Tax', percentage: 9, taxAmount: 10.8 }],
      totalAmount: 130.8,
      creditAmount: 0,
      paidAmount: 0,
      dueAmount: 130.8,
    } satisfies PaymentSummary);

    const paid = await payWithNewCard(owner, charge.transactionId);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      transactionId: charge.transactionId,
      status: 'paid',
      paidAmount: 130.8,
      accountReactivated: false,
    } satisfies Partial<PayTransactionResponse>);
    const [row] = await ledgerOf(owner.organizationId);
    expect(row).toMatchObject({ status: 'paid', paymentAmountCents: 13080 });
    expect(row?.paidAt).toBeInstanceOf(Date);
    // A card pays it; the prepaid balance is not touched.
    expect(await balanceMovementsOf(owner.organizationId)).toEqual([]);

    expectApiError(await payWithNewCard(owner, charge.transactionId), 409, 'TRANSACTION_NOT_PAYABLE');
    const attempts = await succeededAttemptsOf(owner.organizationId);
    expect(attempts).toEqual([
      expect.objectContaining({ amountCents: 13080, resultTransactionId: Number(charge.transactionId) }),
    ]);
    const mails = await untilMail(t.app, owner.email, 'receipt');
    const receipt = mails.find((mail) => mail.subject.includes('receipt'));
    expect(receipt?.text).toContain(`Charge ${charge.transactionId}`);
    expect(receipt?.text).not.toContain('INV-');
  });

  it('10 pays of one charge at once charge a card once', async () => {
    const owner = await newOwner('pay-at-once');
    const charge = await raiseCharge(owner, { amount: '10.00', notes: 'Courier' });
    const tokens = await Promise.all(
      Array.from({ length: 10 }, () => sandboxCardToken(t.app, owner.cookie, SANDBOX_CARDS.visa)),
    );
    const answers = await Promise.all(tokens.map((token) => pay(owner, charge.transactionId, { token })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect(await succeededAttemptsOf(owner.organizationId)).toHaveLength(1);
    expect((await ledgerOf(owner.organizationId))[0]).toMatchObject({
      status: 'paid',
      paymentAmountCents: 1090,
    });
  });

  it("answers 404 for another organisation's charge and an id of no transaction, charging nothing", async () => {
    const owner = await newOwner('pay-owner');
    const other = await newOwner('pay-other');
    const charge = await raiseCharge(owner, { amount: '10.00', notes: 'Courier' });
    for (const id of [charge.transactionId, '999999999']) {
      expectApiError(await payWithNewCard(other, id), 404, 'NOT_FOUND');
    }
    const notAnId = expectApiError(await payWithNewCard(other, 'not-an-id'), 400, 'VALIDATION_ERROR');
    expect(notAnId.field).toBe('id');
    const summary = await paymentSummaryOf(other, charge.transactionId);
    expectApiError(summary, 404, 'NOT_FOUND');
    expect(await succeededAttemptsOf(other.organizationId)).toEqual([]);
    expect((await ledgerOf(owner.organizationId))[0]).toMatchObject({
      status: 'open',
      paymentAmountCents: 0,
    });
  });

  it('is not paid from the prepaid balance: a top-up leaves it open', async () => {
    const owner = await newOwner('top-up');
    const charge = await raiseCharge(owner, { amount: '10.00', notes: 'Courier' });
    const topUp = await topUpWithSandboxCard(t.app, owner.cookie, 100);
    expect(topUp.statusCode, topUp.body).toBe(201);
    const row = (await ledgerOf(owner.organizationId)).find((r) => r.id === Number(charge.transactionId));
    expect(row).toMatchObject({ status: 'open', paymentAmountCents: 0 });
    // A top-up is not a charge: paying it is refused.
    const topUpId = (topUp.json() as { transactionId: string }).transactionId;
    expectApiError(await payWithNewCard(owner, topUpId), 409, 'TRANSACTION_NOT_PAYABLE');
  });
});

describe('voiding a miscellaneous charge', () => {
  const reason = { reason: 'Raised with the wrong amount' };

  it('leaves it voided: shown so in billing, no longer payable, and voided again it answers the same', async () => {
    const owner = await newOwner('void');
    const charge = await raiseCharge(owner, { amount: '120.00', notes: 'Onboarding workshop' });

    const voided = await voidCharge(owner.organizationId, charge.transactionId, reason);
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toEqual({
      transactionId: charge.transactionId,
      status: 'voided',
      notes: 'Onboarding workshop',
      total: 130.8,
      alreadyVoided: false,
    } satisfies VoidMiscellaneousChargeResponse);

    const listed = await t.app.inject(jsonRequest('GET', '/api/v1/transactions', undefined, owner.cookie));
    expect((listed.json() as { data: Transaction[] }).data).toEqual([
      expect.objectContaining({ transactionId: charge.transactionId, type: 'other', status: 'voided' }),
    ]);
    const summary = await paymentSummaryOf(owner, charge.transactionId);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toMatchObject({ totalAmount: 130.8, paidAmount: 0, dueAmount: 0 });
    expectApiError(await payWithNewCard(owner, charge.transactionId), 409, 'TRANSACTION_NOT_PAYABLE');
    expect(await succeededAttemptsOf(owner.organizationId)).toEqual([]);

    // By a member's address too, as the other operator commands find an organisation.
    const again = await voidCharge(owner.email, String(Number(charge.transactionId)), reason);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ transactionId: charge.transactionId, status: 'voided', alreadyVoided: true });
    expect(await ledgerOf(owner.organizationId)).toEqual([expect.objectContaining({ status: 'voided' })]);
  });

  it('refuses a paid charge and a top-up (409), and leaves each as it was', async () => {
    const owner = await newOwner('void-refused');
    const charge = await raiseCharge(owner, { amount: '10.00', notes: 'Courier' });
    expect((await payWithNewCard(owner, charge.transactionId)).statusCode).toBe(200);
    const topUp = await topUpWithSandboxCard(t.app, owner.cookie, 100);
    expect(topUp.statusCode, topUp.body).toBe(201);
    const topUpId = (topUp.json() as { transactionId: string }).transactionId;

    for (const id of [charge.transactionId, topUpId]) {
      const refused = expectApiError(await voidCharge(owner.organizationId, id, reason), 409, 'TRANSACTION_NOT_VOIDABLE');
      expect(refused.field).toBe('transactionId');
    }
    const rows = await ledgerOf(owner.organizationId);
    expect(rows.find((row) => row.id === Number(charge.transactionId))).toMatchObject({ status: 'paid' });
    expect(rows.find((row) => row.id === Number(topUpId))).toMatchObject({ type: 'topup', status: 'paid' });
  });

  it("answers 404 for another organisation's charge and an id of no transaction, 400 for a bad id or no reason", async () => {
    const owner = await newOwner('void-owner');
    const other = await newOwner('void-other');
    const charge = await raiseCharge(owner, { amount: '10.00', notes: 'Courier' });

    for (const id of [charge.transactionId, '999999999']) {
      expectApiError(await voidCharge(other.organizationId, id, reason), 404, 'NOT_FOUND');
    }
    expectApiError(await voidCharge('nobody@nowhere.example.com', charge.transactionId, reason), 404, 'NOT_FOUND');
    const notAnId = expectApiError(await voidCharge(owner.organizationId, 'not-an-id', reason), 400, 'VALIDATION_ERROR');
    expect(notAnId.field).toBe('transactionId');
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const refused = expectApiError(await voidCharge(owner.organizationId, charge.transactionId, body), 400, 'VALIDATION_ERROR');
      expect(refused.field).toBe('reason');
    }
    expect(await ledgerOf(owner.organizationId)).toEqual([expect.objectContaining({ status: 'open' })]);
  });

  it('against payments at the same moment, either the charge is voided and no card charged, or paid and not voided', async () => {
    const owner = await newOwner('void-or-pay');
    const charge = await raiseCharge(owner, { amount: '10.00', notes: 'Courier' });
    const tokens = await Promise.all(
      Array.from({ length: 4 }, () => sandboxCardToken(t.app, owner.cookie, SANDBOX_CARDS.visa)),
    );
    const [voided, ...pays] = await Promise.all([
      voidCharge(owner.organizationId, charge.transactionId, reason),
      ...tokens.map((token) => pay(owner, charge.transactionId, { token })),
    ]);
    const [row] = await ledgerOf(owner.organizationId);
    const attempts = await succeededAttemptsOf(owner.organizationId);
    if (row?.status === 'voided') {
      expect(voided!.statusCode, voided!.body).toBe(200);
      expect(pays.map((answer) => answer.statusCode)).toEqual([409, 409, 409, 409]);
      expect(attempts).toEqual([]);
    } else {
      expect(row).toMatchObject({ status: 'paid', paymentAmountCents: 1090 });
      expectApiError(voided!, 409, 'TRANSACTION_NOT_VOIDABLE');
      expect(pays.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      expect(attempts).toHaveLength(1);
    }
  });
});
