import type { Application } from '@portal/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACTIVATION_TIMEOUT_MS,
  ActivationTimeoutError,
  createAndConnectApplication,
} from './create-application';

const app = (state: Application['state']): Application => ({
  applicationId: 'app-1',
  name: 'Rockets',
  plan: 'advance',
  planName: 'Advance',
  region: 'SG',
  state,
  createdAt: '2026-11-22T05:00:00.000Z',
  deactivatedAt: null,
  consoleUrl: state === 'active' ? 'https://console.example.com/net-1' : null,
  description: '',
  networkId: state === 'active' ? 'net-1' : null,
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** Singapore at its own address, the other regions hosted by the portal. */
const REGION_BASE_URLS = { SG: 'https://sg.region.example/regions/sg', EU: '/regions/eu', US: '/regions/us' };
const SSO_URL = 'https://sg.region.example/regions/sg/api/v2/sso/portal?applicationId=app-1';

/** A fake portal and region: the app turns active after `activeAfter` polls. */
function fakeServer(activeAfter: number) {
  const calls: { url: string; method: string; auth: string | null }[] = [];
  let polls = 0;
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push({ url, method, auth: new Headers(init.headers).get('Authorization') });
    if (url === '/api/v1/applications' && method === 'POST') return json([app('initializing')], 201);
    if (url === '/api/v1/applications/app-1')
      return json(app(++polls >= activeAfter ? 'active' : 'initializing'));
    if (url === '/api/auth/token') return json({ token: 'jwt-1' });
    if (url === '/api/v1/config') return json({ productName: 'Social', regionBaseUrls: REGION_BASE_URLS });
    if (url === SSO_URL)
      return json({
        ok: true,
        networkId: 'net-1',
        sessionToken: 'rs-1',
        expiresAt: '2026-11-22T06:00:00.000Z',
      });
    return json({ code: 'NOT_FOUND', message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('createAndConnectApplication', () => {
  it("polls until the app is active, then opens the regional session at the region's address with a portal token", async () => {
    const calls = fakeServer(3);
    const done = createAndConnectApplication({ name: 'Rockets', plan: 'advance', region: 'SG' });
    await vi.runAllTimersAsync();
    const { application, session } = await done;
    expect(application.state).toBe('active');
    expect(session).toMatchObject({ networkId: 'net-1', sessionToken: 'rs-1' });
    expect(calls.filter((call) => call.url === '/api/v1/applications/app-1')).toHaveLength(3);
    const sso = calls.at(-1);
    expect(sso).toEqual({ url: SSO_URL, method: 'POST', auth: 'Bearer jwt-1' });
  });

  it('gives up when the app is not active within the time limit', async () => {
    const calls = fakeServer(Number.POSITIVE_INFINITY);
    const done = createAndConnectApplication({ name: 'Rockets', plan: 'advance', region: 'SG' });
    const outcome = expect(done).rejects.toBeInstanceOf(ActivationTimeoutError);
    await vi.advanceTimersByTimeAsync(ACTIVATION_TIMEOUT_MS + 2_000);
    await outcome;
    expect(calls.some((call) => call.url.startsWith('/regions/'))).toBe(false);
  });
});
