import type { Application, AuditLogEntry, ListAuditLogResponse } from '@portal/contracts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { until } from '../scale/until.ts';
import {
  enrolAuthenticator,
  expectApiError,
  invite,
  joinOrganization,
  jsonRequest,
  setUpOrganization,
} from './helper.ts';
import { withAuditEntriesRefused } from './audit-log-support.ts';
import { usePortalWithRegionStandIn } from './region-stand-in.ts';

/*
 * Each module records its changes in the audit log in the transaction of the change: the entry
 * names the member who made it, the target and the fields that changed, with the request's origin;
 * a change refused leaves no entry, and an entry that cannot be written takes its change with it.
 */
const { region, t } = usePortalWithRegionStandIn({ REGION_PROVISIONING_POLL_MS: '2000', PROVISIONING_RETRY_DELAY_SECONDS: '0' });

const USER_AGENT = 'audit-test-browser/1.0';
const OWNER_EMAIL = 'owner@audit-recording.example.com';
let owner: string;
let ownerMemberId: string;
let organizationId: string;

/** A request as the browser sends it, with a user agent the entries must carry. */
function browserRequest(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const request = jsonRequest(method, url, body, owner);
  return { ...request, headers: { ...request.headers, 'user-agent': USER_AGENT } };
}

async function newestEntries(cookie = owner, query = ''): Promise<AuditLogEntry[]> {
  const response = await t.app.inject(jsonRequest('GET', `/api/v1/audit-log?limit=200${query}`, undefined, cookie));
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as ListAuditLogResponse).results;
}

async function entryCount() {
  const rows = await t.database.db
    .select({ id: schema.auditLogEntry.id })
    .from(schema.auditLogEntry)
    .where(eq(schema.auditLogEntry.organizationId, organizationId));
  return rows.length;
}

function expectMadeByOwner(entry: AuditLogEntry, requestId: unknown) {
  expect(entry.actor).toEqual({ kind: 'member', memberId: ownerMemberId, email: OWNER_EMAIL });
  expect(entry.userAgent).toBe(USER_AGENT);
  expect(entry.ip).toBe('127.0.0.1');
  expect(entry.requestId).toBe(requestId);
}

/** Provisioning is a job against the region stand-in; the application turns active within seconds. */
async function waitForActive(id: string) {
  let app: Application | undefined;
  await until('the application active', 60_000, async () => {
    const response = await t.app.inject(jsonRequest('GET', `/api/v1/applications/${id}`, undefined, owner));
    app = response.json() as Application;
    return app.state === 'active';
  });
  return app!;
}

beforeAll(async () => {
  owner = await setUpOrganization(t.app, OWNER_EMAIL);
  const me = (await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner))).json() as {
    organizationId: string;
    memberId: string;
  };
  organizationId = me.organizationId;
  ownerMemberId = me.memberId;
  await t.database.db
    .update(schema.organization)
    .set({ applicationLimit: 100, memberLimit: 100 })
    .where(eq(schema.organization.id, organizationId));
});

