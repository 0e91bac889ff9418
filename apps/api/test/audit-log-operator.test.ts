import type { AddressInfo } from 'node:net';
import type {
  AuditLogEntry,
  CreateMiscellaneousChargeResponse,
  GrantCreditResponse,
  RunBillingResponse,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK, main } from '../src/cli/portal-cli.ts';
import * as schema from '../src/db/schema.ts';
import {
  accountStatusChange,
  auditEntries,
  newAuditedOwner,
  storedAuditRows,
  withAuditEntriesRefused,
  type AuditedOwner,
} from './audit-log-support.ts';
import { newApplicationWithUsage, organizationRow } from './billing-fixtures.ts';
import { billMay2025 } from './card-abuse-support.ts';
import { enrolAuthenticator, jsonRequest, useTestApp } from './helper.ts';

/*
 * The operator's changes to an organisation in its audit log: each recorded once, as the
 * operator's (no member, no email) from the operator request's origin, with the fields that
 * changed; a repeat that changes nothing records nothing; the billing run records only what it
 * changes per organisation, as the system; a change whose entry cannot be written is not kept.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-audit-log-test';
const t = useTestApp({ OPERATOR_TOKEN });
const API = '/api/operator/v1';
const OPERATOR_AGENT = 'portal-operator-test/1.0';

let owners = 0;
function newOwner(label: string): Promise<AuditedOwner> {
  return newAuditedOwner(t.app, `${label}-${(owners += 1)}@audit-operator.example.com`);
}

function operator(method: InjectOptions['method'], url: string, body?: unknown) {
  const request = jsonRequest(method, `${API}${url}`, body);
  return t.app.inject({
    ...request,
    headers: { ...request.headers, authorization: `Bearer ${OPERATOR_TOKEN}`, 'user-agent': OPERATOR_AGENT },
  });
}

/** The owner's entries of the operator's group (or another), newest first. */
function entriesOf(owner: AuditedOwner, group = 'operator') {
  return auditEntries(t.app, owner.cookie, `&actionGroup=${group}`);
}

function expectMadeByOperator(entry: AuditLogEntry, response: { headers: Record<string, unknown> }) {
  expect(entry.actor).toEqual({ kind: 'operator', memberId: null, email: null });
  expect(entry.ip).toBe('127.0.0.1');
  expect(entry.userAgent).toBe(OPERATOR_AGENT);
  expect(entry.requestId).toBe(response.headers['x-request-id']);
}

let owner: AuditedOwner;
beforeAll(async () => {
  owner = await newOwner('operated');
});

