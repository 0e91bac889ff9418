import {
  padTransactionId,
  type AddPaymentProfileResponse,
  type AuditAction,
  type AuditLogEntry,
  type PayTransactionResponse,
  type TopUpResponse,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import { inactivateForOverdueInvoices } from '../src/modules/ledger/ledger.service.ts';
import { reconcilePaymentAttempts } from '../src/modules/payments/payments.jobs.ts';
import {
  FLAT_RATE_CONTRACT,
  FLAT_RATE_USAGE,
  newApplicationWithUsage,
  newOrganization,
  organizationRow,
} from './billing-fixtures.ts';
import {
  accountStatusChange,
  auditEntries,
  newAuditedOwner,
  storedAuditRows,
  withAuditEntriesRefused,
  type AuditedOwner,
} from './audit-log-support.ts';
import { BILLING_UPDATE } from './access-outcomes.ts';
import { billMay2025, freshIp } from './card-abuse-support.ts';
import { sandboxCardToken } from './card-fixtures.ts';
import { expectApiError, jsonRequest, useTestApp } from './helper.ts';

/*
 * Cards, top-ups, invoice payments and the account status in the organisation's audit log: each
 * recorded once in the transaction of its change, as the member's when the member did it and as
 * the system's when a settlement, a job or the reconciliation did; a card only ever by its brand
 * and last four digits; a change whose entry cannot be written is not kept.
 */
const t = useTestApp();

const USER_AGENT = 'audit-billing-browser/1.0';
const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
};
/** What no entry may hold: card numbers, card tokens, the gateway's references and secret key. */
const secrets = new Set<string>(Object.values(CARDS));

/** An owner, and an address of its own that its requests come from (the card-attempt limits count by it). */
type Owner = AuditedOwner & { ip: string };

let owners = 0;
async function newOwner(label: string): Promise<Owner> {
  const owner = await newAuditedOwner(t.app, `${label}-${(owners += 1)}@audit-billing.example.com`);
  return { ...owner, ip: freshIp() };
}

/** A request as the owner's browser sends it, from the owner's address, with a user agent the entries must carry. */
function browserRequest(
  owner: Owner,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const request = jsonRequest(method, url, body, owner.cookie);
  return t.app.inject({
    ...request,
    headers: { ...request.headers, 'user-agent': USER_AGENT },
    remoteAddress: owner.ip,
  });
}

async function cardToken(owner: Owner, number: string) {
  const token = await sandboxCardToken(t.app, owner.cookie, number);
  secrets.add(token);
  return token;
}

function addCard(owner: Owner, token: string, setAsDefault?: boolean) {
  return browserRequest(owner, 'POST', '/api/v1/accounts/payment-profiles', { token, setAsDefault });
}

async function topUp(owner: Owner, amount: number, number = CARDS.visa) {
  return browserRequest(owner, 'POST', '/api/v1/accounts/topup', {
    amount,
    token: await cardToken(owner, number),
  });
}

/** The owner's entries of a group, newest first. */
function entriesOf(owner: Owner, group: 'billing' | 'account') {
  return auditEntries(t.app, owner.cookie, `&actionGroup=${group}`);
}

/** The only entry of `action` among `entries`: each change is recorded once. */
function onlyEntry(entries: AuditLogEntry[], action: AuditAction): AuditLogEntry {
  const found = entries.filter((entry) => entry.action === action);
  expect(found, `${action} in ${JSON.stringify(entries)}`).toHaveLength(1);
  return found[0]!;
}

function expectMadeByOwner(
  entry: AuditLogEntry,
  owner: Owner,
  response: { headers: Record<string, unknown> },
) {
  expect(entry.actor).toEqual({ kind: 'member', memberId: owner.memberId, email: owner.email });
  expect(entry.ip).toBe(owner.ip);
  expect(entry.userAgent).toBe(USER_AGENT);
  expect(entry.requestId).toBe(response.headers['x-request-id']);
}

/** The entry of an invoice paid in full (USD 14.00) from the balance or by card. */
function expectInvoicePaid(entry: AuditLogEntry, invoiceId: string, paidWith: 'balance' | 'card') {
  expect(entry).toMatchObject({
    target: { type: 'transaction', id: invoiceId, name: `INV-${invoiceId}` },
    changes: {
      status: { before: 'open', after: 'paid' },
      paid: { after: '14.00' },
      currency: { after: 'USD' },
      paidWith: { after: paidWith },
    },
  });
}

