import { describe, expect, it } from 'vitest';
import { useTestApp } from './helper.ts';

describe('embedded regional emulator', () => {
  const withEmbeddedRegions = useTestApp();
  const withRemoteEu = useTestApp({ REGION_EU_URL: 'http://127.0.0.1:9/eu' });

  it('hosts every region without a REGION_*_URL under /regions/{key}', async () => {
    const { app } = withEmbeddedRegions;
    for (const key of ['sg', 'eu', 'us']) {
      const ping = await app.inject({ method: 'GET', url: `/regions/${key}/ping` });
      expect(ping.statusCode).toBe(200);
      expect(ping.json()).toEqual({ region: key.toUpperCase(), ok: true });
    }
  });

  it('leaves a region with its own URL to that URL', async () => {
    const { app } = withRemoteEu;
    expect((await app.inject({ method: 'GET', url: '/regions/eu/ping' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/regions/sg/ping' })).statusCode).toBe(200);
  });

  it("names each region's base for the browser in the public configuration", async () => {
    const hosted = await withEmbeddedRegions.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(hosted.statusCode).toBe(200);
    expect(hosted.json().regionBaseUrls).toEqual({ SG: '/regions/sg', EU: '/regions/eu', US: '/regions/us' });

    const remote = await withRemoteEu.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(remote.json().regionBaseUrls).toEqual({
      SG: '/regions/sg',
      EU: 'http://127.0.0.1:9/eu',
      US: '/regions/us',
    });
  });

  it("lets the pages call a region at its own address and post the console's sign-in there", async () => {
    const directives = async (app: typeof withRemoteEu.app) => {
      const policy = String(
        (await app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy'],
      );
      return Object.fromEntries(
        policy.split(';').map((directive) => {
          const [name = '', ...sources] = directive.trim().split(/\s+/);
          return [name, sources];
        }),
      );
    };
    const remote = await directives(withRemoteEu.app);
    expect(remote['connect-src']).toContain('http://127.0.0.1:9');
    expect(remote['form-action']).toEqual(["'self'", 'http://127.0.0.1:9']);
    const hosted = await directives(withEmbeddedRegions.app);
    expect(hosted['connect-src']).not.toContain('http://127.0.0.1:9');
    expect(hosted['form-action']).toEqual(["'self'"]);
  });

  it('refuses the regional admin API without the admin token', async () => {
    const { app } = withEmbeddedRegions;
    const response = await app.inject({ method: 'GET', url: '/regions/eu/admin/v1/usage?month=2026-11' });
    expect(response.statusCode).toBe(401);
  });
});
