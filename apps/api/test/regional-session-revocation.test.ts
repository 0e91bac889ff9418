import { REGIONAL_SESSION_CHECK_PATH, type Application } from '@portal/contracts';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { regionAdminToken } from '../src/regions/embedded-regions.ts';
import { TEST_ORIGIN, expectApiError, joinByInvitation, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

/*
 * The portal with its embedded regions: a regional session opened with a member's access token
 * must stop working the moment the portal stops vouching for it, not when the token would expire.
 */
const t = useTestApp({ REGION_PROVISIONING_POLL_MS: '8000', PROVISIONING_RETRY_DELAY_SECONDS: '0' });
let owner: string;
let app: Application;
let otherApp: Application;

async function createActiveApplication(name: string) {
  const created = await t.app.inject(jsonRequest('POST', '/api/v1/applications', { name, plan: 'advance', region: 'EU' }, owner));
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as Application[])[0]!.applicationId;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = (await t.app.inject(jsonRequest('GET', `/api/v1/applications/${id}`, undefined, owner))).json() as Application;
    if (read.state === 'active') return read;
    if (Date.now() > deadline) throw new Error(`application ${id} stayed ${read.state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function accessToken(cookie: string) {
  const response = await t.app.inject(jsonRequest('GET', '/api/auth/token', undefined, cookie));
  expect(response.statusCode).toBe(200);
  return (response.json() as { token: string }).token;
}

/** Opens the regional session as the browser does after "Go to console"; answers its cookie. */
async function openRegionalSession(cookie: string, applicationId: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/regions/eu/api/v2/sso/portal?applicationId=${applicationId}`,
    headers: { authorization: `Bearer ${await accessToken(cookie)}`, origin: TEST_ORIGIN },
  });
  expect(response.statusCode, response.body).toBe(200);
  return String(response.headers['set-cookie']).split(';')[0]!;
}

function regionalCalls(regionalCookie: string, application: Application) {
  const headers = { cookie: regionalCookie };
  return Promise.all([
    t.app.inject({ method: 'GET', url: '/regions/eu/admin/v1/network/apikey', headers }),
    t.app.inject({ method: 'GET', url: `/regions/eu/network/first-activity?networkId=${application.networkId}`, headers }),
    t.app.inject({ method: 'GET', url: `/regions/eu/console/${application.networkId}`, headers }),
  ]);
}

async function expectRegionalAccess(regionalCookie: string, application: Application) {
  expect((await regionalCalls(regionalCookie, application)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
}

async function expectNoRegionalAccess(regionalCookie: string, application: Application) {
  expect((await regionalCalls(regionalCookie, application)).map((r) => r.statusCode)).toEqual([401, 401, 401]);
}

beforeAll(async () => {
  owner = await setUpOrganization(t.app, 'owner@revoke.io');
  [app, otherApp] = await Promise.all([createActiveApplication('Revoked'), createActiveApplication('Other')]);
});

describe('regional access after the portal stops vouching', () => {
  it('ends when the member signs out', async () => {
    const { cookie } = await joinByInvitation(t.app, owner, 'leaver@revoke.io', 'portal.developer');
    const regional = await openRegionalSession(cookie, app.applicationId);
    await expectRegionalAccess(regional, app);

    const signOut = await t.app.inject(jsonRequest('POST', '/api/auth/sign-out', {}, cookie));
    expect(signOut.statusCode).toBe(200);
    await expectNoRegionalAccess(regional, app);
  });

  it('ends when the member is deleted', async () => {
    const { cookie, memberId } = await joinByInvitation(t.app, owner, 'deleted@revoke.io', 'portal.developer');
    const regional = await openRegionalSession(cookie, app.applicationId);
    await expectRegionalAccess(regional, app);

    const removed = await t.app.inject(jsonRequest('DELETE', `/api/v1/members/${memberId}`, undefined, owner));
    expect(removed.statusCode).toBe(204);
    await expectNoRegionalAccess(regional, app);
  });

  it("ends when the application is taken out of the member's scope", async () => {
    const { cookie, memberId } = await joinByInvitation(t.app, owner, 'narrowed@revoke.io', 'portal.developer', [
      app.applicationId,
    ]);
    const regional = await openRegionalSession(cookie, app.applicationId);
    await expectRegionalAccess(regional, app);

    const narrowed = await t.app.inject(
      jsonRequest(
        'PUT',
        `/api/v1/members/${memberId}`,
        { displayName: 'Narrowed', roleIds: ['portal.developer'], applicationScopes: [otherApp.applicationId] },
        owner,
      ),
    );
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    await expectNoRegionalAccess(regional, app);
  });
});

describe(`POST ${REGIONAL_SESSION_CHECK_PATH}`, () => {
  const check = (body: unknown, token?: string) =>
    t.app.inject({
      method: 'POST',
      url: REGIONAL_SESSION_CHECK_PATH,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: JSON.stringify(body),
    });

  it('answers the regions, with the admin token, whether a session may still see an application', async () => {
    const sessionId = String(decodeJwt(await accessToken(owner)).sid);
    const adminToken = regionAdminToken(t.config);
    const allowed = await check({ sessionId, applicationId: app.applicationId }, adminToken);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ allowed: true });
    expectApiError(await check({ sessionId, applicationId: 'not-an-application' }, adminToken), 404, 'NOT_FOUND');
    expectApiError(await check({ sessionId: 'ended', applicationId: app.applicationId }, adminToken), 404, 'NOT_FOUND');
  });

  it('refuses callers without the admin token, whatever else they hold', async () => {
    const sessionId = String(decodeJwt(await accessToken(owner)).sid);
    const body = { sessionId, applicationId: app.applicationId };
    expectApiError(await check(body), 401, 'UNAUTHORIZED');
    expectApiError(await check(body, 'not-the-admin-token-at-all'), 401, 'UNAUTHORIZED');
    expectApiError(await check(body, await accessToken(owner)), 401, 'UNAUTHORIZED');
    const withCookie = await t.app.inject(jsonRequest('POST', REGIONAL_SESSION_CHECK_PATH, body, owner));
    expectApiError(withCookie, 401, 'UNAUTHORIZED');
  });

  it('names the field of a bad body', async () => {
    const response = await check({ sessionId: '', applicationId: app.applicationId }, regionAdminToken(t.config));
    expect(expectApiError(response, 400, 'VALIDATION_ERROR').field).toBe('sessionId');
  });
});
