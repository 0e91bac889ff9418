import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { NetworkSchema } from '@portal/contracts';
import { admin, createNetwork, firstApiKey, startRegions, type Harness } from './helper.ts';

describe('regional admin API', () => {
  describe('with no provisioning delay', () => {
    // One PGlite for the block: each test uses its own application ids.
    let h: Harness;
    beforeAll(async () => {
      h = await startRegions();
    });
    afterAll(async () => h.close());

    it('refuses calls without the admin token, or with a wrong one', async () => {
      const none = await h.app.inject({
        method: 'POST',
        url: '/regions/eu/admin/v1/networks',
        payload: { applicationId: 'a1', organizationId: 'o', name: 'A' },
      });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      const wrong = await h.app.inject({
        method: 'GET',
        url: '/regions/eu/admin/v1/usage?month=2026-11',
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    });

    it('creates a network with an API key and console URL, idempotently per application', async () => {
      const first = await createNetwork(h.app, 'eu', 'app-1', 'Chat app');
      expect(NetworkSchema.parse(first)).toMatchObject({
        applicationId: 'app-1',
        name: 'Chat app',
        region: 'EU',
      });
      expect(first.consoleUrl).toBe(`http://region.test/regions/eu/console/${first.networkId}`);
      const retried = await createNetwork(h.app, 'eu', 'app-1', 'Chat app');
      expect(retried.networkId).toBe(first.networkId);
      expect(await firstApiKey(h.store, first.networkId)).toMatch(/^rk_/);
      // The same application id in another region is that region's own network.
      const us = await createNetwork(h.app, 'us', 'app-1');
      expect(us.networkId).not.toBe(first.networkId);
      expect(us.region).toBe('US');
    });

    it('validates the create body', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/regions/sg/admin/v1/networks',
        headers: admin,
        payload: { applicationId: 'x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('renames, deactivates and reactivates', async () => {
      const network = await createNetwork(h.app, 'sg', 'app-2');
      const base = `/regions/sg/admin/v1/networks/${network.networkId}`;
      const renamed = await h.app.inject({
        method: 'PUT',
        url: base,
        headers: admin,
        payload: { name: 'Renamed' },
      });
      expect(renamed.json()).toMatchObject({ name: 'Renamed', status: 'active' });
      const deactivated = await h.app.inject({ method: 'POST', url: `${base}/deactivate`, headers: admin });
      expect(deactivated.json()).toMatchObject({ status: 'inactive' });
      expect((await h.app.inject({ method: 'GET', url: base, headers: admin })).json()).toMatchObject({
        status: 'inactive',
        name: 'Renamed',
      });
      const reactivated = await h.app.inject({ method: 'POST', url: `${base}/reactivate`, headers: admin });
      expect(reactivated.json()).toMatchObject({ status: 'active' });
    });

    it('answers 404 for a network of another region or none at all', async () => {
      const network = await createNetwork(h.app, 'sg', 'app-3');
      expect(
        (
          await h.app.inject({
            method: 'GET',
            url: `/regions/eu/admin/v1/networks/${network.networkId}`,
            headers: admin,
          })
        ).statusCode,
      ).toBe(404);
      const missing = await h.app.inject({
        method: 'PUT',
        url: '/regions/sg/admin/v1/networks/net_missing',
        headers: admin,
        payload: { name: 'x' },
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'NETWORK_NOT_FOUND' });
    });
  });

  it('reports provisioning until the delay has passed, then active', async () => {
    const h = await startRegions({ provisioningDelayMs: 400 });
    onTestFinished(() => h.close());
    const network = await createNetwork(h.app, 'eu', 'app-slow');
    expect(network.status).toBe('provisioning');
    const url = `/regions/eu/admin/v1/networks/${network.networkId}`;
    expect((await h.app.inject({ method: 'GET', url, headers: admin })).json()).toMatchObject({
      status: 'provisioning',
    });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await h.app.inject({ method: 'GET', url, headers: admin })).json()).toMatchObject({
      status: 'active',
    });
  });
});
