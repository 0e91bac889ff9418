import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetwork, firstApiKey, openBearerSession, startRegions, type Harness } from './helper.ts';

/**
 * The regions on their own address, called by the portal's pages from another site: CORS for the
 * configured portal origin only, the regional session as a bearer header, and the console tab
 * signed in by a form the portal's page posts into it.
 */
describe('regions at their own address', () => {
  const PORTAL_ORIGIN = 'https://portal.example';
  let h: Harness;
  beforeAll(async () => {
    h = await startRegions({ portalOrigins: [PORTAL_ORIGIN], publicBaseUrl: 'https://eu.region.example' });
  });
  afterAll(async () => h.close());

  describe('CORS', () => {
    const preflight = (origin: string, method: string, headers: string) =>
      h.app.inject({
        method: 'OPTIONS',
        url: '/regions/eu/admin/v1/network/apikey',
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': headers,
        },
      });

    it('lets the configured portal origin send the session header, with credentials', async () => {
      const response = await preflight(PORTAL_ORIGIN, 'GET', 'authorization,accept');
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(PORTAL_ORIGIN);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(String(response.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(
        expect.arrayContaining(['GET', 'POST']),
      );
      expect(String(response.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)).toEqual(
        expect.arrayContaining(['authorization', 'accept']),
      );
    });

    it('answers no other origin, the portal URL given for tokens included once origins are named', async () => {
      for (const origin of ['https://evil.example', h.portal.url]) {
        const preflighted = await preflight(origin, 'GET', 'authorization');
        expect(preflighted.headers['access-control-allow-origin'], origin).toBeUndefined();
        const ping = await h.app.inject({ method: 'GET', url: '/regions/eu/ping', headers: { origin } });
        expect(ping.headers['access-control-allow-origin'], origin).toBeUndefined();
      }
      const ours = await h.app.inject({
        method: 'GET',
        url: '/regions/eu/ping',
        headers: { origin: PORTAL_ORIGIN },
      });
      expect(ours.headers['access-control-allow-origin']).toBe(PORTAL_ORIGIN);
      expect(ours.headers['access-control-allow-credentials']).toBe('true');
    });
  });

  describe('the regional session as a bearer header', () => {
    it('is answered by the SSO call and reads the API key and first activity without a cookie', async () => {
      const network = await createNetwork(h.app, 'eu', 'bearer-app');
      const apiKey = await firstApiKey(h.store, network.networkId);
      h.portal.allow('olga', 'bearer-app');
      const sso = await h.app.inject({
        method: 'POST',
        url: '/regions/eu/api/v2/sso/portal?applicationId=bearer-app',
        headers: { authorization: `Bearer ${await h.portal.token('olga')}`, origin: PORTAL_ORIGIN },
      });
      expect(sso.statusCode).toBe(200);
      const body = sso.json<{ sessionToken: string; expiresAt: string; networkId: string }>();
      expect(body.networkId).toBe(network.networkId);
      expect(body.sessionToken).toMatch(/^[\w-]{20,}$/);
      expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now());

      const authorization = `Bearer ${body.sessionToken}`;
      const key = await h.app.inject({
        method: 'GET',
        url: '/regions/eu/admin/v1/network/apikey',
        headers: { authorization, origin: PORTAL_ORIGIN },
      });
      expect(key.statusCode).toBe(200);
      expect(key.json()).toEqual({ apiKey });
      const activity = await h.app.inject({
        method: 'GET',
        url: `/regions/eu/network/first-activity?networkId=${network.networkId}`,
        headers: { authorization },
      });
      expect(activity.json()).toEqual({ status: false });
    });

    it('refuses a token that is no session, and one of another region', async () => {
      await createNetwork(h.app, 'eu', 'other-region-app');
      h.portal.allow('pete', 'other-region-app');
      const token = await openBearerSession(h, 'eu', 'pete', 'other-region-app');
      for (const [region, authorization] of [
        ['eu', 'Bearer not-a-session'],
        ['sg', `Bearer ${token}`],
      ] as const) {
        const response = await h.app.inject({
          method: 'GET',
          url: `/regions/${region}/admin/v1/network/apikey`,
          headers: { authorization },
        });
        expect(response.statusCode, `${region} ${authorization}`).toBe(401);
      }
    });

    it('ends when the portal no longer vouches for it', async () => {
      await createNetwork(h.app, 'eu', 'ended-bearer-app');
      h.portal.allow('quinn', 'ended-bearer-app');
      const token = await openBearerSession(h, 'eu', 'quinn', 'ended-bearer-app');
      const apiKey = () =>
        h.app.inject({
          method: 'GET',
          url: '/regions/eu/admin/v1/network/apikey',
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await apiKey()).statusCode).toBe(200);
      h.portal.endSession('quinn');
      expect((await apiKey()).statusCode).toBe(401);
    });
  });

  describe("the console tab's sign-in", () => {
    const postConsole = (networkId: string, session: string, origin?: string) =>
      h.app.inject({
        method: 'POST',
        url: `/regions/us/console/${networkId}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(origin ? { origin } : {}),
        },
        payload: new URLSearchParams({ session }).toString(),
      });

    it('sets the session cookie first-party and sends the tab on to the console', async () => {
      const network = await createNetwork(h.app, 'us', 'console-tab-app', 'Tab App');
      h.portal.allow('rita', 'console-tab-app');
      const token = await openBearerSession(h, 'us', 'rita', 'console-tab-app');
      const posted = await postConsole(network.networkId, token, PORTAL_ORIGIN);
      expect(posted.statusCode).toBe(303);
      expect(posted.headers.location).toBe(network.consoleUrl);
      const cookie = String(posted.headers['set-cookie']);
      expect(cookie).toMatch(/^region_session_us=/);
      expect(cookie).toContain('HttpOnly');

      const page = await h.app.inject({
        method: 'GET',
        url: `/regions/us/console/${network.networkId}`,
        headers: { cookie: cookie.split(';')[0] ?? '' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Tab App');
    });

    it('refuses a post from another origin or naming none, and a session that is not the network’s', async () => {
      const network = await createNetwork(h.app, 'us', 'console-refused-app');
      const other = await createNetwork(h.app, 'us', 'console-other-app');
      h.portal.allow('sam', 'console-refused-app');
      const token = await openBearerSession(h, 'us', 'sam', 'console-refused-app');

      for (const origin of ['https://evil.example', undefined]) {
        const response = await postConsole(network.networkId, token, origin);
        expect(response.statusCode, String(origin)).toBe(403);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      for (const [networkId, session] of [
        [other.networkId, token],
        [network.networkId, 'not-a-session'],
      ] as const) {
        const response = await postConsole(networkId, session, PORTAL_ORIGIN);
        expect(response.statusCode).toBe(401);
        expect(response.body).toContain('Open the console from the portal');
        expect(response.headers['set-cookie']).toBeUndefined();
      }
    });
  });
});