function expectMadeBySystem(entry: AuditLogEntry) {
  expect(entry.actor).toEqual({ kind: 'system', memberId: null, email: null });
  expect([entry.ip, entry.userAgent, entry.requestId]).toEqual([null, null, null]);
}

/** An owner whose account May 2025's billing run made inactive: its invoice of USD 14.00 is open. */
async function inactiveOwner(label: string) {
  const owner = await newOwner(label);
  const { billed, becameInactive } = await billMay2025(t.database.db, owner.organizationId);
  expect(becameInactive).toEqual([owner.organizationId]);
  return { owner, invoiceId: padTransactionId(billed[0]!.transactionId) };
}

const EXPIRY = `12/${new Date().getUTCFullYear() + 2}`;

beforeAll(() => {
  const gateway = t.app.paymentGateway as unknown as { secretKey?: string };
  if (gateway.secretKey) secrets.add(gateway.secretKey);
});

describe('billing details', () => {
  it('records the fields of the billing details that changed, by the member, and nothing when none did', async () => {
    const owner = await newOwner('details');
    const saved = await browserRequest(owner, 'PUT', '/api/v1/accounts', BILLING_UPDATE);
    expect(saved.statusCode, saved.body).toBe(200);
    const [entry] = await entriesOf(owner, 'billing');
    expect(entry).toMatchObject({
      action: 'billing.information_changed',
      target: { type: 'organization', id: owner.organizationId, name: 'Acme' },
    });
    // The setup gave the name, the person and the country; the form adds the address.
    expect(entry!.changes).toEqual({
      billingAddress: { before: '', after: BILLING_UPDATE.billingAddress },
      billingState: { before: '', after: BILLING_UPDATE.billingState },
      billingZipCode: { before: '', after: BILLING_UPDATE.billingZipCode },
    });
    expectMadeByOwner(entry!, owner, saved);

    expect((await browserRequest(owner, 'PUT', '/api/v1/accounts', BILLING_UPDATE)).statusCode).toBe(200);
    expect(await entriesOf(owner, 'billing')).toHaveLength(1);
    const withVat = { ...BILLING_UPDATE, organization: 'Acme Pte', vatNumber: 'M2-1234567-8' };
    expect((await browserRequest(owner, 'PUT', '/api/v1/accounts', withVat)).statusCode).toBe(200);
    const [vat] = await entriesOf(owner, 'billing');
    expect(vat!.target.name).toBe('Acme Pte');
    expect(vat!.changes).toEqual({
      organization: { before: 'Acme', after: 'Acme Pte' },
      vatNumber: { before: '', after: 'M2-1234567-8' },
    });
  });

  it('keeps the billing details whose entry cannot be written', async () => {
    const owner = await newOwner('details-unrecorded');
    await withAuditEntriesRefused(t.database.db, `action = 'billing.information_changed'`, async () => {
      expect((await browserRequest(owner, 'PUT', '/api/v1/accounts', BILLING_UPDATE)).statusCode).toBe(500);
    });
    expect((await organizationRow(t.database.db, owner.organizationId)).billingAddress).toBe('');
  });
});

