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

  it('refuses the regional admin API without the admin token', async () => {
    const { app } = withEmbeddedRegions;
    const response = await app.inject({ method: 'GET', url: '/regions/eu/admin/v1/usage?month=2026-11' });
    expect(response.statusCode).toBe(401);
  });
});
