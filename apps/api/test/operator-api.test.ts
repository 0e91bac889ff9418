import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OperatorOrganization, RunBillingResponse } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { OPERATOR_TOKEN_FILE } from '../src/auth/secret.ts';
import { operatorToken } from '../src/modules/operators/operator-token.ts';
import { newApplicationWithUsage, newOrganization } from './billing-fixtures.ts';
import { testConfig } from './fixtures.ts';
import { expectApiError, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

/*
 * The operator API (/api/operator/v1) through inject: only the operator token opens it, each
 * operation changes what it names and nothing else, bad input is a 400 naming the field, credit is
 * granted in one ledger row and one balance movement, and a month is billed once however often the
 * operator runs it.
 */
const OPERATOR_TOKEN = 'operator-token-for-the-operator-api-test';
const t = useTestApp({ OPERATOR_TOKEN });
const API = '/api/operator/v1';
const OWNER_EMAIL = 'owner@operated.io';
let organizationId = '';
let ownerCookie = '';

function operator(method: InjectOptions['method'], url: string, body?: unknown, token = OPERATOR_TOKEN) {
  const request = jsonRequest(method, `${API}${url}`, body);
  return t.app.inject({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } });
}

async function organization(reference = organizationId): Promise<OperatorOrganization> {
  const response = await operator('GET', `/organizations/${encodeURIComponent(reference)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as OperatorOrganization;
}

function ledgerOf(id: string) {
  return t.database.db
    .select()
    .from(schema.ledgerTransaction)
    .where(eq(schema.ledgerTransaction.organizationId, id));
}

function balanceMovementsOf(id: string) {
  return t.database.db
    .select()
    .from(schema.balanceMovement)
    .where(eq(schema.balanceMovement.organizationId, id));
}

function expectFieldError(response: Parameters<typeof expectApiError>[0], field: string) {
  const body = expectApiError(response, 400, 'VALIDATION_ERROR');
  expect(body.field, JSON.stringify(body)).toBe(field);
}

beforeAll(async () => {
  ownerCookie = await setUpOrganization(t.app, OWNER_EMAIL);
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, ownerCookie));
  organizationId = (me.json() as { organizationId: string }).organizationId;
});

describe('the operator token', () => {
  it.each([
    ['no credential', {}],
    ['a wrong token', { authorization: 'Bearer not-the-operator-token' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['the token as a different scheme', { authorization: `Basic ${OPERATOR_TOKEN}` }],
  ])('refuses %s with 401 {code, message}', async (_label, headers) => {
    const response = await t.app.inject({ method: 'GET', url: `${API}/organizations`, headers });
    expectApiError(response, 401, 'UNAUTHORIZED');
  });

  it("refuses a member's session, the owner's too", async () => {
    const response = await t.app.inject(jsonRequest('GET', `${API}/organizations`, undefined, ownerCookie));
    expectApiError(response, 401, 'UNAUTHORIZED');
  });

  it('is checked before the body, so a caller without it learns nothing of the schema', async () => {
    const response = await operator('PUT', `/organizations/${organizationId}/limits`, {}, 'wrong');
    expectApiError(response, 401, 'UNAUTHORIZED');
  });

  it('is generated once into the data dir when OPERATOR_TOKEN is unset, and the same on every read', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-operator-token-'));
    try {
      const config = testConfig(dataDir);
      const generated = operatorToken(config);
      expect(generated.length).toBeGreaterThanOrEqual(32);
      expect(operatorToken(config)).toBe(generated);
      const file = path.join(dataDir, OPERATOR_TOKEN_FILE);
      expect(fs.readFileSync(file, 'utf8')).toBe(generated);
      expect(fs.statSync(file).mode & 0o077).toBe(0);
      expect(operatorToken(testConfig(dataDir, { OPERATOR_TOKEN }))).toBe(OPERATOR_TOKEN);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('organisations', () => {
  it('lists every organisation with its contract, status and balance', async () => {
    const otherId = await newOrganization(t.database.db, { name: 'Listed', balanceCents: 1234 });
    const response = await operator('GET', '/organizations?page=1');
    expect(response.statusCode, response.body).toBe(200);
    const { data, total } = response.json() as { data: { id: string; balance: number }[]; total: number };
    expect(total).toBeGreaterThanOrEqual(2);
    expect(data.map((row) => row.id)).toEqual(expect.arrayContaining([organizationId, otherId]));
    expect(data.find((row) => row.id === otherId)).toMatchObject({ balance: 12.34, contractType: 'payg' });
  });

  it("shows one by its id or by a member's address in any case", async () => {
    const byId = await organization();
    expect(byId).toMatchObject({
      id: organizationId,
      name: 'Acme',
      contractType: 'payg',
      accountStatus: 'active',
      isFreeCredit: true,
      balance: 0,
      usage: { applications: 0, members: 1 },
    });
    expect(await organization(OWNER_EMAIL.toUpperCase())).toEqual(byId);
  });

  it('answers 404 for an id or address nobody has', async () => {
    expectApiError(await operator('GET', '/organizations/no-such-organization'), 404, 'NOT_FOUND');
    expectApiError(await operator('GET', '/organizations/nobody%40nowhere.io'), 404, 'NOT_FOUND');
  });

  it('refuses a page that is not a number ≥ 1', async () => {
    expectFieldError(await operator('GET', '/organizations?page=0'), 'page');
  });
});

describe('setting an organisation', () => {
  it('sets a flat-rate contract with its fees in cents, and PAYG back with the licence cleared', async () => {
    const response = await operator('PUT', `/organizations/${organizationId}/contract`, {
      type: 'flat_rate',
      licenseMau: 1000,
      licenseFee: '499.00',
      supportPlan: 'Gold',
      supportPlanFee: '100.5',
      overagePlan: 'basic',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as OperatorOrganization).contract).toEqual({
      type: 'flat_rate',
      licenseMau: 1000,
      licenseFee: 499,
      overagePlan: 'basic',
      supportPlan: 'Gold',
      supportPlanFee: 100.5,
    });
    const [stored] = await t.database.db
      .select({
        licenseFeeCents: schema.organization.licenseFeeCents,
        support: schema.organization.supportPlanFeeCents,
      })
      .from(schema.organization)
      .where(eq(schema.organization.id, organizationId));
    expect(stored).toEqual({ licenseFeeCents: 49_900, support: 10_050 });
    // The owner's plan page reads the same contract.
    const contracts = await t.app.inject(
      jsonRequest('GET', '/api/v1/accounts/contracts', undefined, ownerCookie),
    );
    expect(contracts.json()).toEqual([{ type: 'flat_rate', license: 1000, supportPlan: 'Gold' }]);

    const payg = await operator('PUT', `/organizations/${organizationId}/contract`, { type: 'payg' });
    expect((payg.json() as OperatorOrganization).contract).toEqual({
      type: 'payg',
      licenseMau: 0,
      licenseFee: 0,
      overagePlan: 'advance',
      supportPlan: '',
      supportPlanFee: 0,
    });
  });

  it.each([
    [{ type: 'payg', licenseMau: 10 }, 'licenseMau'],
    [{ type: 'flat_rate', licenseMau: 10 }, 'licenseFee'],
    [{ type: 'flat_rate', licenseFee: '1.00' }, 'licenseMau'],
    [{ type: 'flat_rate', licenseMau: 10, licenseFee: '4.999' }, 'licenseFee'],
    [{ type: 'flat_rate', licenseMau: -1, licenseFee: '1.00' }, 'licenseMau'],
    [{ type: 'monthly' }, 'type'],
  ])('refuses the contract %j naming %s', async (body, field) => {
    expectFieldError(await operator('PUT', `/organizations/${organizationId}/contract`, body), field);
  });

  it('sets either limit, leaving the other as it was', async () => {
    const before = await organization();
    const response = await operator('PUT', `/organizations/${organizationId}/limits`, { applications: 3 });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as OperatorOrganization).limits).toEqual({
      applications: 3,
      members: before.limits.members,
    });
    const both = await operator('PUT', `/organizations/${organizationId}/limits`, {
      applications: 5,
      members: 7,
    });
    expect((both.json() as OperatorOrganization).limits).toEqual({ applications: 5, members: 7 });
  });

  it.each([
    [{}, 'applications'],
    [{ members: -1 }, 'members'],
    [{ applications: 1.5 }, 'applications'],
  ])('refuses the limits %j naming %s', async (body, field) => {
    expectFieldError(await operator('PUT', `/organizations/${organizationId}/limits`, body), field);
  });

  it('sets the account inactive and active again, as the owner sees it', async () => {
    const inactive = await operator('PUT', `/organizations/${organizationId}/status`, { status: 'inactive' });
    expect((inactive.json() as OperatorOrganization).accountStatus).toBe('inactive');
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, ownerCookie));
    expect((me.json() as { accountStatus: string }).accountStatus).toBe('inactive');
    const active = await operator('PUT', `/organizations/${organizationId}/status`, { status: 'active' });
    expect((active.json() as OperatorOrganization).accountStatus).toBe('active');
    expectFieldError(
      await operator('PUT', `/organizations/${organizationId}/status`, { status: 'paused' }),
      'status',
    );
  });

  it('turns free credit off and on, the flag the account answers', async () => {
    const off = await operator('PUT', `/organizations/${organizationId}/free-credit`, { enabled: false });
    expect((off.json() as OperatorOrganization).isFreeCredit).toBe(false);
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, ownerCookie));
    expect((me.json() as { isFreeCredit: boolean }).isFreeCredit).toBe(false);
    const on = await operator('PUT', `/organizations/${organizationId}/free-credit`, { enabled: true });
    expect((on.json() as OperatorOrganization).isFreeCredit).toBe(true);
    expectFieldError(
      await operator('PUT', `/organizations/${organizationId}/free-credit`, { enabled: 'on' }),
      'enabled',
    );
  });

  it('answers 404 for an organisation nobody has, whatever it sets', async () => {
    expectApiError(
      await operator('PUT', '/organizations/missing/status', { status: 'active' }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('granting credit', () => {
  it('writes one paid service credit with the note and moves the balance once, by the cents typed', async () => {
    const grantee = await newOrganization(t.database.db, { balanceCents: 1000 });
    const bystander = await newOrganization(t.database.db, { balanceCents: 1000 });
    const response = await operator('POST', `/organizations/${grantee}/credits`, {
      amount: '50.29',
      note: 'Goodwill for the outage',
    });
    expect(response.statusCode, response.body).toBe(201);
    const grant = response.json() as { transactionId: string; amount: number; balance: number };
    expect(grant).toMatchObject({ amount: 50.29, balance: 60.29 });
    expect(grant.transactionId).toMatch(/^\d{9}$/);

    const ledger = await ledgerOf(grantee);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      id: Number(grant.transactionId),
      type: 'service_credit',
      status: 'paid',
      amountCents: 5029,
      notes: 'Goodwill for the outage',
      billingCycle: null,
    });
    const movements = await balanceMovementsOf(grantee);
    expect(movements).toHaveLength(1);
    expect(movements[0]).toMatchObject({
      transactionId: Number(grant.transactionId),
      amountCents: 5029,
      balanceAfterCents: 6029,
    });
    expect((await organization(grantee)).balance).toBe(60.29);
    expect((await organization(bystander)).balance).toBe(10);
    const bystanderMovements = await balanceMovementsOf(bystander);
    expect(bystanderMovements).toEqual([]);
  });

  it('grants once per idempotency key: a repeat, even concurrent, answers the grant made and moves nothing', async () => {
    const grantee = await newOrganization(t.database.db, { balanceCents: 1000 });
    const body = { amount: '20.00', note: 'Retried grant', idempotencyKey: 'ticket-4711' };
    const answers = await Promise.all(
      [1, 2, 3].map(() => operator('POST', `/organizations/${grantee}/credits`, body)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 201]);
    const grants = answers.map(
      (answer) => answer.json() as { transactionId: string; alreadyGranted: boolean },
    );
    expect(new Set(grants.map((grant) => grant.transactionId)).size).toBe(1);
    expect(grants.filter((grant) => !grant.alreadyGranted)).toHaveLength(1);
    expect(answers.map((answer) => (answer.json() as { balance: number }).balance)).toEqual([30, 30, 30]);
    expect(await ledgerOf(grantee)).toHaveLength(1);
    expect(await balanceMovementsOf(grantee)).toHaveLength(1);

    const otherKey = await operator('POST', `/organizations/${grantee}/credits`, {
      ...body,
      idempotencyKey: 'ticket-4712',
    });
    expect(otherKey.statusCode).toBe(201);
    expect((await organization(grantee)).balance).toBe(50);
  });

  it('refuses an idempotency key repeated with a different amount or note, and moves nothing', async () => {
    const grantee = await newOrganization(t.database.db);
    const first = { amount: '5.00', note: 'First', idempotencyKey: 'reused-key' };
    expect((await operator('POST', `/organizations/${grantee}/credits`, first)).statusCode).toBe(201);
    for (const changed of [
      { ...first, amount: '6.00' },
      { ...first, note: 'Second' },
    ]) {
      const refused = await operator('POST', `/organizations/${grantee}/credits`, changed);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' });
    }
    expect(await ledgerOf(grantee)).toHaveLength(1);
    expect((await organization(grantee)).balance).toBe(5);
  });

  it.each([
    [{ amount: '0', note: 'x' }, 'amount'],
    [{ amount: '-5.00', note: 'x' }, 'amount'],
    [{ amount: '5.001', note: 'x' }, 'amount'],
    [{ amount: 5, note: 'x' }, 'amount'],
    [{ amount: '5.00' }, 'note'],
    [{ amount: '5.00', note: '   ' }, 'note'],
    [{ amount: '5.00', note: 'x', idempotencyKey: '' }, 'idempotencyKey'],
    [{ amount: '5.00', note: 'x', idempotencyKey: 'k'.repeat(101) }, 'idempotencyKey'],
  ])('refuses %j naming %s, and moves nothing', async (body, field) => {
    const grantee = await newOrganization(t.database.db);
    expectFieldError(await operator('POST', `/organizations/${grantee}/credits`, body), field);
    const ledger = await ledgerOf(grantee);
    expect(ledger).toEqual([]);
  });
});

describe('usage import and billing run', () => {
  it("imports a month's usage from the regions and says how many applications it recorded", async () => {
    const response = await operator('POST', '/usage-imports', { month: '2025-03' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ month: '2025-03', recorded: 0 });
    const current = await operator('POST', '/usage-imports', {});
    expect((current.json() as { month: string }).month).toBe(new Date().toISOString().slice(0, 7));
    expectFieldError(await operator('POST', '/usage-imports', { month: '2025-13' }), 'month');
  });

  it('bills a month once however often it is run, and reports the organisations already billed', async () => {
    const billed = await newOrganization(t.database.db, { balanceCents: 100_000 });
    await newApplicationWithUsage(t.database.db, billed, {
      plan: 'basic',
      billingCycle: '2025-04',
      mau: 1000,
    });
    const first = await operator('POST', '/billing-runs', { month: '2025-04', organization: billed });
    expect(first.statusCode, first.body).toBe(200);
    const run = first.json() as RunBillingResponse;
    expect(run).toMatchObject({ month: '2025-04', alreadyBilled: [], becameInactive: [], failed: [] });
    expect(run.billed).toEqual([
      expect.objectContaining({ organizationId: billed, status: 'paid', charge: 60, paid: 60, due: 0 }),
    ]);

    const again = (
      await operator('POST', '/billing-runs', { month: '2025-04', organization: billed })
    ).json();
    expect(again).toMatchObject({ billed: [], alreadyBilled: [billed] });
    const charges = (await ledgerOf(billed)).filter((row) => row.type === 'service_charge');
    expect(charges).toHaveLength(1);
    expect((await organization(billed)).balance).toBe(940);
  });

  it('refuses a month that has not ended, naming the month, and an organisation nobody has', async () => {
    const thisMonth = new Date().toISOString().slice(0, 7);
    expectFieldError(await operator('POST', '/billing-runs', { month: thisMonth }), 'month');
    expectFieldError(await operator('POST', '/billing-runs', {}), 'month');
    expectApiError(
      await operator('POST', '/billing-runs', { month: '2025-04', organization: 'missing' }),
      404,
      'NOT_FOUND',
    );
  });
});