describe("the operator's changes to an organisation", () => {
  it('records a contract change with the fields that changed, and nothing for the same contract again', async () => {
    const contract = {
      type: 'flat_rate',
      licenseMau: 1000,
      licenseFee: '499.00',
      overagePlan: 'max',
      supportPlan: 'Gold',
      supportPlanFee: '100',
    };
    const changed = await operator('PUT', `/organizations/${owner.organizationId}/contract`, contract);
    expect(changed.statusCode, changed.body).toBe(200);
    const [entry] = await entriesOf(owner);
    expect(entry).toMatchObject({
      action: 'operator.contract_changed',
      actionGroup: 'operator',
      target: { type: 'organization', id: owner.organizationId, name: 'Acme' },
      changes: {
        contractType: { before: 'payg', after: 'flat_rate' },
        licenseMau: { before: 0, after: 1000 },
        licenseFee: { before: '0.00', after: '499.00' },
        overagePlan: { before: 'advance', after: 'max' },
        supportPlan: { before: '', after: 'Gold' },
        supportPlanFee: { before: '0.00', after: '100.00' },
      },
    });
    expectMadeByOperator(entry!, changed);

    expect(
      (await operator('PUT', `/organizations/${owner.organizationId}/contract`, contract)).statusCode,
    ).toBe(200);
    expect(await entriesOf(owner)).toHaveLength(1);
    const back = await operator('PUT', `/organizations/${owner.organizationId}/contract`, { type: 'payg' });
    expect(back.statusCode, back.body).toBe(200);
    const [payg] = await entriesOf(owner);
    expect(payg!.changes).toMatchObject({ contractType: { before: 'flat_rate', after: 'payg' } });
  });

  it('records new limits, a billing country and the free-credit switch, each with only what changed', async () => {
    const { applicationLimit, isFreeCredit, billingCountry } = await organizationRow(
      t.database.db,
      owner.organizationId,
    );
    const url = `/organizations/${encodeURIComponent(owner.email)}`;
    const limits = await operator('PUT', `${url}/limits`, { applications: applicationLimit + 5 });
    expect(limits.statusCode, limits.body).toBe(200);
    const country = await operator('PUT', `${url}/billing-country`, { country: 'JP' });
    expect(country.statusCode, country.body).toBe(200);
    const freeCredit = await operator('PUT', `${url}/free-credit`, { enabled: !isFreeCredit });
    expect(freeCredit.statusCode, freeCredit.body).toBe(200);

    const [freeCreditEntry, countryEntry, limitsEntry] = await entriesOf(owner);
    expect(limitsEntry).toMatchObject({ action: 'operator.limits_changed' });
    expect(limitsEntry!.changes).toEqual({
      applicationLimit: { before: applicationLimit, after: applicationLimit + 5 },
    });
    expectMadeByOperator(limitsEntry!, limits);
    expect(countryEntry).toMatchObject({
      action: 'operator.billing_country_changed',
    });
    expect(countryEntry!.changes).toEqual({ billingCountry: { before: billingCountry, after: 'JP' } });
    expectMadeByOperator(countryEntry!, country);
    expect(freeCreditEntry).toMatchObject({ action: 'operator.free_credit_changed' });
    expect(freeCreditEntry!.changes).toEqual({ freeCredit: { before: isFreeCredit, after: !isFreeCredit } });
    expectMadeByOperator(freeCreditEntry!, freeCredit);
  });

  it('records credit granted and a charge raised once, however often their idempotency keys are sent', async () => {
    const url = `/organizations/${owner.organizationId}`;
    const credit = { amount: '25.00', note: 'Goodwill for the outage', idempotencyKey: 'audit-credit-1' };
    const granted = await operator('POST', `${url}/credits`, credit);
    expect(granted.statusCode, granted.body).toBe(201);
    const grant = granted.json() as GrantCreditResponse;
    expect((await operator('POST', `${url}/credits`, credit)).statusCode).toBe(200);

    const charge = { amount: '10.00', notes: 'Onboarding workshop', idempotencyKey: 'audit-charge-1' };
    const raised = await operator('POST', `${url}/charges`, charge);
    expect(raised.statusCode, raised.body).toBe(201);
    const raisedCharge = raised.json() as CreateMiscellaneousChargeResponse;
    expect((await operator('POST', `${url}/charges`, charge)).statusCode).toBe(200);

    const entries = await entriesOf(owner);
    const [chargeEntry, creditEntry] = entries;
    expect(entries.filter((entry) => entry.action === 'operator.credit_granted')).toHaveLength(1);
    expect(entries.filter((entry) => entry.action === 'operator.charge_raised')).toHaveLength(1);
    expect(creditEntry).toMatchObject({
      action: 'operator.credit_granted',
      target: { type: 'transaction', id: grant.transactionId, name: grant.transactionId },
      changes: {
        amount: { after: '25.00' },
        currency: { after: 'USD' },
        note: { after: 'Goodwill for the outage' },
        balance: { before: '0.00', after: '25.00' },
      },
    });
    expectMadeByOperator(creditEntry!, granted);
    expect(chargeEntry).toMatchObject({
      action: 'operator.charge_raised',
      target: { type: 'transaction', id: raisedCharge.transactionId },
      changes: {
        amount: { after: '10.00' },
        tax: { after: raisedCharge.tax.toFixed(2) },
        total: { after: raisedCharge.total.toFixed(2) },
        currency: { after: 'USD' },
        notes: { after: 'Onboarding workshop' },
      },
    });
    expectMadeByOperator(chargeEntry!, raised);
  });

  it('records a charge voided once, with why, however often it is voided', async () => {
    const url = `/organizations/${owner.organizationId}`;
    const raised = await operator('POST', `${url}/charges`, { amount: '40.00', notes: 'Courier' });
    expect(raised.statusCode, raised.body).toBe(201);
    const charge = raised.json() as CreateMiscellaneousChargeResponse;
    const reason = { reason: 'Raised for the wrong organisation' };
    const voided = await operator('POST', `${url}/charges/${charge.transactionId}/void`, reason);
    expect(voided.statusCode, voided.body).toBe(200);
    expect((await operator('POST', `${url}/charges/${charge.transactionId}/void`, reason)).statusCode).toBe(200);

    const entries = await entriesOf(owner);
    expect(entries.filter((entry) => entry.action === 'operator.charge_voided')).toHaveLength(1);
    const [voidEntry] = entries;
    expect(voidEntry).toMatchObject({
      action: 'operator.charge_voided',
      target: { type: 'transaction', id: charge.transactionId },
      changes: {
        status: { before: 'open', after: 'voided' },
        total: { before: charge.total.toFixed(2) },
        reason: { after: 'Raised for the wrong organisation' },
      },
    });
    expectMadeByOperator(voidEntry!, voided);
  });

  it('grants no credit whose entry cannot be written', async () => {
    const { balanceCents } = await organizationRow(t.database.db, owner.organizationId);
    await withAuditEntriesRefused(t.database.db, `action = 'operator.credit_granted'`, async () => {
      const refused = await operator('POST', `/organizations/${owner.organizationId}/credits`, {
        amount: '5.00',
        note: 'Never granted',
      });
      expect(refused.statusCode).toBe(500);
    });
    expect((await organizationRow(t.database.db, owner.organizationId)).balanceCents).toBe(balanceCents);
    const credits = await t.database.db
      .select()
      .from(schema.ledgerTransaction)
      .where(eq(schema.ledgerTransaction.notes, 'Never granted'));
    expect(credits).toEqual([]);
  });

  it('keeps the limits whose entry cannot be written', async () => {
    const { memberLimit } = await organizationRow(t.database.db, owner.organizationId);
    await withAuditEntriesRefused(t.database.db, `action = 'operator.limits_changed'`, async () => {
      const refused = await operator('PUT', `/organizations/${owner.organizationId}/limits`, {
        members: memberLimit + 1,
      });
      expect(refused.statusCode).toBe(500);
    });
    expect((await organizationRow(t.database.db, owner.organizationId)).memberLimit).toBe(memberLimit);
  });
});

