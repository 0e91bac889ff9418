import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { admin, createNetwork, firstApiKey, startRegions, type Harness } from './helper.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

function thisMonth() {
  return new Date().toISOString().slice(0, 7);
}

describe('SDK sessions and monthly active users', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startRegions();
  });
  afterAll(async () => h.close());

  const sdkSession = (region: string, apiKey: string, userId: string) =>
    h.app.inject({
      method: 'POST',
      url: `/regions/${region}/sdk/v1/sessions`,
      headers: { 'x-api-key': apiKey },
      payload: { userId },
    });

  const keyOf = (networkId: string) => firstApiKey(h.store, networkId);

  it('opens a session for a valid key and answers its ids', async () => {
    const network = await createNetwork(h.app, 'eu', 'sdk-ok');
    const response = await sdkSession('eu', await keyOf(network.networkId), 'alice');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      userId: 'alice',
      networkId: network.networkId,
      sessionId: expect.any(String),
    });
  });

  it('refuses a wrong key, and a key of another region', async () => {
    const network = await createNetwork(h.app, 'sg', 'sdk-wrong');
    expect((await sdkSession('sg', 'rk_not-a-key', 'alice')).statusCode).toBe(401);
    expect((await sdkSession('us', await keyOf(network.networkId), 'alice')).statusCode).toBe(401);
    expect(
      (await h.app.inject({ method: 'POST', url: '/regions/sg/sdk/v1/sessions', payload: { userId: 'a' } }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses an inactive network until it is reactivated', async () => {
    const network = await createNetwork(h.app, 'eu', 'sdk-inactive');
    const key = await keyOf(network.networkId);
    await h.app.inject({
      method: 'POST',
      url: `/regions/eu/admin/v1/networks/${network.networkId}/deactivate`,
      headers: admin,
    });
    const refused = await sdkSession('eu', key, 'alice');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'NETWORK_NOT_ACTIVE' });
    expect((await h.store.network('EU', network.networkId))?.firstActivityAt).toBeNull();
    await h.app.inject({
      method: 'POST',
      url: `/regions/eu/admin/v1/networks/${network.networkId}/reactivate`,
      headers: admin,
    });
    expect((await sdkSession('eu', key, 'alice')).statusCode).toBe(201);
  });

  it('counts a user once a month however often they connect, and each user once', async () => {
    const network = await createNetwork(h.app, 'us', 'mau-app');
    const quiet = await createNetwork(h.app, 'us', 'mau-quiet');
    const key = await keyOf(network.networkId);
    await sdkSession('us', key, 'alice');
    await sdkSession('us', key, 'alice');
    const usageOf = async () => {
      const response = await h.app.inject({
        method: 'GET',
        url: `/regions/us/admin/v1/usage?month=${thisMonth()}`,
        headers: admin,
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ networkId: string; applicationId: string; activeUsers: number }[]>();
    };
    expect(await usageOf()).toEqual(
      expect.arrayContaining([
        { networkId: network.networkId, applicationId: 'mau-app', activeUsers: 1 },
        { networkId: quiet.networkId, applicationId: 'mau-quiet', activeUsers: 0 },
      ]),
    );
    await sdkSession('us', key, 'bob');
    expect((await usageOf()).find((u) => u.networkId === network.networkId)?.activeUsers).toBe(2);
    const lastYear = await h.app.inject({
      method: 'GET',
      url: '/regions/us/admin/v1/usage?month=2000-01',
      headers: admin,
    });
    expect(
      lastYear
        .json<{ networkId: string; activeUsers: number }[]>()
        .find((u) => u.networkId === network.networkId)?.activeUsers,
    ).toBe(0);
    const badMonth = await h.app.inject({
      method: 'GET',
      url: '/regions/us/admin/v1/usage?month=2026',
      headers: admin,
    });
    expect(badMonth.statusCode).toBe(400);
  });
});

describe('a network still provisioning', () => {
  it('refuses SDK sessions with 403', async () => {
    const h = await startRegions({ provisioningDelayMs: 60_000 });
    onTestFinished(() => h.close());
    const network = await createNetwork(h.app, 'eu', 'sdk-provisioning');
    const key = await firstApiKey(h.store, network.networkId);
    const response = await h.app.inject({
      method: 'POST',
      url: '/regions/eu/sdk/v1/sessions',
      headers: { 'x-api-key': key },
      payload: { userId: 'alice' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('the sample client (npm run sdk)', () => {
  let h: Harness;
  let baseUrl: string;
  beforeAll(async () => {
    h = await startRegions();
    baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => h.close());

  const sdk = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', 'apps/region/src/sdk-cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });

  it('makes a real SDK session call that turns first activity on', async () => {
    const network = await createNetwork(h.app, 'eu', 'cli-app');
    const key = await firstApiKey(h.store, network.networkId);
    const { stdout } = await sdk(
      ['ping', '--region', 'eu', '--api-key', key, '--user', 'alice', '--base-url', baseUrl],
      { REGION_EU_URL: '' },
    );
    expect(stdout).toContain(`network ${network.networkId}`);
    expect(stdout).toContain('as alice');
    expect((await h.store.network('EU', network.networkId))?.firstActivityAt).toBeInstanceOf(Date);
  });

  it('follows REGION_*_URL over the base URL', async () => {
    const network = await createNetwork(h.app, 'sg', 'cli-override');
    const key = await firstApiKey(h.store, network.networkId);
    const { stdout } = await sdk(
      ['ping', '--region', 'SG', '--api-key', key, '--user', 'bob', '--base-url', 'http://127.0.0.1:9'],
      {
        REGION_SG_URL: `${baseUrl}/regions/sg`,
      },
    );
    expect(stdout).toContain(network.networkId);
  });

  it('exits 1 with the error message for a wrong key', async () => {
    const failure = await sdk(
      ['ping', '--region', 'eu', '--api-key', 'rk_wrong', '--user', 'alice', '--base-url', baseUrl],
      { REGION_EU_URL: '' },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('401');
    expect(failure?.stderr).toContain('not valid');
  });
});

describe('the standalone server (npm run region)', () => {
  it('hosts the chosen regions on its own port', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/region/src/cli.ts',
        '--port',
        '0',
        '--regions',
        'EU,US',
        '--data-dir',
        'memory://',
        '--admin-token',
        'standalone-token',
        '--provisioning-delay-ms',
        '0',
        '--portal-origin',
        'https://portal.example,http://localhost:5173',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    onTestFinished(() => {
      child.kill('SIGTERM');
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = out.match(/listening on (http:\/\/\S+)/);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('exit', (code) => reject(new Error(`region server exited with ${code}: ${out}`)));
    });
    expect(await (await fetch(`${url}/regions/us/ping`)).json()).toEqual({ region: 'US', ok: true });
    expect((await fetch(`${url}/regions/sg/ping`)).status).toBe(404);
    // The portal's pages, on the origins it was given, may call it from the browser; others may not.
    const corsOrigin = async (origin: string) =>
      (await fetch(`${url}/regions/eu/ping`, { headers: { origin } })).headers.get(
        'access-control-allow-origin',
      );
    expect(await corsOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(await corsOrigin('https://portal.example')).toBe('https://portal.example');
    expect(await corsOrigin('https://evil.example')).toBeNull();
    const created = await fetch(`${url}/regions/eu/admin/v1/networks`, {
      method: 'POST',
      headers: { authorization: 'Bearer standalone-token', 'content-type': 'application/json' },
      body: JSON.stringify({ applicationId: 'standalone-app', organizationId: 'org', name: 'Standalone' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      applicationId: 'standalone-app',
      status: 'active',
      region: 'EU',
    });
  });
});
