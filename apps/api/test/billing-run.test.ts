import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../src/auth/session.ts';
import * as schema from '../src/db/schema.ts';
import { recordApplicationUsage } from '../src/modules/billing/billing.repository.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import {
  FLAT_RATE_CONTRACT,
  FLAT_RATE_USAGE,
  balanceMovements,
  countServiceCharges,
  newApplicationWithUsage,
  newDailyTransactions,
  newOrganization,
  organizationRow,
  sessionUserOf,
  type OrganizationValues,
} from './billing-fixtures.ts';
import { joinOrganization, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

const t = useTestApp();
const MARCH = '2025-03';
const APRIL = '2025-04';
let billing: ReturnType<typeof monthlyRunService>;

beforeAll(() => {
  billing = monthlyRunService({ db: t.database.db, productName: 'Social' });
});

interface OwnedOrganization {
  id: string;
  owner: SessionUser;
}

/** An organisation set up by its super-admin through the API, then given billing values. */
async function ownedOrganization(
  domain: string,
  values: OrganizationValues = {},
): Promise<OwnedOrganization> {
  const email = `owner@${domain}`;
  const cookie = await setUpOrganization(t.app, email);
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  const { organizationId } = me.json() as { organizationId: string };
  await t.database.db
    .update(schema.organization)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(schema.organization.id, organizationId));
  return { id: organizationId, owner: await sessionUserOf(t.database.db, email) };
}

type MarchUsage = Omit<Parameters<typeof newApplicationWithUsage>[2], 'billingCycle'>;

/**
 * An owned organisation with applications and their March usage, billed for March alone: the run's
 * answer, the padded id of the invoice it wrote and the ids of the applications.
 */
async function billedInMarch(domain: string, values: OrganizationValues, applications: MarchUsage[]) {
  const organization = await ownedOrganization(domain, values);
  const applicationIds = [];
  for (const usage of applications) {
    applicationIds.push(
      await newApplicationWithUsage(t.database.db, organization.id, { ...usage, billingCycle: MARCH }),
    );
  }
  const run = await billing.runMonthlyBilling({ cycle: MARCH, organizationId: organization.id });
  const transactionId = String(run.billed[0]?.transactionId ?? '').padStart(9, '0');
  return { ...organization, run, transactionId, applicationIds };
}

const notFound = { code: 'NOT_FOUND' };

