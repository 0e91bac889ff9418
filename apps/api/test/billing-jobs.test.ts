import type { Application, RegionKey } from '@portal/contracts';
import { createRegionApp, createSdkSession, openRegionStore, type RegionStore } from '@portal/region';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { recordApplicationUsage } from '../src/modules/billing/billing.repository.ts';
import {
  billMonth,
  closeMonth,
  deactivateApplicationsOfInactiveAccount,
  noticeInactiveAccount,
  importUsage,
  inactivateAccountsWithOverdueInvoices,
  sendOwedInactiveNotices,
} from '../src/modules/billing/billing.jobs.ts';
import { reactivateForgottenApplications } from '../src/modules/ledger/ledger.jobs.ts';
import { GRACE_DAYS } from '../src/modules/ledger/ledger.service.ts';
import { RegionClient } from '../src/regions/region-client.ts';
import {
  countServiceCharges,
  newApplicationWithUsage,
  newOrganization,
  organizationRow,
} from './billing-fixtures.ts';
import { TEST_ORIGIN, jsonRequest, mailsTo, setUpOrganization, useTestApp } from './helper.ts';

// The billing jobs against the project's regional platform emulator over real HTTP: its MAU come
// from SDK sessions, as `npm run sdk -- ping` makes them.
const ADMIN_TOKEN = 'emulator-admin-token-for-tests';
const env: Record<string, string> = {
  REGION_ADMIN_TOKEN: ADMIN_TOKEN,
  REGION_PROVISIONING_POLL_MS: '2000',
  PROVISIONING_RETRY_DELAY_SECONDS: '0',
};
const regionUrls = {} as Record<RegionKey, string>;
let emulator: FastifyInstance;
let store: RegionStore;
let closeStore: () => Promise<void>;
beforeAll(async () => {
  ({ store, close: closeStore } = await openRegionStore());
  emulator = await createRegionApp({
    regions: ['SG', 'EU', 'US'],
    portalUrl: TEST_ORIGIN,
    adminToken: ADMIN_TOKEN,
    publicBaseUrl: 'http://127.0.0.1',
    provisioningDelayMs: 0,
    store,
  });
  const address = await emulator.listen({ port: 0, host: '127.0.0.1' });
  for (const region of ['SG', 'EU', 'US'] as const) {
    regionUrls[region] = `${address}/regions/${region.toLowerCase()}`;
    env[`REGION_${region}_URL`] = regionUrls[region];
  }
});
afterAll(async () => {
  await emulator.close();
  await closeStore();
});
const t = useTestApp(env);

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** An application created through the API and provisioned in the emulator. */
async function activeApplication(cookie: string, name: string, region: RegionKey) {
  const created = await t.app.inject(
    jsonRequest('POST', '/api/v1/applications', { name, plan: 'advance', region }, cookie),
  );
  if (created.statusCode !== 201) throw new Error(`create failed: ${created.body}`);
  const id = (created.json() as Application[])[0]?.applicationId ?? '';
  const deadline = Date.now() + 15_000;
  for (;;) {
    const read = await t.app.inject(jsonRequest('GET', `/api/v1/applications/${id}`, undefined, cookie));
    if ((read.json() as Application).state === 'active') return id;
    if (Date.now() > deadline) throw new Error(`application ${id} was not provisioned`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Users of the application's client app open SDK sessions in its region. */
async function sdkUsers(region: RegionKey, applicationId: string, ...userIds: string[]) {
  const network = await store.networkByApplication(region, applicationId);
  if (!network) throw new Error(`no network for ${applicationId}`);
  const { apiKey } = await store.setupApiKey(network.networkId);
  if (!apiKey) throw new Error(`the first key of ${applicationId} has stopped`);
  for (const userId of userIds) await createSdkSession(regionUrls[region], apiKey, userId);
}

async function usageRows(applicationId: string, billingCycle: string) {
  return t.database.db
    .select()
    .from(schema.applicationUsage)
    .where(
      and(
        eq(schema.applicationUsage.applicationId, applicationId),
        eq(schema.applicationUsage.billingCycle, billingCycle),
      ),
    );
}

/** The portal's region client with one region's address pointing where nothing listens. */
function regionsWithOneDown(down: RegionKey) {
  return new RegionClient({
    baseUrls: { ...regionUrls, [down]: 'http://127.0.0.1:9/regions/down' },
    adminToken: ADMIN_TOKEN,
  });
}

describe('usage import', () => {
  let organizationId: string;
  let singapore: string;
  let europe: string;

  beforeAll(async () => {
    const cookie = await setUpOrganization(t.app, 'usage@billing-jobs.example.com');
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    ({ organizationId } = me.json() as { organizationId: string });
    singapore = await activeApplication(cookie, 'Singapore app', 'SG');
    europe = await activeApplication(cookie, 'Europe app', 'EU');
  });

  it("stores each application's monthly active users from its region, the same after a second import", async () => {
    await sdkUsers('SG', singapore, 'alice', 'bob', 'alice');
    await sdkUsers('EU', europe, 'carol');
    const deps = { db: t.database.db, regions: t.app.regions, now: () => new Date() };

    expect(await importUsage(deps, thisMonth())).toEqual({
      recorded: 2,
      organizationIds: new Set([organizationId]),
    });
    expect(await usageRows(singapore, thisMonth())).toEqual([
      expect.objectContaining({ organizationId, mau: 2 }),
    ]);
    expect(await usageRows(europe, thisMonth())).toEqual([
      expect.objectContaining({ organizationId, mau: 1 }),
    ]);

    await importUsage(deps, thisMonth());
    expect(await usageRows(singapore, thisMonth())).toEqual([expect.objectContaining({ mau: 2 })]);
    expect(await usageRows(europe, thisMonth())).toEqual([expect.objectContaining({ mau: 1 })]);
  });

  it('stores the regions that answer when one is down, and the retry stores the rest', async () => {
    await sdkUsers('SG', singapore, 'dave');
    await sdkUsers('EU', europe, 'erin');
    const now = () => new Date();

    await expect(
      importUsage({ db: t.database.db, regions: regionsWithOneDown('EU'), now }, thisMonth()),
    ).rejects.toThrow(/not imported from EU/);
    expect(await usageRows(singapore, thisMonth())).toEqual([expect.objectContaining({ mau: 3 })]);
    expect(await usageRows(europe, thisMonth())).toEqual([expect.objectContaining({ mau: 1 })]);

    await importUsage({ db: t.database.db, regions: t.app.regions, now }, thisMonth());
    expect(await usageRows(europe, thisMonth())).toEqual([expect.objectContaining({ mau: 2 })]);
  });

  it('stores a month without sessions as 0 for every application', async () => {
    await importUsage({ db: t.database.db, regions: t.app.regions, now: () => new Date() }, '2001-01');
    expect(await usageRows(singapore, '2001-01')).toEqual([expect.objectContaining({ mau: 0 })]);
    expect(await usageRows(europe, '2001-01')).toEqual([expect.objectContaining({ mau: 0 })]);
  });
});

describe('monthly billing', () => {
  it('bills a closed month once when the job runs twice', async () => {
    const db = t.database.db;
    const organizationId = await newOrganization(db, { balanceCents: 10_000 });
    await newApplicationWithUsage(db, organizationId, { plan: 'basic', billingCycle: '2025-03', mau: 100 });
    const deps = {
      db,
      monthlyRun: t.app.billing.monthlyRun,
      jobQueue: t.app.jobQueue,
      now: () => new Date(),
    };

    const first = await billMonth(deps, '2025-03');
    const second = await billMonth(deps, '2025-03');

    expect(first.billed.map((billed) => billed.organizationId)).toContain(organizationId);
    expect(second.billed).toEqual([]);
    expect(second.alreadyBilled).toContain(organizationId);
    expect(await countServiceCharges(db, organizationId, '2025-03')).toBe(1);
  });

  it('closing a month twice imports its usage, then bills it once', async () => {
    const db = t.database.db;
    const organizationId = await newOrganization(db, { balanceCents: 10_000 });
    await newApplicationWithUsage(db, organizationId, { plan: 'max', billingCycle: '2025-04', mau: 10 });

    await closeMonth(t.app.jobQueue, '2025-04');
    await closeMonth(t.app.jobQueue, '2025-04');

    const deadline = Date.now() + 15_000;
    while ((await countServiceCharges(db, organizationId, '2025-04')) === 0) {
      if (Date.now() > deadline) throw new Error('April was not billed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await countServiceCharges(db, organizationId, '2025-04')).toBe(1);
  });
});

const DAY_MS = 86_400_000;

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function applicationStates(organizationId: string) {
  const rows = await t.database.db
    .select({ name: schema.application.name, state: schema.application.state })
    .from(schema.application)
    .where(eq(schema.application.organizationId, organizationId))
    .orderBy(schema.application.name);
  return rows.map((row) => `${row.name}: ${row.state}`);
}

async function networkStatus(region: RegionKey, applicationId: string) {
  return (await store.networkByApplication(region, applicationId))?.status;
}

describe('an account left with money due', () => {
  const owner = 'owner@inactive-jobs.example.com';
  let organizationId: string;
  let singapore: string;
  let europe: string;
  let transactionId: number;
  const accountDeps = () => ({
    db: t.database.db,
    regions: t.app.regions,
    jobQueue: t.app.jobQueue,
    mailer: t.app.mailer,
    portalName: 'Social Developer Portal',
    publicUrl: TEST_ORIGIN,
    log: t.app.log,
  });

  beforeAll(async () => {
    const cookie = await setUpOrganization(t.app, owner);
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    ({ organizationId } = me.json() as { organizationId: string });
    singapore = await activeApplication(cookie, 'Due Singapore', 'SG');
    europe = await activeApplication(cookie, 'Due Europe', 'EU');
    // Both existed in May 2025, with users the balance of 0 cannot pay for.
    await t.database.db
      .update(schema.application)
      .set({ createdAt: new Date('2025-01-01T00:00:00Z') })
      .where(eq(schema.application.organizationId, organizationId));
    for (const applicationId of [singapore, europe]) {
      await recordApplicationUsage(t.database.db, organizationId, {
        applicationId,
        billingCycle: '2025-05',
        mau: 100,
        importedAt: new Date(),
      });
    }
  });

  it('becomes inactive when May is billed, and its super-admin is mailed once', async () => {
    const deps = {
      db: t.database.db,
      monthlyRun: t.app.billing.monthlyRun,
      jobQueue: t.app.jobQueue,
      now: () => new Date(),
    };
    const run = await billMonth(deps, '2025-05');
    expect(run.becameInactive).toContain(organizationId);
    transactionId = run.billed.find((billed) => billed.organizationId === organizationId)?.transactionId ?? 0;
    await billMonth(deps, '2025-05');

    const mails = await until(
      'the inactive mail',
      () => mailsTo(t.app, owner),
      (list) => list.some((mail) => mail.subject.includes('inactive')),
    );
    const notices = mails.filter((mail) => mail.subject.includes('inactive'));
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain(
      'All applications will be deactivated within 30 days unless the due amount is paid.',
    );
    expect(notices[0]?.text).toContain('USD 18.00 of invoice INV-');
    expect((await organizationRow(t.database.db, organizationId)).accountStatus).toBe('inactive');
  });

  it('sends each super-admin one mail job of its own, so a repeated notice or a retried delivery mails no one twice', async () => {
    const sent: { queue: string; id?: string }[] = [];
    const recordingQueue = {
      ...t.app.jobQueue,
      send: async (queue: string, _data: object, options: { id?: string }) => {
        sent.push({ queue, id: options.id });
      },
    } as typeof t.app.jobQueue;
    const deps = { ...accountDeps(), jobQueue: recordingQueue, now: () => new Date() };
    await noticeInactiveAccount(deps, { organizationId, transactionId });
    await noticeInactiveAccount(deps, { organizationId, transactionId });

    const mailJobs = sent.filter((job) => job.queue === 'account-inactive-mail');
    expect(mailJobs).toHaveLength(2);
    expect(mailJobs[0]?.id).toBeDefined();
    // The same notice asks for the same job, which the queue keeps once.
    expect(mailJobs[1]?.id).toBe(mailJobs[0]?.id);
    const mailsBefore = (await mailsTo(t.app, owner)).filter((mail) => mail.subject.includes('inactive'));
    expect(mailsBefore).toHaveLength(1);
  });

  it('keeps its applications for 30 days, then deactivates them in their regions', async () => {
    const inactiveSince = Date.now();
    const job = {
      organizationId,
      transactionId,
      deactivateAt: new Date(inactiveSince + GRACE_DAYS * DAY_MS).toISOString(),
    };
    const early = { ...accountDeps(), now: () => new Date(inactiveSince + (GRACE_DAYS - 1) * DAY_MS) };
    await expect(deactivateApplicationsOfInactiveAccount(early, job)).rejects.toThrow(/grace period/);
    expect(await applicationStates(organizationId)).toEqual(['Due Europe: active', 'Due Singapore: active']);

    const later = { ...accountDeps(), now: () => new Date(inactiveSince + GRACE_DAYS * DAY_MS) };
    await deactivateApplicationsOfInactiveAccount(later, job);
    expect(await applicationStates(organizationId)).toEqual([
      'Due Europe: temporary_inactive',
      'Due Singapore: temporary_inactive',
    ]);
    expect(await networkStatus('SG', singapore)).toBe('inactive');
    expect(await networkStatus('EU', europe)).toBe('inactive');
  });

  it('is reactivated with its applications once nothing is due', async () => {
    expect(await t.app.ledger.reactivateWhenSettled(organizationId)).toBe(false);
    await t.database.db
      .update(schema.ledgerTransaction)
      .set({ status: 'paid', paidAt: new Date() })
      .where(eq(schema.ledgerTransaction.id, transactionId));

    expect(await t.app.ledger.reactivateWhenSettled(organizationId)).toBe(true);
    expect((await organizationRow(t.database.db, organizationId)).accountStatus).toBe('active');
    await until(
      'the reactivation',
      () => applicationStates(organizationId),
      (states) => states.every((state) => state.endsWith(': active')),
    );
    expect(await networkStatus('SG', singapore)).toBe('active');
    expect(await networkStatus('EU', europe)).toBe('active');
  });

  it('applications an active account still has suspended are reactivated by the sweep, once a day', async () => {
    // A crash between setting the account active and sending its reactivation leaves them so.
    await t.database.db
      .update(schema.application)
      .set({ state: 'temporary_inactive' })
      .where(eq(schema.application.organizationId, organizationId));
    for (const [region, applicationId] of [
      ['SG', singapore],
      ['EU', europe],
    ] as const) {
      const network = await store.networkByApplication(region, applicationId);
      await t.app.regions.deactivateNetwork(region, network!.networkId);
    }
    const deps = { db: t.database.db, jobQueue: t.app.jobQueue, now: () => new Date() };
    expect(await reactivateForgottenApplications(deps)).toContain(organizationId);
    await until(
      'the forgotten reactivation',
      () => applicationStates(organizationId),
      (states) => states.every((state) => state.endsWith(': active')),
    );
    expect(await networkStatus('SG', singapore)).toBe('active');
    expect(await reactivateForgottenApplications(deps)).not.toContain(organizationId);
  });

  it('a flat-rate invoice open for 30 days makes the account inactive and mails its super-admin', async () => {
    const flatRateOwner = 'owner@flat-rate-jobs.example.com';
    const cookie = await setUpOrganization(t.app, flatRateOwner);
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    const flatRate = (me.json() as { organizationId: string }).organizationId;
    await t.database.db
      .update(schema.organization)
      .set({ contractType: 'flat_rate', licenseMau: 1000, licenseFeeCents: 49_900 })
      .where(eq(schema.organization.id, flatRate));
    const deps = {
      db: t.database.db,
      monthlyRun: t.app.billing.monthlyRun,
      jobQueue: t.app.jobQueue,
      now: () => new Date(),
    };
    await billMonth(deps, '2025-05');

    const clock = { now: () => new Date(Date.now() + (GRACE_DAYS - 1) * DAY_MS) };
    await inactivateAccountsWithOverdueInvoices({ ...deps, ...clock });
    expect((await organizationRow(t.database.db, flatRate)).accountStatus).toBe('active');

    const overdue = { now: () => new Date(Date.now() + GRACE_DAYS * DAY_MS + 1000) };
    await inactivateAccountsWithOverdueInvoices({ ...deps, ...overdue });
    await inactivateAccountsWithOverdueInvoices({ ...deps, ...overdue });
    expect((await organizationRow(t.database.db, flatRate)).accountStatus).toBe('inactive');
    const mails = await until(
      'the inactive mail',
      () => mailsTo(t.app, flatRateOwner),
      (list) => list.some((mail) => mail.subject.includes('inactive')),
    );
    expect(mails.filter((mail) => mail.subject.includes('inactive'))).toHaveLength(1);
  });

  it('a run cut off before its notice is sent leaves the notice owed, and the next sweep sends it once', async () => {
    const cutOffOwner = 'owner@cut-off-notice.example.com';
    const cookie = await setUpOrganization(t.app, cutOffOwner);
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    const cutOff = (me.json() as { organizationId: string }).organizationId;
    await newApplicationWithUsage(t.database.db, cutOff, { plan: 'max', billingCycle: '2025-06', mau: 50 });

    // The run's database work alone, as when the process dies right after it.
    const run = await t.app.billing.monthlyRun.runMonthlyBilling({
      cycle: '2025-06',
      organizationId: cutOff,
    });
    const owedFor = run.billed[0]?.transactionId;
    expect(run.becameInactive).toEqual([cutOff]);
    expect(await organizationRow(t.database.db, cutOff)).toMatchObject({
      accountStatus: 'inactive',
      inactiveNoticeTransactionId: owedFor,
    });

    const deps = { db: t.database.db, jobQueue: t.app.jobQueue };
    await sendOwedInactiveNotices(deps);
    await sendOwedInactiveNotices(deps);
    expect((await organizationRow(t.database.db, cutOff)).inactiveNoticeTransactionId).toBeNull();
    const mails = await until(
      'the owed notice',
      () => mailsTo(t.app, cutOffOwner),
      (list) => list.some((mail) => mail.subject.includes('inactive')),
    );
    expect(mails.filter((mail) => mail.subject.includes('inactive'))).toHaveLength(1);
  });
});
