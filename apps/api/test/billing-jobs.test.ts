import type { Application, RegionKey } from '@portal/contracts';
import { createRegionApp, createSdkSession, openRegionStore, type RegionStore } from '@portal/region';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { billMonth, closeMonth, importUsage } from '../src/modules/billing/billing.jobs.ts';
import { RegionClient } from '../src/regions/region-client.ts';
import { countServiceCharges, newApplicationWithUsage, newOrganization } from './billing-fixtures.ts';
import { TEST_ORIGIN, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

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
  for (const userId of userIds) await createSdkSession(regionUrls[region], network.apiKey, userId);
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

    expect(await importUsage(deps, thisMonth())).toEqual({ recorded: 2 });
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
    const deps = { db, productName: 'Social', now: () => new Date() };

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
