import type { Application } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { jsonRequest, setUpOrganization } from './helper.ts';
import { usePortalWithRegionStandIn } from './region-stand-in.ts';

// Retries without delay and a short wait per attempt, so retries happen within the test.
const { region, t } = usePortalWithRegionStandIn({ REGION_PROVISIONING_POLL_MS: '300', PROVISIONING_RETRY_DELAY_SECONDS: '0' });

async function stored(id: string) {
  const [row] = await t.database.db.select().from(schema.application).where(eq(schema.application.id, id));
  if (!row) throw new Error(`application ${id} is gone`);
  return row;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('provisioning', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await setUpOrganization(t.app, 'provisioner@region.example.com');
  });

  async function create(name: string) {
    const response = await t.app.inject(jsonRequest('POST', '/api/v1/applications', { name, plan: 'max', region: 'US' }, cookie));
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as Application[])[0]?.applicationId ?? '';
  }

  it('keeps the application initializing while the region answers 503, then makes it active', async () => {
    region.failNext = 3;
    const id = await create('Outage survivor');
    await waitUntil(async () => (await stored(id)).provisioningAttempts >= 2);
    const during = await stored(id);
    expect(during.state).toBe('initializing');
    expect(during.lastProvisioningError).toMatch(/503/);

    await waitUntil(async () => (await stored(id)).state === 'active');
    const after = await stored(id);
    expect(after.networkId).toBe(region.networkOf(id)?.networkId);
    expect(after.consoleUrl).toBe(region.networkOf(id)?.consoleUrl);
    expect(after.lastProvisioningError).toBeNull();
    // Retries reused the one network: creation is idempotent per application.
    expect([...region.networks.values()].filter((n) => n.applicationId === id)).toHaveLength(1);
  });

  it('retries later when the network is still provisioning after the bounded wait', async () => {
    region.provisioningReads = 4;
    try {
      const id = await create('Slow region');
      await waitUntil(async () => (await stored(id)).networkId !== null);
      await waitUntil(async () => (await stored(id)).state === 'active');
      const row = await stored(id);
      expect(row.provisioningAttempts).toBeGreaterThan(1);
      expect(region.networkOf(id)?.status).toBe('active');
    } finally {
      region.provisioningReads = 1;
    }
  });

  it('provisions an application left initializing without a job when the server starts', async () => {
    const [org] = await t.database.db.select({ id: schema.member.organizationId }).from(schema.member).limit(1);
    const id = crypto.randomUUID();
    await t.database.db
      .insert(schema.application)
      .values({ id, organizationId: org?.id ?? '', name: 'Orphan', plan: 'basic', region: 'EU' });
    // A second server on the same database, as after a restart: its worker finds the orphan.
    const { buildApp } = await import('../src/app.ts');
    const restarted = await buildApp({ config: t.config, database: t.database });
    try {
      await restarted.ready();
      await waitUntil(async () => (await stored(id)).state === 'active');
    } finally {
      await restarted.close();
    }
  });
});