describe('cards', () => {
  it('records a card added, made the default and removed, each once, by its brand and last four digits', async () => {
    const owner = await newOwner('cards');
    const visaAdded = await addCard(owner, await cardToken(owner, CARDS.visa));
    expect(visaAdded.statusCode, visaAdded.body).toBe(201);
    const visa = visaAdded.json() as AddPaymentProfileResponse;
    const [visaEntry] = await entriesOf(owner, 'billing');
    expect(visaEntry).toMatchObject({
      action: 'billing.card_added',
      actionGroup: 'billing',
      target: { type: 'card', id: visa.id, name: 'VISA •••• 4242' },
      changes: { expiry: { after: EXPIRY }, default: { after: true } },
    });
    expectMadeByOwner(visaEntry!, owner, visaAdded);

    const mastercardAdded = await addCard(owner, await cardToken(owner, CARDS.mastercard), false);
    expect(mastercardAdded.statusCode, mastercardAdded.body).toBe(201);
    const mastercard = mastercardAdded.json() as AddPaymentProfileResponse;
    const [mastercardEntry] = await entriesOf(owner, 'billing');
    expect(mastercardEntry).toMatchObject({
      action: 'billing.card_added',
      target: { type: 'card', id: mastercard.id, name: 'Mastercard •••• 4444' },
      changes: { default: { after: false } },
    });

    const url = `/api/v1/accounts/payment-profiles/${mastercard.id}`;
    const madeDefault = await browserRequest(owner, 'PUT', `${url}/default`);
    expect(madeDefault.statusCode, madeDefault.body).toBe(200);
    const [defaultEntry] = await entriesOf(owner, 'billing');
    expect(defaultEntry).toMatchObject({
      action: 'billing.card_made_default',
      target: { type: 'card', id: mastercard.id, name: 'Mastercard •••• 4444' },
      changes: { default: { before: false, after: true } },
    });
    expectMadeByOwner(defaultEntry!, owner, madeDefault);
    // The default already: nothing changes, nothing is recorded.
    expect((await browserRequest(owner, 'PUT', `${url}/default`)).statusCode).toBe(200);
    expect(await entriesOf(owner, 'billing')).toHaveLength(3);

    const refs = await t.database.db
      .select({ ref: schema.paymentProfile.paymentMethodRef })
      .from(schema.paymentProfile)
      .where(eq(schema.paymentProfile.organizationId, owner.organizationId));
    for (const { ref } of refs) secrets.add(ref);
    const removed = await browserRequest(owner, 'DELETE', url);
    expect(removed.statusCode, removed.body).toBe(204);
    const [takenOver, removal, ...earlier] = await entriesOf(owner, 'billing');
    expect(removal).toMatchObject({
      action: 'billing.card_removed',
      target: { type: 'card', id: mastercard.id, name: 'Mastercard •••• 4444' },
      changes: { default: { before: true } },
    });
    expectMadeByOwner(removal!, owner, removed);
    expect(takenOver).toMatchObject({
      action: 'billing.card_made_default',
      target: { type: 'card', id: visa.id, name: 'VISA •••• 4242' },
      changes: { default: { before: false, after: true }, reason: { after: 'default_card_removed' } },
    });
    expectMadeByOwner(takenOver!, owner, removed);
    expect(earlier.map((entry) => entry.action)).toEqual([
      'billing.card_made_default',
      'billing.card_added',
      'billing.card_added',
    ]);
  });

  it('records nothing for a card the gateway refuses', async () => {
    const owner = await newOwner('declined');
    expectApiError(await addCard(owner, await cardToken(owner, CARDS.declined)), 402, 'CARD_DECLINED');
    expect(await entriesOf(owner, 'billing')).toEqual([]);
  });

  it('keeps no card whose entry cannot be written', async () => {
    const owner = await newOwner('card-unrecorded');
    const token = await cardToken(owner, CARDS.visa);
    await withAuditEntriesRefused(t.database.db, `action = 'billing.card_added'`, async () => {
      expect((await addCard(owner, token)).statusCode).toBe(500);
    });
    const cards = await browserRequest(owner, 'GET', '/api/v1/accounts/payment-profiles');
    expect(cards.json()).toEqual([]);
    expect((await organizationRow(t.database.db, owner.organizationId)).hasPaymentProfile).toBe(false);
    expect(await entriesOf(owner, 'billing')).toEqual([]);
  });
});