describe("the operator's word on the account status", () => {
  it('records a suspension and its lifting as the operator made them, and nothing for a repeat', async () => {
    const suspended = await operator('PUT', `/organizations/${owner.organizationId}/status`, {
      status: 'inactive',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(
      (await operator('PUT', `/organizations/${owner.organizationId}/status`, { status: 'inactive' }))
        .statusCode,
    ).toBe(200);
    const lifted = await operator('PUT', `/organizations/${owner.organizationId}/status`, {
      status: 'active',
    });
    expect(lifted.statusCode, lifted.body).toBe(200);

    const [madeActive, madeInactive, ...others] = await entriesOf(owner, 'account');
    expect(others).toEqual([]);
    expect(madeInactive).toMatchObject(
      accountStatusChange(owner.organizationId, 'inactive', { before: null, after: 'operator' }, 'operator'),
    );
    expectMadeByOperator(madeInactive!, suspended);
    expect(madeActive).toMatchObject(
      accountStatusChange(owner.organizationId, 'active', { before: 'operator', after: null }, 'operator'),
    );
    expectMadeByOperator(madeActive!, lifted);
  });

  it('records a suspension of an account inactive for billing as the change of its reason', async () => {
    const debtor = await newOwner('debtor');
    const run = await billMay2025(t.database.db, debtor.organizationId);
    expect(run.becameInactive).toEqual([debtor.organizationId]);
    const suspended = await operator('PUT', `/organizations/${debtor.organizationId}/status`, {
      status: 'inactive',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const [suspension, billing] = await entriesOf(debtor, 'account');
    expect(billing).toMatchObject({ action: 'account.made_inactive', actor: { kind: 'system' } });
    expect(suspension).toMatchObject({ action: 'account.made_inactive' });
    expect(suspension!.changes).toEqual({
      inactiveReason: { before: 'billing', after: 'operator' },
      reason: { after: 'operator' },
    });
    expectMadeByOperator(suspension!, suspended);
  });
});

describe("the operator's billing run", () => {
  it('records only what it changes per organisation, as the system: an invoice paid from the balance', async () => {
    const payer = await newOwner('billed');
    await operator('POST', `/organizations/${payer.organizationId}/credits`, {
      amount: '50.00',
      note: 'Prepaid',
    });
    await newApplicationWithUsage(t.database.db, payer.organizationId, {
      plan: 'max',
      billingCycle: '2025-05',
      mau: 100,
    });
    const run = await operator('POST', '/billing-runs', {
      month: '2025-05',
      organization: payer.organizationId,
    });
    expect(run.statusCode, run.body).toBe(200);
    const billed = (run.json() as RunBillingResponse).billed;
    expect(billed).toMatchObject([{ status: 'paid', paid: 14 }]);
    const invoiceId = billed[0]!.transactionId;

    const entries = await auditEntries(t.app, payer.cookie, '&actorKind=system');
    expect(entries.map((entry) => [entry.action, entry.target.id])).toEqual([
      ['billing.invoice_paid', invoiceId],
    ]);
    const operatorEntries = await entriesOf(payer);
    expect(operatorEntries.map((entry) => entry.action)).toEqual(['operator.credit_granted']);
  });
});

describe("the operator's reset of a second factor", () => {
  it("records it in the member's organisation, through the CLI over HTTP, and no code or secret", async () => {
    const member = await newOwner('two-factor');
    await enrolAuthenticator(t.app, member.cookie);
    const [secretRow] = await t.database.db.select().from(schema.twoFactor);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const portalUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    let printed = '';
    const code = await main(['member', 'reset-two-factor', member.email, '--json'], {
      env: { PORTAL_URL: portalUrl, OPERATOR_TOKEN },
      stdout: { write: (text: string) => (printed += text) },
      stderr: { write: (text: string) => (printed += text) },
    });
    expect(code, printed).toBe(EXIT_OK);

    const rows = await storedAuditRows(t.database.db, member.organizationId);
    const resets = rows.filter((row) => row.action === 'two_factor.reset_by_operator');
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({
      actorKind: 'operator',
      actorMemberId: null,
      actorEmail: null,
      targetType: 'member',
      targetId: member.memberId,
      targetName: member.email,
      ip: '127.0.0.1',
      changes: { twoFactorEnabled: { before: true, after: false } },
    });
    expect(resets[0]!.requestId).toBeTruthy();
    const text = JSON.stringify(rows);
    expect(text).not.toContain(secretRow!.secret);
    expect(text).not.toContain(OPERATOR_TOKEN);
  });
});
