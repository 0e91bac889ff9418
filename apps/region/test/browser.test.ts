import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetwork, firstApiKey, openSession, startRegions, type Harness } from './helper.ts';

describe('regional browser API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegions();
  });
  afterAll(async () => h.close());

  const sso = async (applicationId: string, token: string | undefined, region = 'eu') =>
    h.app.inject({
      method: 'POST',
      url: `/regions/${region}/api/v2/sso/portal?applicationId=${applicationId}`,
      headers: { origin: h.portal.url, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  describe("starting an organisation's single sign-on", () => {
    const start = (query: string) =>
      h.app.inject({ method: 'GET', url: `/regions/sg/api/sso/saml/start${query}` });

    it("hands the browser to the portal's sign-in of that organisation, which starts at once", async () => {
      const response = await start('?organization=Acme-Corp');
      expect(response.statusCode).toBe(302);
      const location = new URL(String(response.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(`${h.portal.url}/sign-in-sso`);
      expect(Object.fromEntries(location.searchParams)).toEqual({ org: 'acme-corp', init: 'true' });
    });

    it('answers a missing or malformed organisation with a 400 and the message to show', async () => {
      for (const [query, message] of [
        ['', 'Please enter your organization domain.'],
        ['?organization=acme.corp', 'Use letters, digits and dashes only, up to 32 characters.'],
        [`?organization=${'a'.repeat(33)}`, 'Use letters, digits and dashes only, up to 32 characters.'],
      ] as const) {
        const response = await start(query);
        expect(response.statusCode, query).toBe(400);
        expect(response.json()).toEqual({ code: 'VALIDATION_ERROR', message });
      }
    });
  });

  describe('SSO with the portal access token', () => {
    it('opens an HttpOnly regional session scoped to the region for a valid token', async () => {
      const network = await createNetwork(h.app, 'eu', 'sso-ok');
      h.portal.allow('alice', 'sso-ok');
      const response = await sso('sso-ok', await h.portal.token('alice'));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ ok: true, networkId: network.networkId });
      const cookie = String(response.headers['set-cookie']);
      expect(cookie).toMatch(/^region_session_eu=/);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('Path=/regions/eu');
      // The test server's public URL is http, so the cookie cannot be Secure and stays Lax.
      expect(cookie).toContain('SameSite=Lax');
    });

    it('refuses a request without a token', async () => {
      const response = await sso('sso-ok', undefined);
      expect(response.statusCode).toBe(401);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('refuses an expired token', async () => {
      h.portal.allow('bob', 'sso-ok');
      const expired = await h.portal.token('bob', { expiresIn: Math.floor(Date.now() / 1000) - 60 });
      const response = await sso('sso-ok', expired);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'INVALID_TOKEN' });
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a token signed by another key', async () => {
      h.portal.allow('mallory', 'sso-ok');
      const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
      const forged = await h.portal.token('mallory', { key: privateKey });
      const response = await sso('sso-ok', forged);
      expect(response.statusCode).toBe(401);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a token from another issuer', async () => {
      h.portal.allow('alice', 'sso-ok');
      const response = await sso(
        'sso-ok',
        await h.portal.token('alice', { issuer: 'http://elsewhere.test' }),
      );
      expect(response.statusCode).toBe(401);
    });

    it('refuses an application the portal does not let the caller see', async () => {
      await createNetwork(h.app, 'eu', 'sso-theirs');
      const response = await sso('sso-theirs', await h.portal.token('alice'));
      expect(response.statusCode).toBe(404);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('answers 404 when the application has no network in this region', async () => {
      h.portal.allow('alice', 'sso-elsewhere');
      await createNetwork(h.app, 'sg', 'sso-elsewhere');
      const response = await sso('sso-elsewhere', await h.portal.token('alice'), 'us');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NETWORK_NOT_FOUND' });
    });
  });

  describe('CORS', () => {
    it('allows the portal origin with credentials on a preflight', async () => {
      const response = await h.app.inject({
        method: 'OPTIONS',
        url: '/regions/eu/api/v2/sso/portal?applicationId=x',
        headers: {
          origin: h.portal.url,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(h.portal.url);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
    });

    it('reflects the portal origin on ping and gives no CORS headers to another origin', async () => {
      const ours = await h.app.inject({
        method: 'GET',
        url: '/regions/sg/ping',
        headers: { origin: h.portal.url },
      });
      expect(ours.json()).toEqual({ region: 'SG', ok: true });
      expect(ours.headers['access-control-allow-origin']).toBe(h.portal.url);
      const theirs = await h.app.inject({
        method: 'GET',
        url: '/regions/sg/ping',
        headers: { origin: 'https://evil.example' },
      });
      // Without an allowed origin the browser hides the answer, whatever else the headers say.
      expect(theirs.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('with a regional session', () => {
    it('reads the API key of the session application only', async () => {
      await createNetwork(h.app, 'us', 'key-app');
      h.portal.allow('carol', 'key-app');
      const stored = await h.store.networkByApplication('US', 'key-app');
      const apiKey = await firstApiKey(h.store, stored?.networkId ?? '');
      const cookie = await openSession(h, 'us', 'carol', 'key-app');
      const withSession = await h.app.inject({
        method: 'GET',
        url: '/regions/us/admin/v1/network/apikey',
        headers: { cookie },
      });
      expect(withSession.statusCode).toBe(200);
      expect(withSession.json()).toEqual({ apiKey });
      const without = await h.app.inject({ method: 'GET', url: '/regions/us/admin/v1/network/apikey' });
      expect(without.statusCode).toBe(401);
      // A session of one region is not a session of another.
      const otherRegion = await h.app.inject({
        method: 'GET',
        url: '/regions/eu/admin/v1/network/apikey',
        headers: { cookie: cookie.replace('region_session_us', 'region_session_eu') },
      });
      expect(otherRegion.statusCode).toBe(401);
    });

    it('reports first activity false, then true after an SDK session', async () => {
      const network = await createNetwork(h.app, 'eu', 'first-app');
      const apiKey = await firstApiKey(h.store, network.networkId);
      h.portal.allow('dave', 'first-app');
      const cookie = await openSession(h, 'eu', 'dave', 'first-app');
      const url = `/regions/eu/network/first-activity?networkId=${network.networkId}`;
      expect((await h.app.inject({ method: 'GET', url, headers: { cookie } })).json()).toEqual({
        status: false,
      });
      const sdk = await h.app.inject({
        method: 'POST',
        url: '/regions/eu/sdk/v1/sessions',
        headers: { 'x-api-key': apiKey },
        payload: { userId: 'u1' },
      });
      expect(sdk.statusCode).toBe(201);
      expect((await h.app.inject({ method: 'GET', url, headers: { cookie } })).json()).toEqual({
        status: true,
      });
      expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    });

    it("refuses first activity of a network that is not the session's", async () => {
      const other = await createNetwork(h.app, 'eu', 'not-mine');
      await createNetwork(h.app, 'eu', 'mine');
      h.portal.allow('erin', 'mine');
      const cookie = await openSession(h, 'eu', 'erin', 'mine');
      const response = await h.app.inject({
        method: 'GET',
        url: `/regions/eu/network/first-activity?networkId=${other.networkId}`,
        headers: { cookie },
      });
      expect(response.statusCode).toBe(404);
    });

    it('shows the console of the session application with its name, region and state', async () => {
      const network = await createNetwork(h.app, 'sg', 'console-app', 'My <Chat> App');
      h.portal.allow('frank', 'console-app');
      const cookie = await openSession(h, 'sg', 'frank', 'console-app');
      const page = await h.app.inject({
        method: 'GET',
        url: `/regions/sg/console/${network.networkId}`,
        headers: { cookie },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('My &lt;Chat&gt; App');
      expect(page.body).toContain('Singapore');
      expect(page.body).toContain('>active<');
      const anonymous = await h.app.inject({
        method: 'GET',
        url: `/regions/sg/console/${network.networkId}`,
      });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.body).toContain('Open the console from the portal');
    });
  });

  describe('while the portal still vouches for the session', () => {
    const apiKey = (region: string, cookie: string) =>
      h.app.inject({ method: 'GET', url: `/regions/${region}/admin/v1/network/apikey`, headers: { cookie } });

    it('asks the portal on every use, with the admin token', async () => {
      await createNetwork(h.app, 'eu', 'asked-app');
      h.portal.allow('gina', 'asked-app');
      const cookie = await openSession(h, 'eu', 'gina', 'asked-app');
      const before = h.portal.sessionChecks;
      expect((await apiKey('eu', cookie)).statusCode).toBe(200);
      expect((await apiKey('eu', cookie)).statusCode).toBe(200);
      expect(h.portal.sessionChecks - before).toBe(2);
    });

    it('ends the regional session at once when the portal session ends', async () => {
      const network = await createNetwork(h.app, 'eu', 'ended-app');
      h.portal.allow('hank', 'ended-app');
      const cookie = await openSession(h, 'eu', 'hank', 'ended-app');
      expect((await apiKey('eu', cookie)).statusCode).toBe(200);

      h.portal.endSession('hank');
      expect((await apiKey('eu', cookie)).statusCode).toBe(401);
      const firstActivity = await h.app.inject({
        method: 'GET',
        url: `/regions/eu/network/first-activity?networkId=${network.networkId}`,
        headers: { cookie },
      });
      expect(firstActivity.statusCode).toBe(401);
      const consolePage = await h.app.inject({
        method: 'GET',
        url: `/regions/eu/console/${network.networkId}`,
        headers: { cookie },
      });
      expect(consolePage.statusCode).toBe(401);
      // The refused session was deleted: even a portal vouching again would not revive it.
      h.portal.endedSessions.delete('sid-hank');
      expect((await apiKey('eu', cookie)).statusCode).toBe(401);
    });

    it('ends it when the member may no longer see the application', async () => {
      await createNetwork(h.app, 'sg', 'narrowed-app');
      h.portal.allow('ivy', 'narrowed-app');
      const cookie = await openSession(h, 'sg', 'ivy', 'narrowed-app');
      h.portal.deny('ivy', 'narrowed-app');
      expect((await apiKey('sg', cookie)).statusCode).toBe(401);
    });

    it('refuses with 503, never allows, while the portal cannot answer', async () => {
      await createNetwork(h.app, 'us', 'down-app');
      h.portal.allow('jack', 'down-app');
      const cookie = await openSession(h, 'us', 'jack', 'down-app');
      h.portal.down = true;
      try {
        const refused = await apiKey('us', cookie);
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toMatchObject({ code: 'PORTAL_UNAVAILABLE' });
      } finally {
        h.portal.down = false;
      }
      // The session was not ended by the outage.
      expect((await apiKey('us', cookie)).statusCode).toBe(200);
    });
  });
});
