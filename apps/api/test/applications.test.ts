import type { Application, ListApplicationsResponse, RoleId } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { expectApiError, joinOrganization, jsonRequest, setUpOrganization } from './helper.ts';
import { usePortalWithRegionStandIn } from './region-stand-in.ts';

// Provisioning retries without delay, so apps turn active within a test.
const { region, t } = usePortalWithRegionStandIn({ REGION_PROVISIONING_POLL_MS: '2000', PROVISIONING_RETRY_DELAY_SECONDS: '0' });

const BASE = '/api/v1/applications';

async function createApp(cookie: string, body: Record<string, unknown> = {}) {
  const response = await t.app.inject(jsonRequest('POST', BASE, { name: 'My app', plan: 'advance', region: 'EU', ...body }, cookie));
  expect(response.statusCode, response.body).toBe(201);
  const [created] = response.json() as Application[];
  if (!created) throw new Error('no application in the answer');
  return created;
}

async function getApp(cookie: string, id: string) {
  return t.app.inject(jsonRequest('GET', `${BASE}/${id}`, undefined, cookie));
}

/** Polls the application until it reaches the state, as the web app does after creating one. */
async function waitForState(cookie: string, id: string, state: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const app = (await getApp(cookie, id)).json() as Application;
    if (app.state === state) return app;
    if (Date.now() > deadline) throw new Error(`application ${id} stayed ${app.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function organizationIdOf(cookie: string) {
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  return (me.json() as { organizationId: string }).organizationId;
}

describe('applications', () => {
  let owner: string;
  let organizationId: string;

  beforeAll(async () => {
    owner = await setUpOrganization(t.app, 'owner@apps.example.com');
    organizationId = await organizationIdOf(owner);
    // Room for every application this file creates; the limit itself is tested on its own organisations.
    await t.database.db.update(schema.organization).set({ applicationLimit: 1000 }).where(eq(schema.organization.id, organizationId));
  });

  it('answers 401 without a session on every call', async () => {
    for (const [method, url] of [
      ['GET', BASE],
      ['POST', BASE],
      ['GET', `${BASE}/x`],
      ['PUT', `${BASE}/x`],
      ['POST', `${BASE}/x/deactivate`],
      ['POST', `${BASE}/x/reactivate`],
    ] as const) {
      expectApiError(await t.app.inject(jsonRequest(method, url, method === 'GET' ? undefined : {})), 401, 'UNAUTHORIZED');
    }
  });

  it('creates an initializing application that the region provisions to active with its console URL', async () => {
    const created = await createApp(owner, { name: '  Chat app  ', plan: 'basic', region: 'SG' });
    expect(created).toMatchObject({ name: 'Chat app', plan: 'basic', region: 'SG', state: 'initializing', consoleUrl: null });
    expect(created.planName).toBe('Social Core');
    const active = await waitForState(owner, created.applicationId, 'active');
    const network = region.networkOf(created.applicationId);
    expect(network).toMatchObject({ region: 'SG', name: 'Chat app', status: 'active' });
    expect(active.networkId).toBe(network?.networkId);
    expect(active.consoleUrl).toBe(network?.consoleUrl);
    expect(region.requests.every((r) => r.authorized)).toBe(true);
  });

  it('lists the organisation applications newest first with the total, limited by the query', async () => {
    await createApp(owner, { name: 'Second' });
    await createApp(owner, { name: 'Third' });
    const all = (await t.app.inject(jsonRequest('GET', BASE, undefined, owner))).json() as ListApplicationsResponse;
    expect(all.data.map((a) => a.name).slice(0, 2)).toEqual(['Third', 'Second']);
    expect(all.total).toBe(all.data.length);
    const limited = (await t.app.inject(jsonRequest('GET', `${BASE}?limit=1`, undefined, owner))).json() as ListApplicationsResponse;
    expect(limited.data).toHaveLength(1);
    expect(limited.total).toBe(all.total);
    expectApiError(await t.app.inject(jsonRequest('GET', `${BASE}?limit=abc`, undefined, owner)), 400, 'VALIDATION_ERROR');
  });

  it('shows the plan name instead of the Core label for apps before the cut-over date or on flat-rate contracts', async () => {
    const created = await createApp(owner, { name: 'Old app', plan: 'max' });
    await t.database.db
      .update(schema.application)
      .set({ createdAt: new Date('2024-08-29T12:00:00Z') })
      .where(eq(schema.application.id, created.applicationId));
    expect(((await getApp(owner, created.applicationId)).json() as Application).planName).toBe('Max');
    const other = await setUpOrganization(t.app, 'flat@apps.example.com');
    await t.database.db
      .update(schema.organization)
      .set({ contractType: 'flat_rate' })
      .where(eq(schema.organization.id, await organizationIdOf(other)));
    expect((await createApp(other, { plan: 'advance' })).planName).toBe('Advance');
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an empty name', { name: '' }, 'name'],
      ['a name of spaces', { name: '   ' }, 'name'],
      ['a 65-character name', { name: 'a'.repeat(65) }, 'name'],
      ['a name that is not text', { name: 12 }, 'name'],
      ['an unknown plan', { plan: 'gold' }, 'plan'],
      ['an unknown region', { region: 'JP' }, 'region'],
      ['a missing region', { region: undefined }, 'region'],
    ];
    for (const [label, override, field] of cases) {
      it(`refuses ${label} naming the field ${field}`, async () => {
        const body = { name: 'Valid', plan: 'basic', region: 'US', ...override };
        const error = expectApiError(await t.app.inject(jsonRequest('POST', BASE, body, owner)), 400, 'VALIDATION_ERROR');
        expect(error.fields?.map((f) => f.field)).toContain(field);
      });
    }

    it('accepts a 64-character name in each region and plan', async () => {
      for (const [plan, regionKey] of [['basic', 'SG'], ['advance', 'EU'], ['max', 'US']] as const) {
        const created = await createApp(owner, { name: 'b'.repeat(64), plan, region: regionKey });
        expect(created).toMatchObject({ plan, region: regionKey });
      }
    });

    it('never answers 500 to odd bodies and identifiers', async () => {
      for (const payload of ['not json', '[]', 'null', '{"name":{}}']) {
        const response = await t.app.inject({
          method: 'POST',
          url: BASE,
          headers: { cookie: owner, 'content-type': 'application/json', origin: 'http://localhost:3000' },
          payload,
        });
        expect(response.statusCode).toBe(400);
      }
      expectApiError(await getApp(owner, 'a'.repeat(65)), 400);
      expectApiError(await getApp(owner, "'; drop table application; --"), 404, 'NOT_FOUND');
      const rename = await t.app.inject(jsonRequest('PUT', `${BASE}/unknown`, { name: '' }, owner));
      expectApiError(rename, 400, 'VALIDATION_ERROR');
    });
  });

  it('answers 404 for an application of another organisation, on every call', async () => {
    const created = await createApp(owner, { name: 'Private' });
    await waitForState(owner, created.applicationId, 'active');
    const stranger = await setUpOrganization(t.app, 'stranger@other.example.com');
    const id = created.applicationId;
    expectApiError(await getApp(stranger, id), 404, 'NOT_FOUND');
    expectApiError(await t.app.inject(jsonRequest('PUT', `${BASE}/${id}`, { name: 'Mine' }, stranger)), 404);
    expectApiError(await t.app.inject(jsonRequest('POST', `${BASE}/${id}/deactivate`, { confirmName: 'Private' }, stranger)), 404);
    expectApiError(await t.app.inject(jsonRequest('POST', `${BASE}/${id}/reactivate`, {}, stranger)), 404);
    const list = (await t.app.inject(jsonRequest('GET', BASE, undefined, stranger))).json() as ListApplicationsResponse;
    expect(list.data.map((a) => a.applicationId)).not.toContain(id);
    expect(((await getApp(owner, id)).json() as Application).name).toBe('Private');
  });

  describe('roles', () => {
    const expectations: [RoleId, { view: number; create: number; edit: number }][] = [
      ['portal.admin', { view: 200, create: 201, edit: 200 }],
      ['portal.moderator', { view: 200, create: 403, edit: 200 }],
      ['portal.analyst', { view: 403, create: 403, edit: 403 }],
      ['portal.developer', { view: 200, create: 201, edit: 200 }],
    ];
    for (const [roleId, expected] of expectations) {
      it(`lets ${roleId} view ${expected.view}, create ${expected.create}, edit ${expected.edit}`, async () => {
        const target = await createApp(owner, { name: `For ${roleId}` });
        await waitForState(owner, target.applicationId, 'active');
        const { cookie } = await joinOrganization(t, `${roleId.replace('portal.', '')}@apps.example.com`, organizationId, roleId);
        expect((await t.app.inject(jsonRequest('GET', BASE, undefined, cookie))).statusCode).toBe(expected.view);
        expect((await getApp(cookie, target.applicationId)).statusCode).toBe(expected.view);
        const create = await t.app.inject(jsonRequest('POST', BASE, { name: 'By role', plan: 'basic', region: 'EU' }, cookie));
        expect(create.statusCode).toBe(expected.create);
        const rename = await t.app.inject(jsonRequest('PUT', `${BASE}/${target.applicationId}`, { name: `Renamed by ${roleId}` }, cookie));
        expect(rename.statusCode).toBe(expected.edit);
        if (expected.edit === 403) expectApiError(rename, 403, 'FORBIDDEN');
      });
    }
  });

  describe('application scopes', () => {
    async function limitMemberTo(memberId: string, applicationIds: string[]) {
      await t.database.db.update(schema.member).set({ allApplications: false }).where(eq(schema.member.id, memberId));
      if (applicationIds.length === 0) return;
      await t.database.db
        .insert(schema.memberApplicationScope)
        .values(applicationIds.map((applicationId) => ({ memberId, applicationId })));
    }

    it('limits a scoped developer to the scoped application; others answer 404', async () => {
      const scoped = await createApp(owner, { name: 'Scoped' });
      const hidden = await createApp(owner, { name: 'Hidden' });
      await waitForState(owner, scoped.applicationId, 'active');
      await waitForState(owner, hidden.applicationId, 'active');
      const { cookie, memberId } = await joinOrganization(t, 'scoped-dev@apps.example.com', organizationId, 'portal.developer');
      await limitMemberTo(memberId, [scoped.applicationId]);

      const list = (await t.app.inject(jsonRequest('GET', BASE, undefined, cookie))).json() as ListApplicationsResponse;
      expect(list.data.map((a) => a.applicationId)).toEqual([scoped.applicationId]);
      expect(list.total).toBe(1);
      expect((await getApp(cookie, scoped.applicationId)).statusCode).toBe(200);
      expectApiError(await getApp(cookie, hidden.applicationId), 404, 'NOT_FOUND');
      expectApiError(await t.app.inject(jsonRequest('PUT', `${BASE}/${hidden.applicationId}`, { name: 'Taken' }, cookie)), 404);
      const renamed = await t.app.inject(jsonRequest('PUT', `${BASE}/${scoped.applicationId}`, { name: 'Scoped 2' }, cookie));
      expect(renamed.statusCode).toBe(200);
    });

    it('adds an application a scoped developer creates to their scope, so they keep seeing it', async () => {
      const given = await createApp(owner, { name: 'Given' });
      const { cookie, memberId } = await joinOrganization(t, 'scoped-creator@apps.example.com', organizationId, 'portal.developer');
      await limitMemberTo(memberId, [given.applicationId]);
      const before = (await t.app.inject(jsonRequest('GET', BASE, undefined, cookie))).json() as ListApplicationsResponse;

      const created = await createApp(cookie, { name: 'Mine' });
      const after = (await t.app.inject(jsonRequest('GET', BASE, undefined, cookie))).json() as ListApplicationsResponse;
      expect(after.total).toBe(before.total + 1);
      expect(after.data.map((a) => a.applicationId)).toContain(created.applicationId);
      expect((await getApp(cookie, created.applicationId)).statusCode).toBe(200);

      const member = (await t.app.inject(jsonRequest('GET', `/api/v1/members/${memberId}`, undefined, owner))).json() as {
        applicationScopes: { id: string }[] | null;
      };
      expect(member.applicationScopes?.map((scope) => scope.id).sort()).toEqual([given.applicationId, created.applicationId].sort());
    });

    it('leaves a member who sees every application without a scope when they create one', async () => {
      const { cookie, memberId } = await joinOrganization(t, 'unscoped-creator@apps.example.com', organizationId, 'portal.developer');
      await createApp(cookie, { name: 'Shared' });
      const member = (await t.app.inject(jsonRequest('GET', `/api/v1/members/${memberId}`, undefined, owner))).json() as {
        applicationScopes: unknown;
      };
      expect(member.applicationScopes ?? null).toBeNull();
    });

    it('does not limit an admin even when scope rows exist for them', async () => {
      const only = await createApp(owner, { name: 'Only one' });
      const { cookie, memberId } = await joinOrganization(t, 'scoped-admin@apps.example.com', organizationId, 'portal.admin');
      await limitMemberTo(memberId, [only.applicationId]);
      const list = (await t.app.inject(jsonRequest('GET', `${BASE}?limit=1000`, undefined, cookie))).json() as ListApplicationsResponse;
      expect(list.total).toBeGreaterThan(1);
    });

    it('shows nothing to a member limited to selected applications when none remain', async () => {
      const { cookie, memberId } = await joinOrganization(t, 'empty-scope@apps.example.com', organizationId, 'portal.moderator');
      await limitMemberTo(memberId, []);
      const list = (await t.app.inject(jsonRequest('GET', BASE, undefined, cookie))).json() as ListApplicationsResponse;
      expect(list).toEqual({ data: [], total: 0 });
    });
  });

  describe('rename', () => {
    it('renames in the portal and in the region', async () => {
      const created = await createApp(owner, { name: 'Before' });
      await waitForState(owner, created.applicationId, 'active');
      const response = await t.app.inject(jsonRequest('PUT', `${BASE}/${created.applicationId}`, { name: '  After  ' }, owner));
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as Application).name).toBe('After');
      expect(((await getApp(owner, created.applicationId)).json() as Application).name).toBe('After');
      expect(region.networkOf(created.applicationId)?.name).toBe('After');
    });

    it('answers 503 and keeps the old name on both sides when the region is down', async () => {
      const created = await createApp(owner, { name: 'Stable' });
      await waitForState(owner, created.applicationId, 'active');
      region.failNext = 1;
      const response = await t.app.inject(jsonRequest('PUT', `${BASE}/${created.applicationId}`, { name: 'Lost' }, owner));
      expectApiError(response, 503, 'REGION_UNAVAILABLE');
      expect(((await getApp(owner, created.applicationId)).json() as Application).name).toBe('Stable');
      expect(region.networkOf(created.applicationId)?.name).toBe('Stable');
    });

    it('refuses to rename an application that is not active', async () => {
      const created = await createApp(owner, { name: 'Waiting' });
      await t.database.db
        .update(schema.application)
        .set({ state: 'temporary_inactive' })
        .where(eq(schema.application.id, created.applicationId));
      const response = await t.app.inject(jsonRequest('PUT', `${BASE}/${created.applicationId}`, { name: 'Nope' }, owner));
      expectApiError(response, 409, 'APPLICATION_NOT_ACTIVE');
    });
  });

  describe('deactivate and reactivate', () => {
    it('deactivates only with the exact name typed, then reactivates', async () => {
      const created = await createApp(owner, { name: 'Retire me' });
      await waitForState(owner, created.applicationId, 'active');
      const url = `${BASE}/${created.applicationId}`;
      const wrong = await t.app.inject(jsonRequest('POST', `${url}/deactivate`, { confirmName: 'retire me' }, owner));
      expect(expectApiError(wrong, 400, 'CONFIRM_NAME_MISMATCH').field).toBe('confirmName');
      const missing = await t.app.inject(jsonRequest('POST', `${url}/deactivate`, {}, owner));
      expect(expectApiError(missing, 400, 'VALIDATION_ERROR').fields?.[0]?.field).toBe('confirmName');
      expect(((await getApp(owner, created.applicationId)).json() as Application).state).toBe('active');

      expectApiError(await t.app.inject(jsonRequest('POST', `${url}/reactivate`, {}, owner)), 409, 'APPLICATION_NOT_DEACTIVATED');

      const right = await t.app.inject(jsonRequest('POST', `${url}/deactivate`, { confirmName: 'Retire me' }, owner));
      expect(right.statusCode, right.body).toBe(200);
      const deactivated = right.json() as Application;
      expect(deactivated.state).toBe('deactivated');
      expect(Date.parse(deactivated.deactivatedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
      expect(region.networkOf(created.applicationId)?.status).toBe('inactive');
      expectApiError(await t.app.inject(jsonRequest('PUT', url, { name: 'No' }, owner)), 409, 'APPLICATION_NOT_ACTIVE');

      const again = await t.app.inject(jsonRequest('POST', `${url}/reactivate`, {}, owner));
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toMatchObject({ state: 'active', deactivatedAt: null });
      expect(region.networkOf(created.applicationId)?.status).toBe('active');
    });

    it('keeps the application deactivated when the region cannot reactivate it', async () => {
      const created = await createApp(owner, { name: 'Flaky' });
      await waitForState(owner, created.applicationId, 'active');
      const url = `${BASE}/${created.applicationId}`;
      expect((await t.app.inject(jsonRequest('POST', `${url}/deactivate`, { confirmName: 'Flaky' }, owner))).statusCode).toBe(200);
      region.failNext = 1;
      expectApiError(await t.app.inject(jsonRequest('POST', `${url}/reactivate`, {}, owner)), 503, 'REGION_UNAVAILABLE');
      const after = (await getApp(owner, created.applicationId)).json() as Application;
      expect(after.state).toBe('deactivated');
      expect(after.deactivatedAt).not.toBeNull();
    });
  });

  describe('limits and account status', () => {
    it('counts active, initializing and temporarily inactive apps against the limit, not deactivated ones', async () => {
      const cookie = await setUpOrganization(t.app, 'limited@limits.example.com');
      const orgId = await organizationIdOf(cookie);
      await t.database.db.update(schema.organization).set({ applicationLimit: 2 }).where(eq(schema.organization.id, orgId));
      const first = await createApp(cookie, { name: 'One' });
      const second = await createApp(cookie, { name: 'Two' });
      const refused = await t.app.inject(jsonRequest('POST', BASE, { name: 'Three', plan: 'basic', region: 'EU' }, cookie));
      expectApiError(refused, 409, 'APPLICATION_LIMIT_REACHED');

      await waitForState(cookie, first.applicationId, 'active');
      await waitForState(cookie, second.applicationId, 'active');
      await t.database.db.update(schema.application).set({ state: 'temporary_inactive' }).where(eq(schema.application.id, second.applicationId));
      expectApiError(await t.app.inject(jsonRequest('POST', BASE, { name: 'Three', plan: 'basic', region: 'EU' }, cookie)), 409);

      const deactivate = await t.app.inject(jsonRequest('POST', `${BASE}/${first.applicationId}/deactivate`, { confirmName: 'One' }, cookie));
      expect(deactivate.statusCode).toBe(200);
      const third = await createApp(cookie, { name: 'Three' });
      expect(third.state).toBe('initializing');
      // Reactivating would bring the count over the limit again.
      const reactivate = await t.app.inject(jsonRequest('POST', `${BASE}/${first.applicationId}/reactivate`, {}, cookie));
      expectApiError(reactivate, 409, 'APPLICATION_LIMIT_REACHED');
    });

    it('lets at most the limit through when creations race', async () => {
      const cookie = await setUpOrganization(t.app, 'racer@limits.example.com');
      const orgId = await organizationIdOf(cookie);
      await t.database.db.update(schema.organization).set({ applicationLimit: 3 }).where(eq(schema.organization.id, orgId));
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          t.app.inject(jsonRequest('POST', BASE, { name: `Race ${i}`, plan: 'basic', region: 'EU' }, cookie)),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(3);
      expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(3);
    });

    it('refuses creation on an inactive account', async () => {
      const cookie = await setUpOrganization(t.app, 'inactive@limits.example.com');
      await t.database.db
        .update(schema.organization)
        .set({ accountStatus: 'inactive', inactiveReason: 'billing' })
        .where(eq(schema.organization.id, await organizationIdOf(cookie)));
      const response = await t.app.inject(jsonRequest('POST', BASE, { name: 'Nope', plan: 'basic', region: 'EU' }, cookie));
      expectApiError(response, 403, 'ACCOUNT_INACTIVE');
    });
  });
});
