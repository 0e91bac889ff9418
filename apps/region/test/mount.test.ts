import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createRegionApp, openRegionStore, registerRegions } from '../src/index.ts';
import { ADMIN_TOKEN, admin, createNetwork, firstApiKey } from './helper.ts';
import { PortalStandIn } from './portal-stand-in.ts';

describe('mounted in the portal', () => {
  it("lives under /regions/* of the portal's app and in the schema `region` of its database", async () => {
    const portal = await new PortalStandIn(ADMIN_TOKEN).start();
    const database = new PGlite();
    onTestFinished(async () => {
      await database.close();
      await portal.stop();
    });
    await database.query('CREATE TABLE public.applications (id text PRIMARY KEY)');
    // The portal's app registers its own cookie plugin and Zod compilers; the regions must coexist with both.
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(fastifyCookie);
    app.get('/api/health', async () => ({ ok: true }));
    const { store } = await openRegionStore({ executor: database });
    await registerRegions(app, {
      regions: ['SG', 'EU', 'US'],
      portalUrl: portal.url,
      adminToken: ADMIN_TOKEN,
      publicBaseUrl: 'https://portal.example',
      provisioningDelayMs: 0,
      store,
    });
    onTestFinished(() => app.close());

    expect((await app.inject('/api/health')).json()).toEqual({ ok: true });
    expect((await app.inject('/regions/us/ping')).json()).toEqual({ region: 'US', ok: true });
    const network = await createNetwork(app, 'eu', 'mounted-app');
    expect(network.consoleUrl).toBe(`https://portal.example/regions/eu/console/${network.networkId}`);

    portal.allow('alice', 'mounted-app');
    const sso = await app.inject({
      method: 'POST',
      url: '/regions/eu/api/v2/sso/portal?applicationId=mounted-app',
      headers: { authorization: `Bearer ${await portal.token('alice')}` },
    });
    expect(sso.statusCode).toBe(200);
    // Served over https, the cookie is sent on the portal's cross-site credentialed calls.
    expect(String(sso.headers['set-cookie'])).toContain('Secure; SameSite=None');

    const tables = await database.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'region' ORDER BY table_name",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'active_users',
      'api_keys',
      'networks',
      'sessions',
    ]);
  });
});

describe('a restart', () => {
  it('keeps networks and finishes provisioning that was under way', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'region-restart-'));
    onTestFinished(() => fs.rm(dataDir, { recursive: true, force: true }));
    const options = {
      regions: ['SG'] as const,
      portalUrl: 'http://127.0.0.1:9',
      adminToken: ADMIN_TOKEN,
      publicBaseUrl: 'http://localhost:4100',
      provisioningDelayMs: 300,
    };

    const first = await openRegionStore({ dataDir });
    const before = await createRegionApp({ ...options, store: first.store });
    const network = await createNetwork(before, 'sg', 'restart-app');
    expect(network.status).toBe('provisioning');
    const apiKey = await firstApiKey(first.store, network.networkId);
    await before.close();
    await first.close();

    await new Promise((resolve) => setTimeout(resolve, 350));
    const second = await openRegionStore({ dataDir });
    const after = await createRegionApp({ ...options, store: second.store });
    onTestFinished(async () => {
      await after.close();
      await second.close();
    });
    const read = await after.inject({
      method: 'GET',
      url: `/regions/sg/admin/v1/networks/${network.networkId}`,
      headers: admin,
    });
    expect(read.json()).toMatchObject({ networkId: network.networkId, status: 'active' });
    expect(await firstApiKey(second.store, network.networkId)).toBe(apiKey);
    // A retried create after the restart still answers the same network.
    expect((await createNetwork(after, 'sg', 'restart-app')).networkId).toBe(network.networkId);
  });
});
