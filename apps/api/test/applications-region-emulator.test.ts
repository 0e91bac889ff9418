import type { Application } from '@portal/contracts';
import { createRegionApp, openRegionStore } from '@portal/region';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

// The portal against the project's own regional platform emulator, over real HTTP: the two
// sides of the admin API must agree on paths, token, bodies and statuses.
const ADMIN_TOKEN = 'emulator-admin-token-for-tests';
const env: Record<string, string> = {
  REGION_ADMIN_TOKEN: ADMIN_TOKEN,
  REGION_PROVISIONING_POLL_MS: '2000',
  PROVISIONING_RETRY_DELAY_SECONDS: '0',
};
let emulator: FastifyInstance;
let closeStore: () => Promise<void>;
beforeAll(async () => {
  const { store, close } = await openRegionStore();
  closeStore = close;
  emulator = await createRegionApp({
    regions: ['SG', 'EU', 'US'],
    portalUrl: TEST_ORIGIN,
    adminToken: ADMIN_TOKEN,
    publicBaseUrl: 'http://127.0.0.1',
    provisioningDelayMs: 200,
    store,
  });
  const address = await emulator.listen({ port: 0, host: '127.0.0.1' });
  Object.assign(env, {
    REGION_SG_URL: `${address}/regions/sg`,
    REGION_EU_URL: `${address}/regions/eu`,
    REGION_US_URL: `${address}/regions/us`,
  });
});
afterAll(async () => {
  await emulator.close();
  await closeStore();
});
const t = useTestApp(env);

async function waitForState(cookie: string, id: string, state: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const app = (await t.app.inject(jsonRequest('GET', `/api/v1/applications/${id}`, undefined, cookie))).json() as Application;
    if (app.state === state) return app;
    if (Date.now() > deadline) throw new Error(`application ${id} stayed ${app.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function regionNetwork(region: string, networkId: string) {
  const response = await fetch(`${env[`REGION_${region}_URL`]}/admin/v1/networks/${networkId}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return (await response.json()) as { name: string; status: string };
}

describe('applications with the regional platform emulator', () => {
  it('provisions, renames, deactivates and reactivates an application in its region', async () => {
    const cookie = await setUpOrganization(t.app, 'emulated@region.example.com');
    const created = await t.app.inject(jsonRequest('POST', '/api/v1/applications', { name: 'Emulated', plan: 'advance', region: 'SG' }, cookie));
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as Application[])[0]?.applicationId ?? '';

    const active = await waitForState(cookie, id, 'active');
    expect(active.consoleUrl).toContain('/regions/sg/console/');
    const networkId = active.networkId ?? '';
    expect(await regionNetwork('SG', networkId)).toMatchObject({ name: 'Emulated', status: 'active' });

    const url = `/api/v1/applications/${id}`;
    expect((await t.app.inject(jsonRequest('PUT', url, { name: 'Emulated 2' }, cookie))).statusCode).toBe(200);
    expect((await regionNetwork('SG', networkId)).name).toBe('Emulated 2');

    const deactivated = await t.app.inject(jsonRequest('POST', `${url}/deactivate`, { confirmName: 'Emulated 2' }, cookie));
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await regionNetwork('SG', networkId)).status).toBe('inactive');

    const reactivated = await t.app.inject(jsonRequest('POST', `${url}/reactivate`, {}, cookie));
    expect(reactivated.statusCode, reactivated.body).toBe(200);
    expect((await regionNetwork('SG', networkId)).status).toBe('active');
  });
});