describe('the monthly billing run', () => {
  let paid: Awaited<ReturnType<typeof billedInMarch>>;

  it('PAYG: a balance that covers the month pays it, and the detail lists every application', async () => {
    const db = t.database.db;
    paid = await billedInMarch('billing-paid.example.com', { balanceCents: 10_000 }, [
      { plan: 'advance', mau: 1000, name: 'Chat' },
      { plan: 'basic', mau: 0, name: 'Idle', createdAt: new Date('2025-02-01T00:00:00Z') },
    ]);
    const { run } = paid;

    expect(run.billed).toEqual([
      expect.objectContaining({
        organizationId: paid.id,
        status: 'paid',
        chargeCents: 9000,
        paidCents: 9000,
      }),
    ]);
    expect(run.becameInactive).toEqual([]);
    expect(await organizationRow(db, paid.id)).toMatchObject({ balanceCents: 1000, accountStatus: 'active' });
    expect(await balanceMovements(db, paid.id)).toEqual([
      expect.objectContaining({ amountCents: -9000, balanceAfterCents: 1000 }),
    ]);

    const transaction = await t.app.billing.transactions.get(paid.owner, paid.transactionId);
    expect(transaction).toMatchObject({
      transactionId: paid.transactionId,
      type: 'service_charge',
      status: 'paid',
      amount: 90,
      paymentAmount: 90,
      taxAmount: 0,
      freeCreditTransactionId: null,
      invoiceId: `INV-${paid.transactionId}`,
      invoiceType: 'mau_based',
      billingCycle: MARCH,
    });
    expect(transaction.detail.map((application) => application.name)).toEqual(['Chat', 'Idle']);
    expect(await t.app.billing.transactions.detail(paid.owner, paid.transactionId, 'mau_based')).toEqual([
      expect.objectContaining({ productName: 'Social Core', MAUUsage: 1000, price: 90, unitPrice: 0.09 }),
      expect.objectContaining({ productName: 'Social Core', MAUUsage: 0, price: 0, unitPrice: 0.06 }),
    ]);
    await expect(t.app.billing.transactions.detail(paid.owner, paid.transactionId, 'component_based')).rejects.toMatchObject(
      notFound,
    );
  });

  it('PAYG: what the balance cannot cover above its minimum stays due and the account becomes inactive', async () => {
    const { run, ...short } = await billedInMarch(
      'billing-short.example.com',
      { balanceCents: 3000, minimumBalanceCents: 500 },
      [{ plan: 'advance', mau: 1000 }],
    );

    expect(run.billed).toEqual([
      expect.objectContaining({ status: 'open', chargeCents: 9000, paidCents: 2500, dueCents: 6500 }),
    ]);
    expect(run.becameInactive).toEqual([short.id]);
    expect(await organizationRow(t.database.db, short.id)).toMatchObject({
      balanceCents: 500,
      accountStatus: 'inactive',
    });
    const id = short.transactionId;
    expect(await t.app.billing.transactions.get(short.owner, id)).toMatchObject({
      status: 'open',
      amount: 90,
      paymentAmount: 25,
    });
    expect(await t.app.billing.transactions.paymentSummary(short.owner, id)).toEqual({
      invoiceId: `INV-${id}`,
      subTotal: 90,
      discountAmount: 0,
      taxes: [],
      totalAmount: 90,
      creditAmount: 0,
      paidAmount: 25,
      dueAmount: 65,
    });
  });

  it("PAYG: the trial's share of the month is a service credit, the balance pays the rest", async () => {
    // Set up on 10 March 10:00: March's billable days are 10–31 (22), its trial days 10–25 (16).
    const { run, ...trial } = await billedInMarch(
      'billing-trial.example.com',
      { balanceCents: 10_000, trialEndAt: new Date('2025-03-25T10:00:00Z') },
      [{ plan: 'advance', mau: 1100 }],
    );

    expect(run.billed).toEqual([
      expect.objectContaining({ status: 'paid', chargeCents: 9900, creditCents: 7200, paidCents: 2700 }),
    ]);
    expect((await organizationRow(t.database.db, trial.id)).balanceCents).toBe(7300);
    const charge = await t.app.billing.transactions.get(trial.owner, trial.transactionId);
    expect(charge.freeCreditTransactionId).not.toBeNull();
    expect(await t.app.billing.transactions.get(trial.owner, charge.freeCreditTransactionId!)).toMatchObject({
      type: 'service_credit',
      status: 'paid',
      amount: 72,
      billingCycle: MARCH,
      invoiceId: null,
    });
    expect(await t.app.billing.transactions.paymentSummary(trial.owner, charge.transactionId)).toMatchObject({
      totalAmount: 99,
      creditAmount: 72,
      paidAmount: 27,
      dueAmount: 0,
    });
  });

  it('flat-rate: a component-based licence invoice with tax, open, the balance untouched', async () => {
    const { run, ...flat } = await billedInMarch(
      'billing-flat.example.com',
      { ...FLAT_RATE_CONTRACT, balanceCents: 100_000 },
      FLAT_RATE_USAGE,
    );

    // 499.00 + 200 MAU × 0.09 + 100.00 = 617.00; SG tax 9 % = 55.53.
    expect(run.billed).toEqual([
      expect.objectContaining({ status: 'open', chargeCents: 67_253, paidCents: 0, dueCents: 67_253 }),
    ]);
    expect(await organizationRow(t.database.db, flat.id)).toMatchObject({
      balanceCents: 100_000,
      accountStatus: 'active',
    });
    const id = flat.transactionId;
    expect(await t.app.billing.transactions.get(flat.owner, id)).toMatchObject({
      status: 'open',
      invoiceType: 'component_based',
      amount: 672.53,
      taxAmount: 55.53,
      taxPercentage: 9,
      detail: [],
    });
    expect(await t.app.billing.transactions.detail(flat.owner, id, 'component_based')).toEqual([
      {
        invoiceId: `INV-${id}`,
        components: [
          { title: 'Licence fee (1000 MAU)', quantity: 1, total_amount: 499 },
          { title: 'Monthly active users above the licence', quantity: 200, total_amount: 18 },
          { title: 'Support plan Gold', quantity: 1, total_amount: 100 },
        ],
      },
    ]);
    expect(await t.app.billing.transactions.paymentSummary(flat.owner, id)).toMatchObject({
      subTotal: 617,
      taxes: [{ title: 'Tax', percentage: 9, taxAmount: 55.53 }],
      totalAmount: 672.53,
      paidAmount: 0,
      dueAmount: 672.53,
    });
    expect(await t.app.billing.planUsage.contracts(flat.owner)).toEqual([
      { type: 'flat_rate', license: 1000, supportPlan: 'Gold' },
    ]);
  });

  it('billing a month again writes no second invoice and moves no balance twice', async () => {
    const db = t.database.db;
    const again = await billing.runMonthlyBilling({ cycle: MARCH, organizationId: paid.id });
    expect(again).toMatchObject({ billed: [], alreadyBilled: [paid.id], failed: [] });

    const everyone = await billing.runMonthlyBilling({ cycle: MARCH });
    expect(everyone.billed).toEqual([]);
    expect(everyone.failed).toEqual([]);
    expect(everyone.alreadyBilled).toContain(paid.id);
    expect(await countServiceCharges(db, paid.id, MARCH)).toBe(1);
    expect(await balanceMovements(db, paid.id)).toHaveLength(1);
    expect((await organizationRow(db, paid.id)).balanceCents).toBe(1000);
  });

  it('two runs of one month at once bill each organisation once', async () => {
    const db = t.database.db;
    const organizations = await Promise.all(
      [5000, 20_000, 0].map(async (balanceCents) => {
        const id = await newOrganization(db, { balanceCents });
        await newApplicationWithUsage(db, id, { plan: 'max', billingCycle: APRIL, mau: 100 });
        return id;
      }),
    );

    const runs = await Promise.all([
      billing.runMonthlyBilling({ cycle: APRIL }),
      billing.runMonthlyBilling({ cycle: APRIL }),
    ]);

    const billed = runs.flatMap((run) => run.billed.map((invoice) => invoice.organizationId));
    expect(new Set(billed).size).toBe(billed.length);
    expect(runs.flatMap((run) => run.failed)).toEqual([]);
    for (const run of runs) {
      const seen = [...run.billed.map((invoice) => invoice.organizationId), ...run.alreadyBilled];
      expect(seen.sort()).toEqual([...billed].sort());
    }
    const balances = [];
    for (const id of organizations) {
      expect(billed).toContain(id);
      expect(await countServiceCharges(db, id, APRIL)).toBe(1);
      balances.push((await organizationRow(db, id)).balanceCents);
    }
    // 100 MAU × 0.14 = 14.00 each; the empty balance pays nothing.
    expect(balances).toEqual([3600, 18_600, 0]);
    expect((await balanceMovements(db, organizations[0]!)).map((movement) => movement.amountCents)).toEqual([
      -1400,
    ]);
    expect(await balanceMovements(db, organizations[2]!)).toEqual([]);
  });

  it("finds none of another organisation's transactions or usage", async () => {
    const other = await ownedOrganization('billing-other.example.com');
    const request = other.owner;
    await expect(t.app.billing.transactions.get(request, paid.transactionId)).rejects.toMatchObject(notFound);
    await expect(t.app.billing.transactions.detail(request, paid.transactionId, 'mau_based')).rejects.toMatchObject(notFound);
    await expect(t.app.billing.transactions.paymentSummary(request, paid.transactionId)).rejects.toMatchObject(notFound);
    expect(await t.app.billing.transactions.search(request, { term: paid.transactionId })).toEqual([]);
    expect(await t.app.billing.transactions.list(request, { page: 1, sortBy: 'lastCreated' })).toEqual({ data: [], total: 0 });
    expect(await t.app.billing.planUsage.usages(request, new Date('2025-03-20T00:00:00Z'))).toEqual([
      { type: 'mau', usage: 0, updatedAt: null },
    ]);

    // A usage write naming another organisation's application writes nothing.
    await recordApplicationUsage(t.database.db, other.id, {
      applicationId: paid.applicationIds[0]!,
      billingCycle: MARCH,
      mau: 5,
      importedAt: new Date(),
    });
    expect(await t.app.billing.planUsage.usages(paid.owner, new Date('2025-03-20T00:00:00Z'))).toEqual([
      { type: 'mau', usage: 1000, updatedAt: expect.any(String) },
    ]);
  });

  it('answers transactions only with VIEW_BILLING and usage and contracts only with VIEW_PLAN_DETAIL', async () => {
    const forbidden = { code: 'FORBIDDEN' };
    await joinOrganization(t, 'admin@billing-paid.example.com', paid.id, 'portal.admin');
    const admin = await sessionUserOf(t.database.db, 'admin@billing-paid.example.com');
    await expect(t.app.billing.transactions.list(admin, { page: 1, sortBy: 'lastCreated' })).rejects.toMatchObject(forbidden);
    await expect(t.app.billing.transactions.get(admin, paid.transactionId)).rejects.toMatchObject(forbidden);
    expect(await t.app.billing.planUsage.contracts(admin)).toEqual([{ type: 'payg', license: 0, supportPlan: '' }]);

    await joinOrganization(t, 'developer@billing-paid.example.com', paid.id, 'portal.developer');
    const developer = await sessionUserOf(t.database.db, 'developer@billing-paid.example.com');
    await expect(t.app.billing.planUsage.contracts(developer)).rejects.toMatchObject(forbidden);
    await expect(t.app.billing.planUsage.usages(developer)).rejects.toMatchObject(forbidden);
  });

  it('refuses a month that has not ended', async () => {
    await expect(
      billing.runMonthlyBilling({ cycle: '2025-05', now: new Date('2025-05-31T23:59:59Z') }),
    ).rejects.toThrow(RangeError);
  });
});