describe('top-ups and invoices', () => {
  it('records a top-up paid by card with its amount and currency, and the invoice the balance then pays as the system', async () => {
    const owner = await newOwner('top-up');
    const topped = await topUp(owner, 100);
    expect(topped.statusCode, topped.body).toBe(201);
    const result = topped.json() as TopUpResponse;
    const topUpEntry = onlyEntry(await entriesOf(owner, 'billing'), 'billing.top_up');
    expect(topUpEntry).toMatchObject({
      target: { type: 'transaction', id: result.transactionId, name: result.transactionId },
      changes: {
        amount: { after: '100.00' },
        currency: { after: 'USD' },
        charged: { after: result.total.toFixed(2) },
        card: { after: 'VISA •••• 4242' },
      },
    });
    expectMadeByOwner(topUpEntry, owner, topped);

    // May's charge is paid from the balance by the billing run: no member paid it.
    const run = await billMay2025(t.database.db, owner.organizationId);
    expect(run.billed[0]).toMatchObject({ status: 'paid', paidCents: 1400 });
    const invoiceId = padTransactionId(run.billed[0]!.transactionId);
    const paid = onlyEntry(await entriesOf(owner, 'billing'), 'billing.invoice_paid');
    expectInvoicePaid(paid, invoiceId, 'balance');
    expectMadeBySystem(paid);
    expect(await entriesOf(owner, 'account')).toEqual([]);
  });

  it("records a month the trial's credit covers as an invoice paid with that credit, by the system", async () => {
    const owner = await newOwner('trial');
    // A trial ending with May covers all of May's charge.
    await t.database.db
      .update(schema.organization)
      .set({ trialEndAt: new Date('2025-06-01T00:00:00Z') })
      .where(eq(schema.organization.id, owner.organizationId));
    const run = await billMay2025(t.database.db, owner.organizationId);
    expect(run.billed[0]).toMatchObject({ status: 'paid', creditCents: 1400, paidCents: 0 });
    const paid = onlyEntry(await entriesOf(owner, 'billing'), 'billing.invoice_paid');
    expect(paid.changes).toMatchObject({
      paid: { after: '0.00' },
      paidWith: { after: 'credit' },
      credit: { after: '14.00' },
    });
    expectMadeBySystem(paid);
  });

  it("records the account made inactive by the billing run, and a top-up's balance paying the invoice and making it active, as the system's", async () => {
    const { owner, invoiceId } = await inactiveOwner('inactive-top-up');
    const [inactive] = await entriesOf(owner, 'account');
    expect(inactive).toMatchObject(
      accountStatusChange(
        owner.organizationId,
        'inactive',
        { before: null, after: 'billing' },
        'balance_exhausted',
      ),
    );
    expectMadeBySystem(inactive!);

    const topped = await topUp(owner, 50);
    expect(topped.statusCode, topped.body).toBe(201);
    expect((topped.json() as TopUpResponse).accountReactivated).toBe(true);
    const billing = await entriesOf(owner, 'billing');
    expectMadeByOwner(onlyEntry(billing, 'billing.top_up'), owner, topped);
    const paid = onlyEntry(billing, 'billing.invoice_paid');
    expectInvoicePaid(paid, invoiceId, 'balance');
    expectMadeBySystem(paid);
    const account = await entriesOf(owner, 'account');
    expect(account.map((entry) => entry.action)).toEqual(['account.made_active', 'account.made_inactive']);
    expect(account[0]).toMatchObject(
      accountStatusChange(owner.organizationId, 'active', { before: 'billing', after: null }, 'nothing_due'),
    );
    expectMadeBySystem(account[0]!);
  });

  it("records an invoice paid by the member's card, and the account the payment makes active", async () => {
    const { owner, invoiceId } = await inactiveOwner('pay-invoice');
    const token = await cardToken(owner, CARDS.visa);
    const payment = await browserRequest(owner, 'POST', `/api/v1/transactions/${invoiceId}/pay`, { token });
    expect(payment.statusCode, payment.body).toBe(200);
    expect((payment.json() as PayTransactionResponse).accountReactivated).toBe(true);
    const paid = onlyEntry(await entriesOf(owner, 'billing'), 'billing.invoice_paid');
    expectInvoicePaid(paid, invoiceId, 'card');
    expect(paid.changes.card).toEqual({ after: 'VISA •••• 4242' });
    expectMadeByOwner(paid, owner, payment);
    const madeActive = onlyEntry(await entriesOf(owner, 'account'), 'account.made_active');
    expect(madeActive.changes.reason).toEqual({ after: 'nothing_due' });
    expectMadeBySystem(madeActive);

    // Paid already: a second payment is refused and records nothing.
    const before = (await storedAuditRows(t.database.db, owner.organizationId)).length;
    const again = await browserRequest(owner, 'POST', `/api/v1/transactions/${invoiceId}/pay`, {
      token: await cardToken(owner, CARDS.visa),
    });
    expectApiError(again, 409, 'TRANSACTION_NOT_PAYABLE');
    expect(await storedAuditRows(t.database.db, owner.organizationId)).toHaveLength(before);
  });

  it('records a card saved on an inactive account, the invoice it pays and the account made active', async () => {
    const { owner, invoiceId } = await inactiveOwner('card-pays');
    const added = await addCard(owner, await cardToken(owner, CARDS.visa));
    expect(added.statusCode, added.body).toBe(201);
    const billing = await entriesOf(owner, 'billing');
    expect(billing.map((entry) => entry.action)).toEqual(['billing.invoice_paid', 'billing.card_added']);
    expectInvoicePaid(billing[0]!, invoiceId, 'card');
    for (const entry of billing) expectMadeByOwner(entry, owner, added);
    expectMadeBySystem(onlyEntry(await entriesOf(owner, 'account'), 'account.made_active'));
  });

  it('records a card refused for what an inactive account owes as added, then removed by the portal', async () => {
    const { owner } = await inactiveOwner('card-refused');
    const refused = await addCard(owner, await cardToken(owner, CARDS.insufficientFunds));
    expectApiError(refused, 402, 'CARD_INSUFFICIENT_FUNDS');
    const [removal, addition] = await entriesOf(owner, 'billing');
    expect(addition).toMatchObject({ action: 'billing.card_added' });
    expect(removal).toMatchObject({
      action: 'billing.card_removed',
      target: { id: addition!.target.id, name: addition!.target.name },
      changes: { reason: { after: 'payment_refused' } },
    });
    expectMadeByOwner(removal!, owner, refused);
    expect(onlyEntry(await entriesOf(owner, 'account'), 'account.made_inactive')).toBeDefined();
  });

  it("keeps no top-up whose entry cannot be written; the reconciliation settles the charge later as the system's", async () => {
    const owner = await newOwner('top-up-unrecorded');
    await withAuditEntriesRefused(t.database.db, `action = 'billing.top_up'`, async () => {
      expect((await topUp(owner, 20)).statusCode).toBe(500);
    });
    expect((await organizationRow(t.database.db, owner.organizationId)).balanceCents).toBe(0);
    const topUps = await t.database.db
      .select()
      .from(schema.ledgerTransaction)
      .where(eq(schema.ledgerTransaction.organizationId, owner.organizationId));
    expect(topUps).toEqual([]);
    expect(await entriesOf(owner, 'billing')).toEqual([]);

    // The card was charged: the attempt stays pending until the reconciliation asks the gateway again.
    const deps = { db: t.database.db, payments: t.app.payments, log: t.app.log };
    expect(await reconcilePaymentAttempts(deps, new Date())).toMatchObject({ succeeded: 1 });
    const recorded = onlyEntry(await entriesOf(owner, 'billing'), 'billing.top_up');
    expect(recorded.changes).toMatchObject({ amount: { after: '20.00' }, currency: { after: 'USD' } });
    expectMadeBySystem(recorded);
    expect((await organizationRow(t.database.db, owner.organizationId)).balanceCents).toBeGreaterThan(0);
  });
});

