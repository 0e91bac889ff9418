import type { Application } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { jsonRequest, setUpOrganization } from './helper.ts';
import { usePortalWithRegionStandIn } from './region-stand-in.ts';

// One retry per job and a sweep every second: a short outage uses a job up, as a long one would
// use up the default 100 retries.
const RETRY_LIMIT = 1;
const { region, t } = usePortalWithRegionStandIn({
  REGION_PROVISIONING_POLL_MS: '300',
  PROVISIONING_RETRY_DELAY_SECONDS: '0',
  PROVISIONING_RETRY_LIMIT: String(RETRY_LIMIT),
  PROVISIONING_SWEEP_SECONDS: '1',
});

async function stored(id: string) {
  const [row] = await t.database.db.select().from(schema.application).where(eq(schema.application.id, id));
  if (!row) throw new Error(`application ${id} is gone`);
  return row;
}

describe('provisioning sweep', () => {
  it('starts a new job for an application whose job used up its retries, until the region is back', async () => {
    const cookie = await setUpOrganization(t.app, 'sweeper@region.example.com');
    const failures = 4 * (RETRY_LIMIT + 1);
    region.failNext = failures;
    const response = await t.app.inject(
      jsonRequest('POST', '/api/v1/applications', { name: 'Long outage', plan: 'basic', region: 'SG' }, cookie),
    );
    expect(response.statusCode, response.body).toBe(201);
    const id = (response.json() as Application[])[0]?.applicationId ?? '';

    const deadline = Date.now() + 20_000;
    while ((await stored(id)).state !== 'active') {
      if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(await stored(id))}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const row = await stored(id);
    // One job makes at most RETRY_LIMIT + 1 attempts; every failure was attempted, so several jobs ran.
    expect(row.provisioningAttempts).toBeGreaterThanOrEqual(failures);
    expect(row.networkId).toBe(region.networkOf(id)?.networkId);
  });
});
