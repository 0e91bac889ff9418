import {
  API_KEY_OVERLAP_MS,
  ApiKeySchema,
  CreatedApiKeySchema,
  ListApiKeysResponseSchema,
  MAX_WORKING_API_KEYS,
  REGION_PATHS,
  RotateApiKeyResponseSchema,
  type ApiKey,
  type Application,
  type ApiKeyOverlap,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { until } from '../scale/until.ts';
import {
  auditEntries,
  newAuditedOwner,
  storedAuditRows,
  withAuditEntriesRefused,
  type AuditedOwner,
} from './audit-log-support.ts';
import {
  expectApiError,
  joinByInvitation,
  joinOrganization,
  jsonRequest,
  setUpOrganization,
  useTestApp,
} from './helper.ts';

/*
 * An application's API keys through the portal (decision 043): the portal asks the region hosted in
 * it (SG), which keeps the keys and refuses the stopped ones to the SDK; EU points at an address
 * where nothing answers.
 */
const t = useTestApp({
  REGION_PROVISIONING_POLL_MS: '500',
  PROVISIONING_RETRY_DELAY_SECONDS: '0',
  REGION_EU_URL: 'http://127.0.0.1:9/eu',
});

const USER_AGENT = 'api-keys-test/1.0';
let owner: AuditedOwner;
let developer: string;
let analyst: string;
let stranger: string;
/** A developer limited to `scoped`, and one limited to another application. */
let scopedDeveloper: string;
let otherScopeDeveloper: string;

/** One application per concern, so that the keys one test makes never fill another's places. */
const apps = {} as Record<
  'listing' | 'limit' | 'rotation' | 'revocation' | 'access' | 'scoped' | 'states' | 'recording',
  Application
>;

const keysUrl = (app: Application, suffix = '') =>
  `/api/v1/applications/${app.applicationId}/api-keys${suffix}`;

function asMember(cookie: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const request = jsonRequest(method, url, body, cookie);
  return t.app.inject({ ...request, headers: { ...request.headers, 'user-agent': USER_AGENT } });
}

async function listKeys(app: Application, cookie = owner.cookie): Promise<ApiKey[]> {
  const response = await asMember(cookie, 'GET', keysUrl(app));
  expect(response.statusCode, response.body).toBe(200);
  return ListApiKeysResponseSchema.parse(response.json()).results;
}

async function createKey(app: Application, name: string, cookie = owner.cookie) {
  const response = await asMember(cookie, 'POST', keysUrl(app), { name });
  expect(response.statusCode, response.body).toBe(201);
  return { ...CreatedApiKeySchema.parse(response.json()), requestId: response.headers['x-request-id'] };
}

async function rotateKey(app: Application, keyId: string, body: { overlap: ApiKeyOverlap; name?: string }) {
  const response = await asMember(owner.cookie, 'POST', keysUrl(app, `/${keyId}/rotate`), body);
  expect(response.statusCode, response.body).toBe(201);
  return RotateApiKeyResponseSchema.parse(response.json());
}

async function revokeKey(app: Application, keyId: string, cookie = owner.cookie) {
  const response = await asMember(cookie, 'POST', keysUrl(app, `/${keyId}/revoke`));
  expect(response.statusCode, response.body).toBe(200);
  return ApiKeySchema.parse(response.json());
}

/** An SDK session as a client app opens one, with the key, at the application's region. */
function sdkSession(secret: string, userId = 'alice') {
  return t.app.inject({
    method: 'POST',
    url: `/regions/sg${REGION_PATHS.sdkSession}`,
    headers: { 'x-api-key': secret },
    payload: { userId },
  });
}

const working = (keys: ApiKey[]) =>
  keys.filter((key) => key.status === 'active' || key.status === 'expiring');

async function createApplication(name: string, region = 'SG'): Promise<Application> {
  const response = await asMember(owner.cookie, 'POST', '/api/v1/applications', {
    name,
    plan: 'advance',
    region,
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as Application[])[0]!;
}

async function untilActive(app: Application): Promise<Application> {
  let read = app;
  await until(`${app.name} active`, 90_000, async () => {
    const response = await asMember(owner.cookie, 'GET', `/api/v1/applications/${app.applicationId}`);
    read = response.json() as Application;
    return read.state === 'active';
  });
  return read;
}

beforeAll(async () => {
  owner = await newAuditedOwner(t.app, 'owner@api-keys.example.com');
  await t.database.db
    .update(schema.organization)
    .set({ applicationLimit: 100, memberLimit: 100 })
    .where(eq(schema.organization.id, owner.organizationId));
  const created = await Promise.all(
    (
      Object.keys({
        listing: 0,
        limit: 0,
        rotation: 0,
        revocation: 0,
        access: 0,
        scoped: 0,
        states: 0,
        recording: 0,
      }) as (keyof typeof apps)[]
    ).map(async (concern) => [concern, await createApplication(`Keys ${concern}`)] as const),
  );
  for (const [concern, app] of created) apps[concern] = await untilActive(app);
  developer = (
    await joinOrganization(t, 'developer@api-keys.example.com', owner.organizationId, 'portal.developer')
  ).cookie;
  analyst = (
    await joinOrganization(t, 'analyst@api-keys.example.com', owner.organizationId, 'portal.analyst')
  ).cookie;
  scopedDeveloper = (
    await joinByInvitation(t.app, owner.cookie, 'scoped@api-keys.example.com', 'portal.developer', [
      apps.scoped.applicationId,
    ])
  ).cookie;
  otherScopeDeveloper = (
    await joinByInvitation(t.app, owner.cookie, 'elsewhere@api-keys.example.com', 'portal.developer', [
      apps.listing.applicationId,
    ])
  ).cookie;
  stranger = await setUpOrganization(t.app, 'stranger@elsewhere-keys.example.com');
}, 240_000);

describe('API keys of an application', () => {
  it('lists the first key, and shows a new key once: in the answer that creates it', async () => {
    const [first, ...others] = await listKeys(apps.listing);
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      id: `key_${apps.listing.networkId}`,
      name: 'Default key',
      status: 'active',
      expiresAt: null,
    });

    const created = await createKey(apps.listing, 'CI server');
    expect(created).toMatchObject({
      name: 'CI server',
      status: 'active',
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(created.id).toMatch(/^key_[A-Za-z0-9_-]{16}$/);
    expect(created.secret).toMatch(/^rk_/);
    expect(created.secret.startsWith(created.prefix)).toBe(true);

    const listed = await listKeys(apps.listing);
    expect(listed.map((key) => key.id)).toEqual([created.id, first!.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(listed[0]).not.toHaveProperty('secret');
  });

  it('shows when a key was last used: the time of its newest SDK session', async () => {
    const key = await createKey(apps.listing, 'Mobile app');
    const before = Date.now();
    const session = await sdkSession(key.secret);
    expect(session.statusCode, session.body).toBe(201);
    const used = (await listKeys(apps.listing)).find((listed) => listed.id === key.id);
    expect(Date.parse(used!.lastUsedAt!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(used!.lastUsedAt!)).toBeLessThanOrEqual(Date.now());
  });

  it(`refuses a key over ${MAX_WORKING_API_KEYS} that work, also for a rotation with an overlap, but rotates with none`, async () => {
    const made = [];
    for (const n of [1, 2, 3, 4]) made.push(await createKey(apps.limit, `Key ${n}`));
    expect(working(await listKeys(apps.limit))).toHaveLength(MAX_WORKING_API_KEYS);

    expectApiError(
      await asMember(owner.cookie, 'POST', keysUrl(apps.limit), { name: 'One too many' }),
      409,
      'API_KEY_LIMIT_REACHED',
    );
    // In an overlap the rotated key still works beside its successor: six would work.
    const rotatedKey = made[0]!;
    const overlapping = await asMember(
      owner.cookie,
      'POST',
      keysUrl(apps.limit, `/${rotatedKey.id}/rotate`),
      { overlap: '1h' },
    );
    expectApiError(overlapping, 409, 'API_KEY_LIMIT_REACHED');
    const unchanged = await listKeys(apps.limit);
    expect(unchanged).toHaveLength(MAX_WORKING_API_KEYS);
    expect(unchanged.find((key) => key.id === rotatedKey.id)).toMatchObject({
      status: 'active',
      expiresAt: null,
    });

    // With no overlap the key stops first, which frees its place for the successor.
    const { created, rotated } = await rotateKey(apps.limit, rotatedKey.id, { overlap: 'now' });
    expect(rotated).toMatchObject({ id: rotatedKey.id, status: 'expired' });
    expect(created).toMatchObject({ name: 'Key 1', status: 'active' });
    expect(working(await listKeys(apps.limit))).toHaveLength(MAX_WORKING_API_KEYS);

    // A revoked key frees a place.
    await revokeKey(apps.limit, made[1]!.id);
    await createKey(apps.limit, 'In the freed place');
  });

  it('rotates with each overlap: the successor works at once, the old key until now + the overlap', async () => {
    for (const overlap of ['1h', '24h', '7d'] as const) {
      const old = await createKey(apps.rotation, `Backend ${overlap}`);
      const before = Date.now();
      const { created, rotated } = await rotateKey(apps.rotation, old.id, { overlap });
      const after = Date.now();
      expect(created).toMatchObject({ name: `Backend ${overlap}`, status: 'active', expiresAt: null });
      expect(created.id).not.toBe(old.id);
      expect(rotated).toMatchObject({ id: old.id, status: 'expiring' });
      const stopsAt = Date.parse(rotated.expiresAt!);
      expect(stopsAt).toBeGreaterThanOrEqual(before + API_KEY_OVERLAP_MS[overlap]);
      expect(stopsAt).toBeLessThanOrEqual(after + API_KEY_OVERLAP_MS[overlap]);
      expect((await sdkSession(old.secret)).statusCode).toBe(201);
      expect((await sdkSession(created.secret)).statusCode).toBe(201);
      // Both make room for the next overlap's keys.
      await revokeKey(apps.rotation, old.id);
      await revokeKey(apps.rotation, created.id);
    }

    const old = await createKey(apps.rotation, 'Stops now');
    const { created, rotated } = await rotateKey(apps.rotation, old.id, {
      overlap: 'now',
      name: 'Its successor',
    });
    expect(created.name).toBe('Its successor');
    expect(rotated).toMatchObject({ status: 'expired' });
    const refused = await sdkSession(old.secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      code: 'API_KEY_EXPIRED',
      message: `This API key stopped working at ${rotated.expiresAt}`,
    });
    expect((await sdkSession(created.secret)).statusCode).toBe(201);
  });

  it('revokes a key at once, which the region then refuses, and keeps the first time on a second revoke', async () => {
    const key = await createKey(apps.revocation, 'Leaked');
    expect((await sdkSession(key.secret)).statusCode).toBe(201);
    const revoked = await revokeKey(apps.revocation, key.id);
    expect(revoked).toMatchObject({ id: key.id, status: 'revoked' });
    const refused = await sdkSession(key.secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      code: 'API_KEY_REVOKED',
      message: `This API key was revoked at ${revoked.revokedAt}`,
    });
    expect((await revokeKey(apps.revocation, key.id)).revokedAt).toBe(revoked.revokedAt);

    // The first key can be revoked too: the setup wizard then shows no key.
    const first = `key_${apps.revocation.networkId}`;
    expect(await revokeKey(apps.revocation, first)).toMatchObject({ status: 'revoked' });
    expect(working(await listKeys(apps.revocation))).toEqual([]);
  });

  it("answers 404 for another application's key, an unknown key and another organisation's application", async () => {
    const elsewhere = await createKey(apps.listing, 'Of another application');
    for (const path of [`/${elsewhere.id}/revoke`, `/${elsewhere.id}/rotate`, '/key_unknown/revoke']) {
      const response = await asMember(owner.cookie, 'POST', keysUrl(apps.access, path), { overlap: 'now' });
      expectApiError(response, 404, 'API_KEY_NOT_FOUND');
    }
    expect((await listKeys(apps.listing)).find((key) => key.id === elsewhere.id)?.status).toBe('active');

    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['POST', '', { name: 'Theirs' }],
      ['POST', `/${elsewhere.id}/rotate`, { overlap: 'now' }],
      ['POST', `/${elsewhere.id}/revoke`, undefined],
    ] as const) {
      expectApiError(await asMember(stranger, method, keysUrl(apps.listing, path), body), 404, 'NOT_FOUND');
    }
    expect((await listKeys(apps.listing)).find((key) => key.id === elsewhere.id)?.status).toBe('active');

    for (const badId of ['has%20space', 'x'.repeat(65)]) {
      expectApiError(
        await asMember(owner.cookie, 'POST', keysUrl(apps.access, `/${badId}/revoke`)),
        400,
        'VALIDATION_ERROR',
      );
    }
    expectApiError(
      await asMember(owner.cookie, 'POST', keysUrl(apps.access), { name: '  ' }),
      400,
      'VALIDATION_ERROR',
    );
    const first = `key_${apps.access.networkId}`;
    expectApiError(
      await asMember(owner.cookie, 'POST', keysUrl(apps.access, `/${first}/rotate`), { overlap: '2h' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('lets a developer manage keys, an analyst none, and a scoped developer those of their applications only', async () => {
    const byDeveloper = await createKey(apps.access, 'By a developer', developer);
    await rotateKey(apps.access, byDeveloper.id, { overlap: 'now' });
    await revokeKey(apps.access, byDeveloper.id, developer);

    expectApiError(await asMember(analyst, 'GET', keysUrl(apps.access)), 403, 'FORBIDDEN');
    expectApiError(
      await asMember(analyst, 'POST', keysUrl(apps.access), { name: 'By an analyst' }),
      403,
      'FORBIDDEN',
    );
    expectApiError(
      await asMember(analyst, 'POST', keysUrl(apps.access, `/${byDeveloper.id}/revoke`)),
      403,
      'FORBIDDEN',
    );

    const inScope = await createKey(apps.scoped, 'In scope', scopedDeveloper);
    expect((await listKeys(apps.scoped, scopedDeveloper)).map((key) => key.id)).toContain(inScope.id);
    await revokeKey(apps.scoped, inScope.id, scopedDeveloper);

    // Outside their scope the application is not found, as for its other routes.
    expectApiError(
      await asMember(otherScopeDeveloper, 'GET', `/api/v1/applications/${apps.scoped.applicationId}`),
      404,
      'NOT_FOUND',
    );
    expectApiError(await asMember(otherScopeDeveloper, 'GET', keysUrl(apps.scoped)), 404, 'NOT_FOUND');
    expectApiError(
      await asMember(otherScopeDeveloper, 'POST', keysUrl(apps.scoped), { name: 'Out of scope' }),
      404,
      'NOT_FOUND',
    );
    expectApiError(
      await asMember(otherScopeDeveloper, 'POST', keysUrl(apps.scoped, `/${inScope.id}/revoke`)),
      404,
      'NOT_FOUND',
    );
  });

  it('makes keys only for an active application on an active account, and revokes them whatever their state', async () => {
    const key = await createKey(apps.states, 'Before the account stopped');
    const other = await createKey(apps.states, 'Revoked after the deactivation');
    const setAccount = (accountStatus: 'active' | 'inactive') =>
      t.database.db
        .update(schema.organization)
        .set({ accountStatus, inactiveReason: accountStatus === 'inactive' ? 'operator' : null })
        .where(eq(schema.organization.id, owner.organizationId));

    await setAccount('inactive');
    try {
      expectApiError(
        await asMember(owner.cookie, 'POST', keysUrl(apps.states), { name: 'Refused' }),
        403,
        'ACCOUNT_INACTIVE',
      );
      expectApiError(
        await asMember(owner.cookie, 'POST', keysUrl(apps.states, `/${key.id}/rotate`), { overlap: 'now' }),
        403,
        'ACCOUNT_INACTIVE',
      );
      expect(await listKeys(apps.states)).toHaveLength(3);
      expect(await revokeKey(apps.states, key.id)).toMatchObject({ status: 'revoked' });
    } finally {
      await setAccount('active');
    }

    const deactivated = await asMember(
      owner.cookie,
      'POST',
      `/api/v1/applications/${apps.states.applicationId}/deactivate`,
      {
        confirmName: apps.states.name,
      },
    );
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expectApiError(
      await asMember(owner.cookie, 'POST', keysUrl(apps.states), { name: 'Refused' }),
      409,
      'APPLICATION_NOT_ACTIVE',
    );
    expectApiError(
      await asMember(owner.cookie, 'POST', keysUrl(apps.states, `/${other.id}/rotate`), { overlap: '1h' }),
      409,
      'APPLICATION_NOT_ACTIVE',
    );
    expect(await revokeKey(apps.states, other.id)).toMatchObject({ status: 'revoked' });
    expect(working(await listKeys(apps.states)).map((listed) => listed.name)).toEqual(['Default key']);
  });

  it('answers 503 REGION_UNAVAILABLE when the region does not answer, and records nothing', async () => {
    const [unreachable] = await t.database.db
      .insert(schema.application)
      .values({
        id: crypto.randomUUID(),
        organizationId: owner.organizationId,
        name: 'In an unreachable region',
        plan: 'basic',
        region: 'EU',
        state: 'active',
        networkId: 'net_unreachable',
      })
      .returning();
    const entries = (await storedAuditRows(t.database.db, owner.organizationId)).length;
    const url = `/api/v1/applications/${unreachable!.id}/api-keys`;
    expectApiError(await asMember(owner.cookie, 'GET', url), 503, 'REGION_UNAVAILABLE');
    expectApiError(
      await asMember(owner.cookie, 'POST', url, { name: 'Not made' }),
      503,
      'REGION_UNAVAILABLE',
    );
    expectApiError(
      await asMember(owner.cookie, 'POST', `${url}/key_any/rotate`, { overlap: 'now' }),
      503,
      'REGION_UNAVAILABLE',
    );
    expectApiError(await asMember(owner.cookie, 'POST', `${url}/key_any/revoke`), 503, 'REGION_UNAVAILABLE');
    expect(await storedAuditRows(t.database.db, owner.organizationId)).toHaveLength(entries);
  });
});

describe('API keys in the audit log', () => {
  /** The member's entries carry who made the change, from where, and the request's id. */
  function expectMadeByOwner(
    entry: { actor: unknown; userAgent: string | null; requestId: string | null },
    requestId: unknown,
  ) {
    expect(entry.actor).toEqual({ kind: 'member', memberId: owner.memberId, email: owner.email });
    expect(entry.userAgent).toBe(USER_AGENT);
    expect(entry.requestId).toBe(requestId);
  }

  it('records a key made, rotated and revoked, by its name and prefix and never the key', async () => {
    const created = await createKey(apps.recording, 'Recorded');
    const [creation] = await auditEntries(t.app, owner.cookie, '&actionGroup=api_key');
    expect(creation).toMatchObject({
      action: 'api_key.created',
      target: { type: 'api_key', id: created.id, name: `Recorded (${created.prefix})` },
      changes: { name: { after: 'Recorded' }, prefix: { after: created.prefix } },
    });
    expectMadeByOwner(creation!, created.requestId);

    const before = Date.now();
    const rotation = await asMember(owner.cookie, 'POST', keysUrl(apps.recording, `/${created.id}/rotate`), {
      overlap: '24h',
    });
    expect(rotation.statusCode, rotation.body).toBe(201);
    const { created: successor, rotated } = RotateApiKeyResponseSchema.parse(rotation.json());
    expect(Date.parse(rotated.expiresAt!)).toBeGreaterThanOrEqual(before + API_KEY_OVERLAP_MS['24h']);
    const [rotationEntry] = await auditEntries(t.app, owner.cookie, '&actionGroup=api_key');
    expect(rotationEntry).toMatchObject({
      action: 'api_key.rotated',
      target: { type: 'api_key', id: created.id, name: `Recorded (${created.prefix})` },
      changes: {
        successorId: { after: successor.id },
        successorName: { after: 'Recorded' },
        successorPrefix: { after: successor.prefix },
        overlap: { after: '24h' },
        expiresAt: { before: null, after: rotated.expiresAt },
      },
    });
    expectMadeByOwner(rotationEntry!, rotation.headers['x-request-id']);

    const revocation = await asMember(
      owner.cookie,
      'POST',
      keysUrl(apps.recording, `/${successor.id}/revoke`),
    );
    expect(revocation.statusCode, revocation.body).toBe(200);
    const revoked = ApiKeySchema.parse(revocation.json());
    const [revocationEntry] = await auditEntries(
      t.app,
      owner.cookie,
      `&targetType=api_key&targetId=${successor.id}`,
    );
    expect(revocationEntry).toMatchObject({
      action: 'api_key.revoked',
      target: { type: 'api_key', id: successor.id, name: `Recorded (${successor.prefix})` },
      changes: { revokedAt: { after: revoked.revokedAt } },
    });
    expectMadeByOwner(revocationEntry!, revocation.headers['x-request-id']);

    const stored = JSON.stringify(await storedAuditRows(t.database.db, owner.organizationId));
    expect(stored).not.toContain(created.secret);
    expect(stored).not.toContain(successor.secret);
  });

  it('revokes a key it made when its entry cannot be recorded, and answers the error', async () => {
    const before = await listKeys(apps.recording);
    const entries = (await storedAuditRows(t.database.db, owner.organizationId)).length;
    await withAuditEntriesRefused(t.database.db, "action = 'api_key.created'", async () => {
      const refused = await asMember(owner.cookie, 'POST', keysUrl(apps.recording), { name: 'Never seen' });
      expect(refused.statusCode).toBe(500);
      expect(refused.body).not.toContain('rk_');
    });
    const after = await listKeys(apps.recording);
    const unrecorded = after.filter((key) => !before.some((known) => known.id === key.id));
    expect(unrecorded).toMatchObject([{ name: 'Never seen', status: 'revoked' }]);
    expect(await storedAuditRows(t.database.db, owner.organizationId)).toHaveLength(entries);
  });

  it("revokes a rotation's successor when its entry cannot be recorded; the retry rotates and records", async () => {
    const old = await createKey(apps.recording, 'Rotated twice');
    await withAuditEntriesRefused(t.database.db, "action = 'api_key.rotated'", async () => {
      const refused = await asMember(owner.cookie, 'POST', keysUrl(apps.recording, `/${old.id}/rotate`), {
        overlap: '1h',
      });
      expect(refused.statusCode).toBe(500);
    });
    const keys = await listKeys(apps.recording);
    const successors = keys.filter((key) => key.name === 'Rotated twice' && key.id !== old.id);
    expect(successors).toMatchObject([{ status: 'revoked' }]);
    // The stop the region made stays (the safe side); the retry keeps that earlier time.
    const stopped = keys.find((key) => key.id === old.id)!;
    expect(stopped.status).toBe('expiring');
    const retried = await rotateKey(apps.recording, old.id, { overlap: '1h' });
    expect(retried.rotated.expiresAt).toBe(stopped.expiresAt);
    const [entry] = await auditEntries(t.app, owner.cookie, `&targetType=api_key&targetId=${old.id}`);
    expect(entry).toMatchObject({
      action: 'api_key.rotated',
      changes: { successorId: { after: retried.created.id } },
    });
  });

  it('leaves a key revoked when its entry cannot be recorded; the retry records it with the first time', async () => {
    const key = await createKey(apps.recording, 'Revoked twice');
    await withAuditEntriesRefused(t.database.db, "action = 'api_key.revoked'", async () => {
      const refused = await asMember(owner.cookie, 'POST', keysUrl(apps.recording, `/${key.id}/revoke`));
      expect(refused.statusCode).toBe(500);
    });
    const stopped = (await listKeys(apps.recording)).find((listed) => listed.id === key.id)!;
    expect(stopped.status).toBe('revoked');
    expect(
      await auditEntries(
        t.app,
        owner.cookie,
        `&targetType=api_key&targetId=${key.id}&action=api_key.revoked`,
      ),
    ).toEqual([]);
    const retried = await revokeKey(apps.recording, key.id);
    expect(retried.revokedAt).toBe(stopped.revokedAt);
    const [entry] = await auditEntries(t.app, owner.cookie, `&targetType=api_key&targetId=${key.id}`);
    expect(entry).toMatchObject({
      action: 'api_key.revoked',
      changes: { revokedAt: { after: stopped.revokedAt } },
    });
  });
});