describe('the transaction list', () => {
  let owner: SessionUser;
  let ids: number[];

  beforeAll(async () => {
    const organization = await ownedOrganization('billing-list.example.com');
    owner = organization.owner;
    ids = await newDailyTransactions(t.database.db, organization.id, 33);
  });

  it('answers 30 a page with the total, newest or oldest first', async () => {
    const first = await t.app.billing.transactions.list(owner, { page: 1, sortBy: 'lastCreated' });
    expect(first.total).toBe(33);
    expect(first.data).toHaveLength(30);
    expect(first.data[0]).toMatchObject({ amount: 1.32, transactionCreatedAt: '2025-02-02T00:00:00.000Z' });
    const second = await t.app.billing.transactions.list(owner, { page: 2, sortBy: 'lastCreated' });
    expect(second.data.map((transaction) => transaction.amount)).toEqual([1.02, 1.01, 1]);
    const oldest = await t.app.billing.transactions.list(owner, { page: 1, sortBy: 'firstCreated' });
    expect(oldest.data[0]).toMatchObject({ amount: 1, invoiceId: null, invoiceType: null, detail: [] });
  });

  it('finds transactions by the start of their padded id', async () => {
    const padded = String(ids[5]).padStart(9, '0');
    expect((await t.app.billing.transactions.search(owner, { term: padded })).map((row) => row.transactionId)).toEqual([padded]);
    const byPrefix = await t.app.billing.transactions.search(owner, { term: '0000' });
    expect(byPrefix).toHaveLength(10);
    expect(byPrefix[0]!.transactionId).toBe(String(ids[0]).padStart(9, '0'));
    expect(await t.app.billing.transactions.search(owner, { term: 'INV-1' })).toEqual([]);
    await expect(t.app.billing.transactions.get(owner, String(ids[5]))).resolves.toMatchObject({ transactionId: padded });
    await expect(t.app.billing.transactions.get(owner, '0')).rejects.toMatchObject(notFound);
  });
});
