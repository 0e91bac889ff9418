import type { PaymentProfile } from '@portal/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { deleteExpiredCardAttempts } from '../src/modules/payments/card-attempts.ts';
import {
  CARDS,
  billMay2025,
  cardAttemptsOf,
  cardRequest,
  expectLimited,
  freshIp,
  newPayer,
  saveCard,
  topUp,
  type Payer,
} from './card-abuse-support.ts';
import { sandboxCardToken } from './card-fixtures.ts';
import { expectApiError, joinOrganization, useTestApp } from './helper.ts';

/*
 * Card abuse through the portal API against the sandbox gateway it hosts: brands the portal does not
 * take are refused before any charge, however the card is named, and card testing is stopped by the
 * card-attempt limits (3 declines per member, 5 per organisation, 10 per IP within 10 minutes).
 */
const t = useTestApp();

let payers = 0;
const payer = (label: string, ip?: string) =>
  newPayer(t.app, `${label}-${(payers += 1)}@card-abuse.example.com`, ip);

/** An organisation with May 2025's invoice (USD 14.00) open, unpaid. */
async function payerWithOpenInvoice(label: string) {
  const owner = await payer(label);
  const run = await billMay2025(t.database.db, owner.organizationId);
  const invoiceId = run.billed[0]?.transactionId;
  if (!invoiceId) throw new Error('no invoice was made');
  return { owner, invoiceId };
}

async function invoiceStatus(organizationId: string, invoiceId: number) {
  const [invoice] = await t.database.db
    .select({ status: schema.ledgerTransaction.status })
    .from(schema.ledgerTransaction)
    .where(
      and(
        eq(schema.ledgerTransaction.organizationId, organizationId),
        eq(schema.ledgerTransaction.id, invoiceId),
      ),
    );
  return invoice?.status;
}

async function paymentAttemptsOf(organizationId: string) {
  return t.database.db
    .select()
    .from(schema.paymentAttempt)
    .where(eq(schema.paymentAttempt.organizationId, organizationId));
}

async function pay(owner: Payer, invoiceId: number, card: string | { paymentProfileId: string }) {
  const source =
    typeof card === 'string' ? { token: await sandboxCardToken(t.app, owner.cookie, card) } : card;
  return cardRequest(t.app, owner, 'POST', `/api/v1/transactions/${invoiceId}/pay`, source);
}

/**
 * A saved card of a brand the portal does not take, as a card saved before the rule or by another
 * way would be: kept at the gateway under the organisation's customer, with its row.
 */