describe('flat-rate invoices left open', () => {
  it('records the account made inactive by the overdue-invoice sweep, once', async () => {
    const organizationId = await newOrganization(t.database.db, { ...FLAT_RATE_CONTRACT, name: 'Flat Co' });
    for (const usage of FLAT_RATE_USAGE) {
      await newApplicationWithUsage(t.database.db, organizationId, { ...usage, billingCycle: '2025-05' });
    }
    const run = await monthlyRunService({ db: t.database.db, productName: 'Social' }).runMonthlyBilling({
      cycle: '2025-05',
      organizationId,
    });
    expect(run.billed[0]?.status).toBe('open');
    const sweptAt = new Date(Date.now() + 31 * 86_400_000);
    await inactivateForOverdueInvoices(t.database.db, sweptAt);
    await inactivateForOverdueInvoices(t.database.db, sweptAt);
    const rows = await storedAuditRows(t.database.db, organizationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'account.made_inactive',
      actorKind: 'system',
      targetType: 'organization',
      targetId: organizationId,
      targetName: 'Flat Co',
      ip: null,
      changes: accountStatusChange(
        organizationId,
        'inactive',
        { before: null, after: 'billing' },
        'unpaid_invoice',
      ).changes,
    });
  });
});

describe('secrets', () => {
  it('no entry holds a card number, a card token, a gateway reference or its secret key', async () => {
    const attempts = await t.database.db.select().from(schema.paymentAttempt);
    const organizations = await t.database.db.select().from(schema.organization);
    const profiles = await t.database.db.select().from(schema.paymentProfile);
    for (const attempt of attempts) {
      for (const ref of [
        attempt.sourceToken,
        attempt.chargeRef,
        attempt.paymentMethodRef,
        attempt.customerRef,
      ]) {
        if (ref) secrets.add(ref);
      }
    }
    for (const organization of organizations)
      if (organization.gatewayCustomerRef) secrets.add(organization.gatewayCustomerRef);
    for (const profile of profiles) secrets.add(profile.paymentMethodRef);

    const entries = await t.database.db.select().from(schema.auditLogEntry);
    expect(entries.filter((entry) => entry.actionGroup === 'billing').length).toBeGreaterThan(10);
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect(text, secret).not.toContain(secret);
    expect(text).not.toMatch(/cvc/i);
  });
});
