import crypto from 'node:crypto';
import type { ListApplicationsResponse, ListMembersResponse, Member } from '@portal/contracts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import {
  STRONG_PASSWORD,
  bearerRequest,
  expectApiError,
  invite,
  joinByInvitation,
  jsonRequest,
  setUpOrganization,
  signIn,
  signInRequest,
  useTestApp,
} from './helper.ts';

const t = useTestApp();
const NEW_PASSWORD = 'N3w!Passw0rd-2026';

function getJson<T>(url: string, cookie: string) {
  return t.app.inject(jsonRequest('GET', url, undefined, cookie)).then((r) => {
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as T;
  });
}

function updateMember(cookie: string, memberId: string, body: Record<string, unknown>) {
  return t.app.inject(jsonRequest('PUT', `/api/v1/members/${memberId}`, body, cookie));
}

function changePassword(cookie: string, memberId: string, body: Record<string, unknown>) {
  return t.app.inject(
    jsonRequest('PUT', `/api/v1/members/${memberId}/password`, { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, ...body }, cookie),
  );
}

describe('members', () => {
  let owner: string;
  let ownerMemberId: string;
  let organizationId: string;
  const apps: Record<'alpha' | 'beta' | 'gamma', string> = { alpha: '', beta: '', gamma: '' };

  async function visibleApplicationNames(cookie: string) {
    const list = await getJson<ListApplicationsResponse>('/api/v1/applications?limit=100', cookie);
    return list.data.map((app) => app.name).sort();
  }

  beforeAll(async () => {
    owner = await setUpOrganization(t.app, 'owner@members.example.com');
    const account = await getJson<{ organizationId: string; memberId: string }>('/api/v1/accounts/me', owner);
    organizationId = account.organizationId;
    ownerMemberId = account.memberId;
    // More members than the default limit of 10 join in this file.
    await t.database.db.update(schema.organization).set({ memberLimit: 100 }).where(eq(schema.organization.id, organizationId));
    // Applications as provisioning leaves them: active in their region.
    for (const name of Object.keys(apps) as (keyof typeof apps)[]) {
      const id = crypto.randomUUID();
      await t.database.db.insert(schema.application).values({ id, organizationId, name, plan: 'advance', region: 'EU', state: 'active' });
      apps[name] = id;
    }
  });

  it('lists the organisation’s members by display name with role, access, last login and sign-in method', async () => {
    await joinByInvitation(t.app, owner, 'zed@members.example.com', 'portal.analyst');
    await joinByInvitation(t.app, owner, 'bob@members.example.com', 'portal.developer', [apps.beta, apps.alpha]);
    const { results, total } = await getJson<ListMembersResponse>('/api/v1/members?limit=10', owner);
    expect(total).toBe(3);
    expect(results.map((m) => m.displayName)).toEqual(['Ann Lee', 'bob', 'zed']);
    const bob = results.find((m) => m.email === 'bob@members.example.com');
    expect(bob).toMatchObject({
      roles: [{ id: 'portal.developer' }],
      applicationScopes: [
        { id: apps.alpha, name: 'alpha' },
        { id: apps.beta, name: 'beta' },
      ],
      hasPassword: true,
    });
    expect(bob?.lastLogin).toBeGreaterThan(0);
    expect(results.find((m) => m.displayName === 'Ann Lee')).toMatchObject({ roles: [{ id: 'portal.super-admin' }], applicationScopes: null });
    expect((await getJson<ListMembersResponse>('/api/v1/members?limit=1', owner)).results).toHaveLength(1);
  });

  it('scopes follow the member: narrowing, widening and the admin role all show on the application calls', async () => {
    const dev = await joinByInvitation(t.app, owner, 'scoped@members.example.com', 'portal.developer', [apps.alpha]);
    expect(await visibleApplicationNames(dev.cookie)).toEqual(['alpha']);
    expectApiError(await t.app.inject(jsonRequest('GET', `/api/v1/applications/${apps.beta}`, undefined, dev.cookie)), 404, 'NOT_FOUND');

    const widened = await updateMember(owner, dev.memberId, { displayName: 'Scoped', roleIds: ['portal.developer'], applicationScopes: [apps.alpha, apps.gamma] });
    expect(widened.statusCode, widened.body).toBe(200);
    expect(await visibleApplicationNames(dev.cookie)).toEqual(['alpha', 'gamma']);

    expect((await updateMember(owner, dev.memberId, { displayName: 'Scoped', roleIds: ['portal.developer'], applicationScopes: null })).statusCode).toBe(200);
    expect(await visibleApplicationNames(dev.cookie)).toEqual(['alpha', 'beta', 'gamma']);

    expect((await updateMember(owner, dev.memberId, { displayName: 'Scoped', applicationScopes: [apps.beta] })).statusCode).toBe(200);
    expect(await visibleApplicationNames(dev.cookie)).toEqual(['beta']);

    // The admin role always sees every application, whatever scope was asked for.
    const promoted = await updateMember(owner, dev.memberId, { displayName: 'Scoped', roleIds: ['portal.admin'], applicationScopes: [apps.beta] });
    expect((promoted.json() as Member).applicationScopes).toBeNull();
    expect(await visibleApplicationNames(dev.cookie)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('refuses scopes naming unknown or foreign applications and an empty selection', async () => {
    const dev = await joinByInvitation(t.app, owner, 'picky@members.example.com', 'portal.developer');
    const other = await setUpOrganization(t.app, 'owner@foreign.example.com');
    const foreignAccount = await getJson<{ organizationId: string }>('/api/v1/accounts/me', other);
    const foreignApp = crypto.randomUUID();
    await t.database.db.insert(schema.application).values({ id: foreignApp, organizationId: foreignAccount.organizationId, name: 'foreign', plan: 'basic', region: 'SG', state: 'active' });
    for (const applicationScopes of [[foreignApp], ['missing'], []]) {
      const refused = expectApiError(await updateMember(owner, dev.memberId, { displayName: 'Picky', applicationScopes }), 400, 'VALIDATION_ERROR');
      expect(refused.field).toBe('applicationScopes');
    }
    expectApiError(await invite(t.app, owner, ['x@members.example.com'], 'portal.developer', [foreignApp]), 400, 'VALIDATION_ERROR');
  });

  it('editing oneself changes the display name only', async () => {
    const dev = await joinByInvitation(t.app, owner, 'self@members.example.com', 'portal.developer', [apps.alpha]);
    const response = await updateMember(dev.cookie, dev.memberId, { displayName: '  Self Made  ', roleIds: ['portal.admin'], applicationScopes: null });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ displayName: 'Self Made', roles: [{ id: 'portal.developer' }], applicationScopes: [{ id: apps.alpha }] });
    const ownerSelf = await updateMember(owner, ownerMemberId, { displayName: 'Ann L.', roleIds: ['portal.analyst'] });
    expect(ownerSelf.json()).toMatchObject({ displayName: 'Ann L.', roles: [{ id: 'portal.super-admin' }] });
    const empty = expectApiError(await updateMember(dev.cookie, dev.memberId, { displayName: ' ' }), 400, 'VALIDATION_ERROR');
    expect(empty.message).toContain('Please enter display name');
  });

  it('holds the peer and super-admin rules and never grants the super-admin role', async () => {
    const admin = await joinByInvitation(t.app, owner, 'admin1@members.example.com', 'portal.admin');
    const otherAdmin = await joinByInvitation(t.app, owner, 'admin2@members.example.com', 'portal.admin');
    const analyst = await joinByInvitation(t.app, owner, 'analyst@members.example.com', 'portal.analyst');
    expectApiError(await updateMember(admin.cookie, otherAdmin.memberId, { displayName: 'Peer' }), 403, 'MEMBER_NOT_EDITABLE');
    expectApiError(await t.app.inject(jsonRequest('DELETE', `/api/v1/members/${otherAdmin.memberId}`, undefined, admin.cookie)), 403, 'MEMBER_NOT_EDITABLE');
    expectApiError(await updateMember(admin.cookie, ownerMemberId, { displayName: 'Boss' }), 403, 'MEMBER_NOT_EDITABLE');
    expectApiError(await t.app.inject(jsonRequest('DELETE', `/api/v1/members/${ownerMemberId}`, undefined, admin.cookie)), 403, 'MEMBER_NOT_EDITABLE');
    expectApiError(await updateMember(admin.cookie, analyst.memberId, { displayName: 'A', roleIds: ['portal.admin'] }), 403, 'ROLE_NOT_ASSIGNABLE');
    expectApiError(await updateMember(owner, analyst.memberId, { displayName: 'A', roleIds: ['portal.super-admin'] }), 403, 'ROLE_NOT_ASSIGNABLE');
    const byAdmin = await updateMember(admin.cookie, analyst.memberId, { displayName: 'Analyst Two', roleIds: ['portal.moderator'] });
    expect(byAdmin.json()).toMatchObject({ displayName: 'Analyst Two', roles: [{ id: 'portal.moderator' }] });
    expectApiError(await t.app.inject(jsonRequest('DELETE', `/api/v1/members/${ownerMemberId}`, undefined, owner)), 409, 'CANNOT_REMOVE_SELF');
  });

  it('deleting a member ends all their sessions at once and frees the address', async () => {
    const dev = await joinByInvitation(t.app, owner, 'leaver@members.example.com', 'portal.developer');
    const tokenResponse = await t.app.inject(jsonRequest('GET', '/api/auth/token', undefined, dev.cookie));
    const { token } = tokenResponse.json() as { token: string };
    const secondSession = await signIn(t.app, 'leaver@members.example.com');
    expect((await t.app.inject(bearerRequest('GET', '/api/v1/accounts/me', token))).statusCode).toBe(200);

    expect((await t.app.inject(jsonRequest('DELETE', `/api/v1/members/${dev.memberId}`, undefined, owner))).statusCode).toBe(204);
    expectApiError(await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, dev.cookie)), 401, 'UNAUTHORIZED');
    expectApiError(await t.app.inject(jsonRequest('GET', '/api/v1/applications', undefined, secondSession)), 401, 'UNAUTHORIZED');
    expectApiError(await t.app.inject(bearerRequest('GET', '/api/v1/accounts/me', token)), 401, 'UNAUTHORIZED');
    expect((await signInRequest(t.app, 'leaver@members.example.com')).statusCode).toBe(401);
    expectApiError(await t.app.inject(jsonRequest('GET', `/api/v1/members/${dev.memberId}`, undefined, owner)), 404, 'NOT_FOUND');
    expect((await invite(t.app, owner, ['leaver@members.example.com'], 'portal.developer')).statusCode).toBe(201);
  });

  describe('change own password', () => {
    it('needs the right current password and a strong, confirmed new one; other sessions end', async () => {
      const dev = await joinByInvitation(t.app, owner, 'rotate@members.example.com', 'portal.developer');
      const otherSession = await signIn(t.app, 'rotate@members.example.com');

      const wrong = expectApiError(await changePassword(dev.cookie, dev.memberId, { currentPassword: 'Wr0ng!Password' }), 400, 'INVALID_PASSWORD');
      expect(wrong.message).toBe('Invalid current password. Please try again.');
      expect(wrong.field).toBe('currentPassword');
      const mismatch = expectApiError(await changePassword(dev.cookie, dev.memberId, { confirmPassword: `${NEW_PASSWORD}!` }), 400, 'VALIDATION_ERROR');
      expect(mismatch.message).toContain('Password mismatch. Please try again.');
      const weak = expectApiError(await changePassword(dev.cookie, dev.memberId, { newPassword: 'weakpassword', confirmPassword: 'weakpassword' }), 400, 'VALIDATION_ERROR');
      expect(weak.field).toBe('newPassword');
      expectApiError(await changePassword(dev.cookie, dev.memberId, { currentPassword: '' }), 400, 'VALIDATION_ERROR');
      expect((await signInRequest(t.app, 'rotate@members.example.com')).statusCode).toBe(200);

      expect((await changePassword(dev.cookie, dev.memberId, {})).statusCode).toBe(204);
      expect((await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, dev.cookie))).statusCode).toBe(200);
      expectApiError(await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, otherSession)), 401, 'UNAUTHORIZED');
      expect((await signInRequest(t.app, 'rotate@members.example.com')).statusCode).toBe(401);
      expect((await signInRequest(t.app, 'rotate@members.example.com', NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('is only for oneself, and not for members who sign in through an identity provider', async () => {
      const dev = await joinByInvitation(t.app, owner, 'idp@members.example.com', 'portal.developer');
      expectApiError(await changePassword(owner, dev.memberId, {}), 403, 'FORBIDDEN');
      const user = await t.database.db.select({ userId: schema.member.userId }).from(schema.member).where(eq(schema.member.id, dev.memberId));
      await t.database.db
        .delete(schema.account)
        .where(and(eq(schema.account.userId, user[0]?.userId ?? ''), eq(schema.account.providerId, 'credential')));
      expect(await getJson<Member>('/api/v1/members/me', dev.cookie)).toMatchObject({ id: dev.memberId, hasPassword: false });
      expectApiError(await changePassword(dev.cookie, dev.memberId, {}), 409, 'PASSWORD_NOT_SET');
    });
  });

  it('answers the roles with their names', async () => {
    const roles = await getJson<{ results: { id: string; name: string }[] }>('/api/v1/roles?limit=50', owner);
    expect(roles.results).toEqual([
      { id: 'portal.super-admin', name: 'Super Admin' },
      { id: 'portal.admin', name: 'Admin' },
      { id: 'portal.moderator', name: 'Moderator' },
      { id: 'portal.analyst', name: 'Analyst' },
      { id: 'portal.developer', name: 'Developer' },
    ]);
  });
});