describe('applications', () => {
  let app: Application;

  it('records the creation, a rename, a deactivation and a reactivation', async () => {
    const created = await t.app.inject(
      browserRequest('POST', '/api/v1/applications', { name: 'Audited app', plan: 'advance', region: 'EU' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    [app] = created.json() as [Application];
    const [creation] = await newestEntries();
    expect(creation).toMatchObject({
      action: 'application.created',
      actionGroup: 'application',
      target: { type: 'application', id: app.applicationId, name: 'Audited app' },
      changes: { name: { after: 'Audited app' }, plan: { after: 'advance' }, region: { after: 'EU' } },
    });
    expectMadeByOwner(creation!, created.headers['x-request-id']);

    await waitForActive(app.applicationId);
    const renamed = await t.app.inject(
      browserRequest('PUT', `/api/v1/applications/${app.applicationId}`, { name: 'Renamed app' }),
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [rename] = await newestEntries();
    expect(rename).toMatchObject({
      action: 'application.renamed',
      target: { type: 'application', id: app.applicationId, name: 'Renamed app' },
      changes: { name: { before: 'Audited app', after: 'Renamed app' } },
    });
    expectMadeByOwner(rename!, renamed.headers['x-request-id']);

    const deactivated = await t.app.inject(
      browserRequest('POST', `/api/v1/applications/${app.applicationId}/deactivate`, { confirmName: 'Renamed app' }),
    );
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    const reactivated = await t.app.inject(
      browserRequest('POST', `/api/v1/applications/${app.applicationId}/reactivate`),
    );
    expect(reactivated.statusCode, reactivated.body).toBe(200);
    const [reactivation, deactivation] = await newestEntries();
    expect(deactivation).toMatchObject({
      action: 'application.deactivated',
      changes: { state: { before: 'active', after: 'deactivated' } },
    });
    expectMadeByOwner(deactivation!, deactivated.headers['x-request-id']);
    expect(reactivation).toMatchObject({
      action: 'application.reactivated',
      changes: { state: { before: 'deactivated', after: 'active' } },
    });
    expectMadeByOwner(reactivation!, reactivated.headers['x-request-id']);
  });

  it('records a reactivation the region refused, and the portal putting the application back', async () => {
    const url = `/api/v1/applications/${app.applicationId}`;
    expect((await t.app.inject(browserRequest('POST', `${url}/deactivate`, { confirmName: 'Renamed app' }))).statusCode).toBe(200);
    region.failNext = 1;
    expectApiError(await t.app.inject(browserRequest('POST', `${url}/reactivate`)), 503, 'REGION_UNAVAILABLE');
    const [putBack, reactivation] = await newestEntries();
    expect(reactivation).toMatchObject({
      action: 'application.reactivated',
      changes: { state: { before: 'deactivated', after: 'active' } },
    });
    expect(putBack).toMatchObject({
      action: 'application.deactivated',
      changes: { state: { before: 'active', after: 'deactivated' }, reason: { after: 'region_unavailable' } },
    });
    expect(putBack!.requestId).toBe(reactivation!.requestId);
    expect(((await t.app.inject(jsonRequest('GET', url, undefined, owner))).json() as Application).state).toBe('deactivated');
  });

  it('records nothing for a refused change', async () => {
    const before = await entryCount();
    // The application is deactivated (the region refused its reactivation above).
    const notActive = await t.app.inject(
      browserRequest('PUT', `/api/v1/applications/${app.applicationId}`, { name: 'Never renamed' }),
    );
    expectApiError(notActive, 409, 'APPLICATION_NOT_ACTIVE');
    expect(await entryCount()).toBe(before);
  });

  it('keeps no application whose entry could not be written', async () => {
    await withAuditEntriesRefused(t.database.db, `target_name = 'Unrecorded app'`, async () => {
      const created = await t.app.inject(
        browserRequest('POST', '/api/v1/applications', { name: 'Unrecorded app', plan: 'basic', region: 'EU' }),
      );
      expect(created.statusCode).toBe(500);
    });
    const stored = await t.database.db
      .select()
      .from(schema.application)
      .where(and(eq(schema.application.organizationId, organizationId), eq(schema.application.name, 'Unrecorded app')));
    expect(stored).toEqual([]);
  });
});

describe('members', () => {
  it('records a role change, a scope change and a removal, with the fields that changed', async () => {
    const member = await joinOrganization(t, 'dev@audit-recording.example.com', organizationId, 'portal.developer');
    const url = `/api/v1/members/${member.memberId}`;

    const roleChanged = await t.app.inject(
      browserRequest('PUT', url, { displayName: 'dev', roleIds: ['portal.moderator'], applicationScopes: null }),
    );
    expect(roleChanged.statusCode, roleChanged.body).toBe(200);
    const [roleChange] = await newestEntries();
    expect(roleChange).toMatchObject({
      action: 'member.role_changed',
      target: { type: 'member', id: member.memberId, name: 'dev@audit-recording.example.com' },
      changes: { role: { before: 'portal.developer', after: 'portal.moderator' } },
    });
    expect(Object.keys(roleChange!.changes)).toEqual(['role']);
    expectMadeByOwner(roleChange!, roleChanged.headers['x-request-id']);

    const applications = (
      (await t.app.inject(jsonRequest('GET', '/api/v1/applications', undefined, owner))).json() as { data: Application[] }
    ).data;
    const scopeChanged = await t.app.inject(
      browserRequest('PUT', url, {
        displayName: 'dev',
        roleIds: ['portal.moderator'],
        applicationScopes: [applications[0]!.applicationId],
      }),
    );
    expect(scopeChanged.statusCode, scopeChanged.body).toBe(200);
    const [scopeChange] = await newestEntries();
    expect(scopeChange).toMatchObject({
      action: 'member.scope_changed',
      changes: { applicationScope: { before: null, after: [applications[0]!.applicationId] } },
    });

    const removed = await t.app.inject(browserRequest('DELETE', url));
    expect(removed.statusCode, removed.body).toBe(204);
    const [removal] = await newestEntries();
    expect(removal).toMatchObject({
      action: 'member.removed',
      target: { type: 'member', id: member.memberId, name: 'dev@audit-recording.example.com' },
      changes: { role: { before: 'portal.moderator' } },
    });
    expectMadeByOwner(removal!, removed.headers['x-request-id']);
  });

  it('records nothing for a refused change, and keeps the role when its entry cannot be written', async () => {
    const member = await joinOrganization(t, 'analyst@audit-recording.example.com', organizationId, 'portal.analyst');
    const before = await entryCount();
    const self = await t.app.inject(browserRequest('DELETE', `/api/v1/members/${ownerMemberId}`));
    expectApiError(self, 409, 'CANNOT_REMOVE_SELF');
    expect(await entryCount()).toBe(before);

    await withAuditEntriesRefused(t.database.db, `action = 'member.role_changed'`, async () => {
      const changed = await t.app.inject(
        browserRequest('PUT', `/api/v1/members/${member.memberId}`, {
          displayName: 'analyst',
          roleIds: ['portal.developer'],
          applicationScopes: null,
        }),
      );
      expect(changed.statusCode).toBe(500);
    });
    const [row] = await t.database.db.select().from(schema.member).where(eq(schema.member.id, member.memberId));
    expect(row?.roleId).toBe('portal.analyst');
    expect(await entryCount()).toBe(before);
  });
});

describe('invitations', () => {
  it('records an invitation sent and cancelled, never its code', async () => {
    const sent = await invite(t.app, owner, ['invitee@audit-recording.example.com'], 'portal.developer');
    expect(sent.statusCode, sent.body).toBe(201);
    const [invitation] = (sent.json() as { results: { id: string }[] }).results;
    const [invited] = await newestEntries();
    expect(invited).toMatchObject({
      action: 'member.invited',
      target: { type: 'invitation', id: invitation!.id, name: 'invitee@audit-recording.example.com' },
      changes: { role: { after: 'portal.developer' }, applicationScope: { after: null } },
    });
    expect(invited!.requestId).toBe(sent.headers['x-request-id']);
    const [stored] = await t.database.db.select().from(schema.invitation).where(eq(schema.invitation.id, invitation!.id));
    expect(JSON.stringify(invited)).not.toContain(stored!.codeHash);

    const cancelled = await t.app.inject(browserRequest('DELETE', `/api/v1/invitations/${invitation!.id}`));
    expect(cancelled.statusCode, cancelled.body).toBe(204);
    const [cancellation] = await newestEntries();
    expect(cancellation).toMatchObject({
      action: 'member.invitation_cancelled',
      target: { type: 'invitation', id: invitation!.id },
      changes: { status: { before: 'pending', after: 'cancelled' } },
    });
    expectMadeByOwner(cancellation!, cancelled.headers['x-request-id']);

    const before = await entryCount();
    const again = await t.app.inject(browserRequest('DELETE', `/api/v1/invitations/${invitation!.id}`));
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect(await entryCount()).toBe(before);
  });

  it('stores no invitation whose entry cannot be written', async () => {
    await withAuditEntriesRefused(t.database.db, `target_name = 'unrecorded@audit-recording.example.com'`, async () => {
      const sent = await invite(t.app, owner, ['unrecorded@audit-recording.example.com'], 'portal.developer');
      expect(sent.statusCode).toBe(500);
    });
    const stored = await t.database.db
      .select()
      .from(schema.invitation)
      .where(eq(schema.invitation.email, 'unrecorded@audit-recording.example.com'));
    expect(stored).toEqual([]);
  });
});

describe("the organisation's second-factor requirement", () => {
  it('records the requirement turned on and off, and nothing when refused or unchanged', async () => {
    const before = await entryCount();
    const refused = await t.app.inject(browserRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor: true }));
    expectApiError(refused, 409, 'OWN_TWO_FACTOR_REQUIRED');
    const unchanged = await t.app.inject(browserRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor: false }));
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    expect(await entryCount()).toBe(before);

    const enrolled = await enrolAuthenticator(t.app, owner);
    owner = enrolled.cookie;
    const required = await t.app.inject(browserRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor: true }));
    expect(required.statusCode, required.body).toBe(200);
    const [requirement] = await newestEntries();
    expect(requirement).toMatchObject({
      action: 'two_factor.requirement_changed',
      actionGroup: 'two_factor',
      target: { type: 'organization', id: organizationId },
      changes: { requireTwoFactor: { before: false, after: true } },
    });
    expectMadeByOwner(requirement!, required.headers['x-request-id']);

    await withAuditEntriesRefused(t.database.db, `action = 'two_factor.requirement_changed'`, async () => {
      const off = await t.app.inject(browserRequest('PUT', '/api/v1/accounts/security', { requireTwoFactor: false }));
      expect(off.statusCode).toBe(500);
    });
    const [organization] = await t.database.db
      .select({ requireTwoFactor: schema.organization.requireTwoFactor })
      .from(schema.organization)
      .where(eq(schema.organization.id, organizationId));
    expect(organization?.requireTwoFactor).toBe(true);
  });
});