async function savedCardOfBrand(owner: Payer, number: string, brand: string): Promise<string> {
  const sandbox = (path: string, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/card-sandbox${path}`,
      headers: {
        authorization: `Bearer ${(t.app.paymentGateway as unknown as { secretKey: string }).secretKey}`,
      },
      payload,
    });
  const customer = (await sandbox('/v1/customers', {})).json() as { id: string };
  await t.database.db
    .update(schema.organization)
    .set({ gatewayCustomerRef: customer.id })
    .where(eq(schema.organization.id, owner.organizationId));
  const token = await sandboxCardToken(t.app, owner.cookie, number);
  const saved = await sandbox('/v1/payment-methods', { token, customer: customer.id });
  expect(saved.statusCode, saved.body).toBe(200);
  const id = crypto.randomUUID();
  await t.database.db.execute(
    sql`INSERT INTO payment_profile (id, organization_id, provider, payment_method_ref, card_type, last4, exp_month, exp_year, is_default)
        VALUES (${id}, ${owner.organizationId}, 'sandbox', ${(saved.json() as { id: string }).id}, ${brand}, '0000', 12, 2040, true)`,
  );
  return id;
}

describe('brands the portal does not take are never charged', () => {
  it.each([
    ['JCB', CARDS.jcb],
    ['Diners', CARDS.diners],
    ['UnionPay', CARDS.unionpay],
    ['an unknown brand', CARDS.unknown],
  ])('a top-up with a one-time token of %s is refused, and nothing is charged', async (_brand, number) => {
    const owner = await payer('top-up-brand');
    const refused = await topUp(t.app, owner, number);
    expect(expectApiError(refused, 422, 'CARD_NOT_SUPPORTED').message).toBe('Your card is not supported.');
    expect(await paymentAttemptsOf(owner.organizationId)).toEqual([]);
    const ledger = await t.database.db
      .select()
      .from(schema.ledgerTransaction)
      .where(eq(schema.ledgerTransaction.organizationId, owner.organizationId));
    expect(ledger).toEqual([]);
  });

  it('an invoice paid with a one-time JCB token is refused, and the invoice stays open', async () => {
    const { owner, invoiceId } = await payerWithOpenInvoice('pay-brand');
    expectApiError(await pay(owner, invoiceId, CARDS.jcb), 422, 'CARD_NOT_SUPPORTED');
    expect(await invoiceStatus(owner.organizationId, invoiceId)).toBe('open');
    expect(await paymentAttemptsOf(owner.organizationId)).toEqual([]);
    // The same invoice is paid with a card the portal takes.
    expect((await pay(owner, invoiceId, CARDS.visa)).statusCode).toBe(200);
  });

  it('a saved card of a brand the portal does not take pays neither a top-up nor an invoice', async () => {
    const { owner, invoiceId } = await payerWithOpenInvoice('saved-brand');
    const unionpay = await savedCardOfBrand(owner, CARDS.unionpay, 'unionpay');
    expectApiError(await topUp(t.app, owner, { paymentProfileId: unionpay }), 422, 'CARD_NOT_SUPPORTED');
    expectApiError(await pay(owner, invoiceId, { paymentProfileId: unionpay }), 422, 'CARD_NOT_SUPPORTED');
    expect(await invoiceStatus(owner.organizationId, invoiceId)).toBe('open');
    expect(await paymentAttemptsOf(owner.organizationId)).toEqual([]);
  });

  it('saving a card of a brand the portal does not take never has the gateway check it', async () => {
    const owner = await payer('save-brand');
    const token = await sandboxCardToken(t.app, owner.cookie, CARDS.diners);
    const refused = await cardRequest(t.app, owner, 'POST', '/api/v1/accounts/payment-profiles', { token });
    expectApiError(refused, 422, 'CARD_NOT_SUPPORTED');
    const [organization] = await t.database.db
      .select({
        customerRef: schema.organization.gatewayCustomerRef,
        hasCards: schema.organization.hasPaymentProfile,
      })
      .from(schema.organization)
      .where(eq(schema.organization.id, owner.organizationId));
    expect(organization).toEqual({ customerRef: null, hasCards: false });
    const rows = await t.database.query<{ used: boolean }>(
      {
        name: 'card-abuse-token-used',
        text: 'SELECT used_at IS NOT NULL AS used FROM card_sandbox.tokens WHERE id = $1',
      },
      [token],
    );
    expect(rows).toEqual([{ used: false }]);
  });
});

describe('tokens the gateway does not know', () => {
  it.each(['tok_never_issued', '..', '.', 'a/b', '%2e%2e', 'tail\udfff', 'tok_caf\u00e9'])(
    'refuses %s with CARD_TOKEN_INVALID, not counted',
    async (token) => {
      const owner = await payer('unknown-token');
      for (const [url, body] of [
        ['/api/v1/accounts/payment-profiles', { token }],
        ['/api/v1/accounts/topup', { amount: 1, token }],
      ] as const) {
        expectApiError(await cardRequest(t.app, owner, 'POST', url, body), 400, 'CARD_TOKEN_INVALID');
      }
      expect(await cardAttemptsOf(t.database.db, owner.organizationId)).toEqual([]);
    },
  );
});

describe('card attempts are limited', () => {
  it('a member gets 3 declines in 10 minutes, then 429 with Retry-After, whatever the card and the purpose', async () => {
    const owner = await payer('member-limit');
    expect(expectApiError(await saveCard(t.app, owner, CARDS.declined), 402, 'CARD_DECLINED').message).toBe(
      'Your card was declined.',
    );
    expect(
      expectApiError(await topUp(t.app, owner, CARDS.insufficientFunds), 402, 'CARD_INSUFFICIENT_FUNDS')
        .message,
    ).toBe('Your card has insufficient funds.');
    expectApiError(await topUp(t.app, owner, CARDS.declined), 402, 'CARD_DECLINED');
    // A good card too: the limit is on trying cards, not on bad ones, or testing would go on.
    const token = await sandboxCardToken(t.app, owner.cookie, CARDS.visa);
    const limited = await cardRequest(t.app, owner, 'POST', '/api/v1/accounts/payment-profiles', { token });
    expectLimited(limited);
    expectLimited(await topUp(t.app, owner, CARDS.visa));
    // Refused before the gateway saw the card: the token is still good, once the declines have aged.
    await t.database.db
      .update(schema.cardAttempt)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(schema.cardAttempt.memberId, owner.memberId));
    const saved = await cardRequest(t.app, owner, 'POST', '/api/v1/accounts/payment-profiles', { token });
    expect(saved.statusCode, saved.body).toBe(201);
  });

  it('Retry-After is the time until the oldest counted decline leaves the window', async () => {
    const owner = await payer('retry-after');
    for (let index = 0; index < 3; index += 1) {
      expectApiError(await saveCard(t.app, owner, CARDS.declined), 402, 'CARD_DECLINED');
    }
    expect(expectLimited(await saveCard(t.app, owner, CARDS.declined))).toBeGreaterThan(500);
    const [oldest] = await cardAttemptsOf(t.database.db, owner.organizationId);
    await t.database.db
      .update(schema.cardAttempt)
      .set({ createdAt: sql`now() - interval '9 minutes'` })
      .where(eq(schema.cardAttempt.id, oldest!.id));
    const retryAfter = expectLimited(await saveCard(t.app, owner, CARDS.declined));
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('successful payments do not count: an honest payer is never locked out', async () => {
    const owner = await payer('honest');
    for (let index = 0; index < 6; index += 1) {
      expect((await topUp(t.app, owner, CARDS.visa)).statusCode).toBe(201);
    }
    const saved = await saveCard(t.app, owner, CARDS.visa);
    expect(saved.statusCode).toBe(201);
    const card = (saved.json() as PaymentProfile).id;
    for (let index = 0; index < 3; index += 1) {
      expectApiError(await saveCard(t.app, owner, CARDS.declined), 402, 'CARD_DECLINED');
    }
    expectLimited(await topUp(t.app, owner, { paymentProfileId: card }));
  });

  it('an organisation gets 5 declines in 10 minutes, whichever of its members tries', async () => {
    const owner = await payer('organization-limit');
    const superAdmin = async (label: string) => {
      const joined = await joinOrganization(
        t,
        `${label}-${(payers += 1)}@card-abuse.example.com`,
        owner.organizationId,
        'portal.super-admin',
      );
      return { ...joined, organizationId: owner.organizationId, ip: freshIp() };
    };
    const first = await superAdmin('first');
    const second = await superAdmin('second');
    for (let index = 0; index < 3; index += 1) {
      expectApiError(await saveCard(t.app, first, CARDS.declined), 402, 'CARD_DECLINED');
    }
    for (let index = 0; index < 2; index += 1) {
      expectApiError(await saveCard(t.app, second, CARDS.declined), 402, 'CARD_DECLINED');
    }
    // The second super-admin has tried twice only, the owner never: the organisation is at its limit.
    expectLimited(await saveCard(t.app, second, CARDS.declined));
    expectLimited(await topUp(t.app, owner, CARDS.visa));
  });

  it('an address gets 10 declines in 10 minutes across organisations', async () => {
    const ip = freshIp();
    const organizations: Payer[] = [];
    for (let index = 0; index < 4; index += 1) organizations.push(await payer('ip-limit', ip));
    for (const [index, owner] of organizations.entries()) {
      const tries = index < 3 ? 3 : 1;
      for (let attempt = 0; attempt < tries; attempt += 1) {
        expectApiError(await saveCard(t.app, owner, CARDS.declined), 402, 'CARD_DECLINED');
      }
    }
    const fourth = organizations[3]!;
    expectLimited(await saveCard(t.app, fourth, CARDS.declined));
    // The same member from another address is counted per member and organisation only.
    expectApiError(await saveCard(t.app, { ...fourth, ip: freshIp() }, CARDS.declined), 402, 'CARD_DECLINED');
  });

  it('an invoice being paid already is not a card attempt; a declined pay is', async () => {
    const { owner, invoiceId } = await payerWithOpenInvoice('pay-limit');
    for (let index = 0; index < 3; index += 1) {
      expectApiError(await pay(owner, invoiceId, CARDS.declined), 402, 'CARD_DECLINED');
    }
    expectLimited(await pay(owner, invoiceId, CARDS.visa));
    expect(await invoiceStatus(owner.organizationId, invoiceId)).toBe('open');
    expect(
      (await cardAttemptsOf(t.database.db, owner.organizationId)).map((row) => [row.purpose, row.outcome]),
    ).toEqual([
      ['invoice', 'declined'],
      ['invoice', 'declined'],
      ['invoice', 'declined'],
    ]);
  });

  it('40 declined saves at once are 3 declines and 37 refusals, never more', async () => {
    const owner = await payer('concurrent');
    const tokens = await Promise.all(
      Array.from({ length: 40 }, () => sandboxCardToken(t.app, owner.cookie, CARDS.declined)),
    );
    const answers = await Promise.all(
      tokens.map((token) =>
        cardRequest(t.app, owner, 'POST', '/api/v1/accounts/payment-profiles', { token }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 402)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(37);
    expect((await cardAttemptsOf(t.database.db, owner.organizationId)).map((row) => row.outcome)).toEqual([
      'declined',
      'declined',
      'declined',
    ]);
  });

  it('attempts past the window are removed, by the next attempt of their keys and by the schedule', async () => {
    const owner = await payer('cleanup');
    const other = await payer('cleanup-idle');
    for (const who of [owner, other]) {
      expectApiError(await saveCard(t.app, who, CARDS.declined), 402, 'CARD_DECLINED');
    }
    await t.database.db
      .update(schema.cardAttempt)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(inArray(schema.cardAttempt.organizationId, [owner.organizationId, other.organizationId]));
    expectApiError(await saveCard(t.app, owner, CARDS.declined), 402, 'CARD_DECLINED');
    expect(await cardAttemptsOf(t.database.db, owner.organizationId)).toHaveLength(1);
    expect(await cardAttemptsOf(t.database.db, other.organizationId)).toHaveLength(1);
    expect(await deleteExpiredCardAttempts(t.database.db)).toBeGreaterThanOrEqual(1);
    expect(await cardAttemptsOf(t.database.db, other.organizationId)).toEqual([]);
    expect(await cardAttemptsOf(t.database.db, owner.organizationId)).toHaveLength(1);
  });
});
