import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import {
  ApiKeyResponseSchema,
  MAX_WORKING_API_KEYS,
  REGION_PATHS,
  RegionApiKeyListSchema,
  RegionApiKeySchema,
  RegionCreatedApiKeySchema,
} from '@portal/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createRegionApp, openRegionStore, type RegionStore } from '../src/index.ts';
import {
  ADMIN_TOKEN,
  admin,
  createNetwork,
  firstApiKey,
  openBearerSession,
  startRegions,
  type Harness,
} from './helper.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

const HOUR_MS = 60 * 60 * 1000;

describe('API keys with rotation', () => {
  // One PGlite for the file: each test uses its own application ids.
  let h: Harness;
  beforeAll(async () => {
    h = await startRegions();
  });
  afterAll(async () => h.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const base = (region: string) => `/regions/${region}`;

  const listKeys = async (region: string, networkId: string) => {
    const response = await h.app.inject({
      method: 'GET',
      url: `${base(region)}${REGION_PATHS.apiKeys(networkId)}`,
      headers: admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    return RegionApiKeyListSchema.parse(response.json()).results;
  };

  const createKey = (region: string, networkId: string, keyId: string, name = `Key ${keyId}`) =>
    h.app.inject({
      method: 'POST',
      url: `${base(region)}${REGION_PATHS.apiKeys(networkId)}`,
      headers: admin,
      payload: { keyId, name },
    });

  /** Creates a key that must be made, and answers it with its secret. */
  const createdKey = async (region: string, networkId: string, keyId: string, name?: string) => {
    const response = await createKey(region, networkId, keyId, name);
    expect(response.statusCode, response.body).toBe(201);
    return RegionCreatedApiKeySchema.parse(response.json());
  };

  const expireKey = (region: string, networkId: string, keyId: string, expiresAt: Date | string) =>
    h.app.inject({
      method: 'POST',
      url: `${base(region)}${REGION_PATHS.apiKeyExpire(networkId, keyId)}`,
      headers: admin,
      payload: { expiresAt: expiresAt instanceof Date ? expiresAt.toISOString() : expiresAt },
    });

  const revokeKey = (region: string, networkId: string, keyId: string) =>
    h.app.inject({
      method: 'POST',
      url: `${base(region)}${REGION_PATHS.apiKeyRevoke(networkId, keyId)}`,
      headers: admin,
    });

  const sdkSession = (region: string, apiKey: string, userId = 'alice') =>
    h.app.inject({
      method: 'POST',
      url: `${base(region)}${REGION_PATHS.sdkSession}`,
      headers: { 'x-api-key': apiKey },
      payload: { userId },
    });

  /** The setup wizard's call, with a regional session of a member allowed to see the application. */
  const wizardKey = async (region: string, applicationId: string) => {
    h.portal.allow('wanda', applicationId);
    const token = await openBearerSession(h, region, 'wanda', applicationId);
    const response = await h.app.inject({
      method: 'GET',
      url: `${base(region)}${REGION_PATHS.apiKey}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return ApiKeyResponseSchema.parse(response.json());
  };

  it("lists a new network's first key, the one the setup wizard shows", async () => {
    const network = await createNetwork(h.app, 'eu', 'keys-first');
    const secret = await firstApiKey(h.store, network.networkId);
    const [first, ...others] = await listKeys('eu', network.networkId);
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      name: 'Default key',
      prefix: secret.slice(0, 11),
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
      status: 'active',
    });
    expect(first?.prefix).toMatch(/^rk_.{8}$/);
    expect(first).not.toHaveProperty('secret');
    expect(await wizardKey('eu', 'keys-first')).toEqual({ apiKey: secret });
  });

  it('creates a key shown once, which opens SDK sessions, and lists keys newest first', async () => {
    const network = await createNetwork(h.app, 'eu', 'keys-create');
    const created = await createdKey('eu', network.networkId, 'keys-create-ci', 'CI server');
    expect(created).toMatchObject({ id: 'keys-create-ci', name: 'CI server', status: 'active' });
    expect(created.secret).toMatch(/^rk_[\w-]{32}$/);
    expect(created.secret.startsWith(created.prefix)).toBe(true);

    const listed = await listKeys('eu', network.networkId);
    expect(listed.map((key) => key.id)).toEqual(['keys-create-ci', `key_${network.networkId}`]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    // The wizard still shows the first key: a later key is never shown again.
    expect((await wizardKey('eu', 'keys-create')).apiKey).toBe(await firstApiKey(h.store, network.networkId));

    const session = await sdkSession('eu', created.secret);
    expect(session.statusCode, session.body).toBe(201);
    expect(session.json()).toMatchObject({ networkId: network.networkId });
  });

  it('expires a key at a time, never later than an expiry it has, and revokes it once', async () => {
    const network = await createNetwork(h.app, 'sg', 'keys-expire');
    await createdKey('sg', network.networkId, 'keys-expire-1');
    const inAnHour = new Date(Date.now() + HOUR_MS);

    const expiring = await expireKey('sg', network.networkId, 'keys-expire-1', inAnHour);
    expect(expiring.statusCode, expiring.body).toBe(200);
    expect(RegionApiKeySchema.parse(expiring.json())).toMatchObject({
      status: 'expiring',
      expiresAt: inAnHour.toISOString(),
    });
    const later = await expireKey(
      'sg',
      network.networkId,
      'keys-expire-1',
      new Date(Date.now() + 24 * HOUR_MS),
    );
    expect(later.json()).toMatchObject({ expiresAt: inAnHour.toISOString() });
    const sooner = new Date(Date.now() + 60_000);
    const earlier = await expireKey('sg', network.networkId, 'keys-expire-1', sooner);
    expect(earlier.json()).toMatchObject({ status: 'expiring', expiresAt: sooner.toISOString() });

    const revoked = await revokeKey('sg', network.networkId, 'keys-expire-1');
    expect(revoked.statusCode, revoked.body).toBe(200);
    const { revokedAt } = RegionApiKeySchema.parse(revoked.json());
    expect(revoked.json()).toMatchObject({ status: 'revoked', expiresAt: sooner.toISOString() });
    expect(revokedAt).not.toBeNull();
    const again = await revokeKey('sg', network.networkId, 'keys-expire-1');
    expect(again.json()).toMatchObject({ status: 'revoked', revokedAt });
    expect((await listKeys('sg', network.networkId)).find((key) => key.id === 'keys-expire-1')).toMatchObject(
      {
        status: 'revoked',
        revokedAt,
      },
    );

    const past = await expireKey(
      'sg',
      network.networkId,
      `key_${network.networkId}`,
      new Date(Date.now() - 1000),
    );
    expect(past.json()).toMatchObject({ status: 'expired' });
  });

  it(`refuses a key over ${MAX_WORKING_API_KEYS} that work, until one stops`, async () => {
    const network = await createNetwork(h.app, 'us', 'keys-limit');
    // The first key and four more make five; a key in a rotation's overlap still works, so counts.
    for (const n of [1, 2, 3, 4]) await createdKey('us', network.networkId, `keys-limit-${n}`);
    await expireKey('us', network.networkId, 'keys-limit-1', new Date(Date.now() + HOUR_MS));

    const refused = await createKey('us', network.networkId, 'keys-limit-5');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'API_KEY_LIMIT' });
    expect(await listKeys('us', network.networkId)).toHaveLength(MAX_WORKING_API_KEYS);

    // A revoked key frees a place…
    await revokeKey('us', network.networkId, 'keys-limit-2');
    await createdKey('us', network.networkId, 'keys-limit-5');
    expect((await createKey('us', network.networkId, 'keys-limit-6')).statusCode).toBe(409);
    // …and so does one past its expiry.
    await expireKey('us', network.networkId, 'keys-limit-1', new Date(Date.now() - 1000));
    await createdKey('us', network.networkId, 'keys-limit-6');

    // Creates at once still leave no more than the limit working.
    await revokeKey('us', network.networkId, 'keys-limit-3');
    const raced = await Promise.all(
      ['a', 'b', 'c'].map((n) => createKey('us', network.networkId, `keys-limit-race-${n}`)),
    );
    expect(raced.map((response) => response.statusCode).sort()).toEqual([201, 409, 409]);
    const working = (await listKeys('us', network.networkId)).filter(
      (key) => key.status === 'active' || key.status === 'expiring',
    );
    expect(working).toHaveLength(MAX_WORKING_API_KEYS);
  });

  it('refuses a key id in use, in this network or another', async () => {
    const network = await createNetwork(h.app, 'eu', 'keys-taken');
    const other = await createNetwork(h.app, 'sg', 'keys-taken-other');
    await createdKey('eu', network.networkId, 'keys-taken-1');
    for (const [region, networkId] of [
      ['eu', network.networkId],
      ['sg', other.networkId],
    ] as const) {
      const taken = await createKey(region, networkId, 'keys-taken-1');
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'API_KEY_EXISTS' });
    }
    expect(await listKeys('eu', network.networkId)).toHaveLength(2);
  });

  it('validates the bodies and the admin token', async () => {
    const network = await createNetwork(h.app, 'eu', 'keys-validate');
    for (const payload of [{ keyId: 'has space', name: 'x' }, { keyId: 'k', name: '  ' }, { name: 'x' }]) {
      const response = await h.app.inject({
        method: 'POST',
        url: `/regions/eu${REGION_PATHS.apiKeys(network.networkId)}`,
        headers: admin,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const firstKeyId = `key_${network.networkId}`;
    for (const expiresAt of ['tomorrow', '9999-12-31T23:00:00-05:00', '1969-12-31T23:59:59Z']) {
      const response = await expireKey('eu', network.networkId, firstKeyId, expiresAt);
      expect(response.statusCode, expiresAt).toBe(400);
    }
    const withOffset = await expireKey('eu', network.networkId, firstKeyId, '2999-01-01T09:00:00+09:00');
    expect(withOffset.json()).toMatchObject({ expiresAt: '2999-01-01T00:00:00.000Z' });
    const unauthorised = await h.app.inject({
      method: 'GET',
      url: `/regions/eu${REGION_PATHS.apiKeys(network.networkId)}`,
      headers: { authorization: 'Bearer nope' },
    });
    expect(unauthorised.statusCode).toBe(401);
  });

  it("answers 404 for another network's key and for a network of another region", async () => {
    const network = await createNetwork(h.app, 'eu', 'keys-404');
    const other = await createNetwork(h.app, 'eu', 'keys-404-other');
    const otherKey = `key_${other.networkId}`;
    for (const response of [
      await expireKey('eu', network.networkId, otherKey, new Date()),
      await revokeKey('eu', network.networkId, otherKey),
      await revokeKey('eu', network.networkId, 'no-such-key'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'API_KEY_NOT_FOUND' });
    }
    expect((await listKeys('eu', other.networkId))[0]?.status).toBe('active');
    for (const response of [
      await revokeKey('us', network.networkId, `key_${network.networkId}`),
      await createKey('us', network.networkId, 'keys-404-elsewhere'),
      await h.app.inject({
        method: 'GET',
        url: `/regions/us${REGION_PATHS.apiKeys(network.networkId)}`,
        headers: admin,
      }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NETWORK_NOT_FOUND' });
    }
    expect((await listKeys('eu', network.networkId))[0]?.status).toBe('active');
  });

  it("stops showing the first key to the wizard once it has stopped, naming the newest working key's prefix", async () => {
    const network = await createNetwork(h.app, 'us', 'keys-wizard');
    const firstKeyId = `key_${network.networkId}`;
    await createdKey('us', network.networkId, 'keys-wizard-old');
    const newest = await createdKey('us', network.networkId, 'keys-wizard-new');
    // In a rotation's overlap the first key still works, so the wizard still shows it.
    await expireKey('us', network.networkId, firstKeyId, new Date(Date.now() + HOUR_MS));
    const secret = await firstApiKey(h.store, network.networkId);
    expect(await wizardKey('us', 'keys-wizard')).toEqual({ apiKey: secret });

    await expireKey('us', network.networkId, firstKeyId, new Date(Date.now() - 1000));
    expect(await wizardKey('us', 'keys-wizard')).toEqual({ apiKey: null, prefix: newest.prefix });
    await revokeKey('us', network.networkId, 'keys-wizard-new');
    const older = (await listKeys('us', network.networkId)).find((key) => key.id === 'keys-wizard-old');
    expect(await wizardKey('us', 'keys-wizard')).toEqual({ apiKey: null, prefix: older?.prefix });
    await revokeKey('us', network.networkId, 'keys-wizard-old');
    expect(await wizardKey('us', 'keys-wizard')).toEqual({ apiKey: null, prefix: null });
  });

  it('refuses a revoked key and a key past its expiry with the time it stopped, and an unknown key', async () => {
    const network = await createNetwork(h.app, 'sg', 'keys-refused');
    const revoked = await createdKey('sg', network.networkId, 'keys-refused-revoked');
    const revokedAt = RegionApiKeySchema.parse(
      (await revokeKey('sg', network.networkId, revoked.id)).json(),
    ).revokedAt;
    const refusedRevoked = await sdkSession('sg', revoked.secret);
    expect(refusedRevoked.statusCode).toBe(401);
    expect(refusedRevoked.json()).toEqual({
      code: 'API_KEY_REVOKED',
      message: `This API key was revoked at ${revokedAt}`,
    });

    const expiring = await createdKey('sg', network.networkId, 'keys-refused-expired');
    const stopsAt = new Date(Date.now() + HOUR_MS);
    await expireKey('sg', network.networkId, expiring.id, stopsAt);
    expect((await sdkSession('sg', expiring.secret)).statusCode).toBe(201);
    // Only Date is faked: the store reads the process clock, so the key stops when the clock passes its expiry.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(stopsAt.getTime() - 1);
    expect((await sdkSession('sg', expiring.secret)).statusCode).toBe(201);
    vi.setSystemTime(stopsAt);
    const refusedExpired = await sdkSession('sg', expiring.secret);
    expect(refusedExpired.statusCode).toBe(401);
    expect(refusedExpired.json()).toEqual({
      code: 'API_KEY_EXPIRED',
      message: `This API key stopped working at ${stopsAt.toISOString()}`,
    });
    expect((await listKeys('sg', network.networkId)).find((key) => key.id === expiring.id)?.status).toBe(
      'expired',
    );
    vi.useRealTimers();

    const unknown = await sdkSession('sg', 'rk_never-made');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 'INVALID_API_KEY' });
  });

  it("sets a key's last use to the time of its newest SDK session, and leaves the others'", async () => {
    const network = await createNetwork(h.app, 'eu', 'keys-used');
    const second = await createdKey('eu', network.networkId, 'keys-used-2');
    vi.useFakeTimers({ toFake: ['Date'] });
    const firstUse = new Date(Date.now() + 60_000);
    vi.setSystemTime(firstUse);
    expect((await sdkSession('eu', second.secret)).statusCode).toBe(201);
    const secondUse = new Date(firstUse.getTime() + 60_000);
    vi.setSystemTime(secondUse);
    expect((await sdkSession('eu', second.secret, 'bob')).statusCode).toBe(201);
    vi.useRealTimers();
    const keys = await listKeys('eu', network.networkId);
    expect(keys.find((key) => key.id === 'keys-used-2')?.lastUsedAt).toBe(secondUse.toISOString());
    expect(keys.find((key) => key.id === `key_${network.networkId}`)?.lastUsedAt).toBeNull();
  });

  it('leaves a refused session without a last use', async () => {
    const network = await createNetwork(h.app, 'eu', 'keys-unused');
    const key = await createdKey('eu', network.networkId, 'keys-unused-1');
    await h.app.inject({
      method: 'POST',
      url: `/regions/eu${REGION_PATHS.deactivate(network.networkId)}`,
      headers: admin,
    });
    expect((await sdkSession('eu', key.secret)).statusCode).toBe(403);
    await revokeKey('eu', network.networkId, key.id);
    expect((await sdkSession('eu', key.secret)).statusCode).toBe(401);
    expect((await listKeys('eu', network.networkId))[0]?.lastUsedAt).toBeNull();
  });

  describe('the sample client (npm run sdk)', () => {
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
    });

    // A process of its own, slow to start on a busy machine.
    it(
      'prints the refusal of a revoked key, its code and message, and exits 1',
      { timeout: 120_000 },
      async () => {
        const network = await createNetwork(h.app, 'eu', 'keys-cli');
        const secret = await firstApiKey(h.store, network.networkId);
        await revokeKey('eu', network.networkId, `key_${network.networkId}`);
        const failure = await run(
          process.execPath,
          [
            '--import',
            'tsx',
            'apps/region/src/sdk-cli.ts',
            'ping',
            '--region',
            'eu',
            '--api-key',
            secret,
            '--user',
            'alice',
            '--base-url',
            baseUrl,
          ],
          { cwd: root, env: { ...process.env, REGION_EU_URL: '' } },
        ).then(
          () => undefined,
          (error: { code: number; stderr: string }) => error,
        );
        expect(failure?.code).toBe(1);
        expect(failure?.stderr).toMatch(/^401: This API key was revoked at \S+Z \(API_KEY_REVOKED\)$/m);
      },
    );
  });
});

describe('a network made before keys had a table of their own, and the secrets the store keeps', () => {
  let database: PGlite;
  beforeAll(async () => {
    database = new PGlite();
    await database.waitReady;
  });
  afterAll(async () => database.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps working with its key, moved to be its first key at the next start, once', async () => {
    const oldKey = 'rk_made-before-keys-had-a-table-0001';
    const createdAt = new Date('2026-01-15T10:00:00.000Z');
    await openRegionStore({ executor: database });
    // The release before kept the key on the network's row, as an instance of it still running
    // beside this one does.
    await database.query(
      `INSERT INTO region.networks
         (network_id, application_id, organization_id, name, region, status, api_key_hash, api_key, console_url, created_at, active_at)
       VALUES ('net_old', 'app-old', 'org-1', 'Old app', 'EU', 'active', encode(sha256($1::text::bytea), 'hex'), $1, 'http://region.test/c', $2, $2)`,
      [oldKey, createdAt],
    );

    // Opened twice, as by each start: the move happens once.
    await openRegionStore({ executor: database });
    const { store } = await openRegionStore({ executor: database });
    const app = await createRegionApp({
      regions: ['EU'],
      portalUrl: 'http://127.0.0.1:9',
      adminToken: ADMIN_TOKEN,
      publicBaseUrl: 'http://region.test',
      store,
    });
    onTestFinished(() => app.close());

    const keys = await app.inject({
      method: 'GET',
      url: `/regions/eu${REGION_PATHS.apiKeys('net_old')}`,
      headers: admin,
    });
    expect(RegionApiKeyListSchema.parse(keys.json()).results).toEqual([
      {
        id: 'key_net_old',
        name: 'Default key',
        prefix: oldKey.slice(0, 11),
        createdAt: createdAt.toISOString(),
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: null,
        status: 'active',
      },
    ]);
    expect(await store.setupApiKey('net_old')).toEqual({ apiKey: oldKey });
    const session = await app.inject({
      method: 'POST',
      url: `/regions/eu${REGION_PATHS.sdkSession}`,
      headers: { 'x-api-key': oldKey },
      payload: { userId: 'alice' },
    });
    expect(session.statusCode, session.body).toBe(201);
    expect(session.json()).toMatchObject({ networkId: 'net_old' });

    // Its moved key rotates like any other, and the old table takes new networks without a key of its own.
    await app.inject({
      method: 'POST',
      url: `/regions/eu${REGION_PATHS.apiKeyRevoke('net_old', 'key_net_old')}`,
      headers: admin,
    });
    const refused = await app.inject({
      method: 'POST',
      url: `/regions/eu${REGION_PATHS.sdkSession}`,
      headers: { 'x-api-key': oldKey },
      payload: { userId: 'alice' },
    });
    expect(refused.json()).toMatchObject({ code: 'API_KEY_REVOKED' });
    const fresh = await createNetwork(app, 'eu', 'app-new');
    expect(await firstApiKey(store, fresh.networkId)).toMatch(/^rk_/);

    // The network's own copy of the key was cleared once moved; its hash stays for a previous release.
    const { rows: networks } = await database.query<{ api_key: string | null; api_key_hash: string | null }>(
      "SELECT api_key, api_key_hash FROM region.networks WHERE network_id = 'net_old'",
    );
    expect(networks).toEqual([{ api_key: null, api_key_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(await keptSecret('key_net_old')).toBeNull();
  });

  /** The secret the store keeps for a key: the first key's while it works, no other's. */
  const keptSecret = async (keyId: string) => {
    const { rows } = await database.query<{ secret: string | null }>(
      'SELECT secret FROM region.api_keys WHERE key_id = $1',
      [keyId],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.secret;
  };

  const network = (store: RegionStore, applicationId: string) =>
    store.createNetwork({
      region: 'EU',
      applicationId,
      organizationId: 'org-1',
      name: applicationId,
      provisioningDelayMs: 0,
      consoleUrl: (networkId) => `http://region.test/console/${networkId}`,
    });

  it("forgets the first key's secret once the key is revoked or has expired", async () => {
    const { store } = await openRegionStore({ executor: database });

    const revoked = await network(store, 'app-secret-revoked');
    const revokedKey = `key_${revoked.networkId}`;
    expect(await keptSecret(revokedKey)).toMatch(/^rk_/);
    await store.revokeApiKey(revoked.networkId, revokedKey);
    expect(await keptSecret(revokedKey)).toBeNull();

    // A rotation with no overlap stops the key at once.
    const stoppedNow = await network(store, 'app-secret-now');
    await store.expireApiKey(stoppedNow.networkId, `key_${stoppedNow.networkId}`, new Date());
    expect(await keptSecret(`key_${stoppedNow.networkId}`)).toBeNull();

    // In an overlap the key still works, and the wizard still shows it, until its time passes.
    const overlapping = await network(store, 'app-secret-overlap');
    const overlappingKey = `key_${overlapping.networkId}`;
    const secret = await firstApiKey(store, overlapping.networkId);
    const stopsAt = new Date(Date.now() + HOUR_MS);
    await store.expireApiKey(overlapping.networkId, overlappingKey, stopsAt);
    expect(await keptSecret(overlappingKey)).toBe(secret);
    expect(await store.listApiKeys(overlapping.networkId)).toHaveLength(1);
    expect(await keptSecret(overlappingKey)).toBe(secret);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(stopsAt);
    const [expired] = await store.listApiKeys(overlapping.networkId);
    expect(expired?.status).toBe('expired');
    expect(await keptSecret(overlappingKey)).toBeNull();
    expect(await store.setupApiKey(overlapping.networkId)).toEqual({ apiKey: null, prefix: null });
  });
});
