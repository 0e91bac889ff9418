// @vitest-environment jsdom
import type { Application } from '@portal/contracts';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { getApiKey, getFirstActivity, pingRegion } from './region-api';
import { openConsole } from './regional-session';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

/** Europe at its own address, the other regions hosted by the portal. */
const EU_BASE = 'https://eu.region.example/regions/eu';
const REGION_BASE_URLS = { SG: '/regions/sg', EU: EU_BASE, US: '/regions/us' };

interface Call {
  url: string;
  method: string;
  authorization: string | null;
  credentials: RequestCredentials | undefined;
}

/** The portal's configuration and token, and a region answering its session, key and first activity. */
function fakeServers() {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push({
      url,
      method,
      authorization: new Headers(init.headers).get('Authorization'),
      credentials: init.credentials,
    });
    if (url === '/api/v1/config') return json({ productName: 'Social', regionBaseUrls: REGION_BASE_URLS });
    if (url === '/api/auth/token') return json({ token: 'portal-jwt' });
    if (url === `${EU_BASE}/api/v2/sso/portal?applicationId=app-1`)
      return json({
        ok: true,
        networkId: 'net-1',
        sessionToken: 'regional-1',
        expiresAt: '2026-11-22T06:00:00.000Z',
      });
    if (url === `${EU_BASE}/admin/v1/network/apikey`) return json({ apiKey: 'rk_live_1' });
    if (url === `${EU_BASE}/network/first-activity?networkId=net-1`) return json({ status: true });
    if (url === `${EU_BASE}/ping` || url === '/regions/sg/ping' || url === '/regions/us/ping')
      return json({ region: url.includes('eu') ? 'EU' : url.includes('sg') ? 'SG' : 'US', ok: true });
    return json({ code: 'NOT_FOUND', message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

beforeEach(() => {
  document.body.innerHTML = '';
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

it("calls a region at the address the public configuration names, the portal's hosted ones on its origin", async () => {
  const calls = fakeServers();
  await expect(pingRegion('EU', new AbortController().signal)).resolves.toEqual({ region: 'EU', ok: true });
  await expect(pingRegion('SG', new AbortController().signal)).resolves.toEqual({ region: 'SG', ok: true });
  expect(calls.map((call) => call.url)).toEqual(
    expect.arrayContaining([`${EU_BASE}/ping`, '/regions/sg/ping']),
  );
});

it('sends the regional session as a bearer header for the API key and the first activity', async () => {
  const calls = fakeServers();
  const session = { sessionToken: 'regional-1' };
  await expect(getApiKey('EU', session)).resolves.toEqual({ apiKey: 'rk_live_1' });
  await expect(getFirstActivity('EU', 'net-1', session)).resolves.toEqual({ status: true });
  const regional = calls.filter((call) => call.url.startsWith(EU_BASE));
  expect(regional).toHaveLength(2);
  for (const call of regional) {
    expect(call.authorization).toBe('Bearer regional-1');
    expect(call.credentials).toBe('include');
  }
});

it("signs the console tab in by posting the regional session to the console's address", async () => {
  const calls = fakeServers();
  const tab = document.implementation.createHTMLDocument('console');
  const submitted: HTMLFormElement[] = [];
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
    submitted.push(this);
  });
  const application = {
    applicationId: 'app-1',
    region: 'EU',
    consoleUrl: `${EU_BASE}/console/net-1`,
  } as Application & { consoleUrl: string };

  await openConsole(application, { document: tab, close: () => undefined } as unknown as Window);

  expect(calls.find((call) => call.url.includes('/api/v2/sso/portal'))?.authorization).toBe(
    'Bearer portal-jwt',
  );
  expect(submitted).toHaveLength(1);
  const [form] = submitted;
  expect(form?.ownerDocument).toBe(tab);
  expect(form?.method).toBe('post');
  expect(form?.action).toBe(`${EU_BASE}/console/net-1`);
  expect(Object.fromEntries(new FormData(form))).toEqual({ session: 'regional-1' });
  // Posted with the portal's origin named, which the region checks.
  expect(tab.head.querySelector('meta[name="referrer"]')?.getAttribute('content')).toBe('origin');
});

it('closes the tab when the regional session cannot be opened', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json({ code: 'UNAUTHORIZED', message: 'no' }, 401)),
  );
  const close = vi.fn();
  const application = {
    applicationId: 'app-2',
    region: 'EU',
    consoleUrl: `${EU_BASE}/console/net-2`,
  } as Application & {
    consoleUrl: string;
  };
  await expect(
    openConsole(application, {
      document: document.implementation.createHTMLDocument(),
      close,
    } as unknown as Window),
  ).rejects.toThrow();
  expect(close).toHaveBeenCalled();
});
