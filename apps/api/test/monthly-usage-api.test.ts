import type { MonthlyUsage, RoleId } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { recordApplicationUsage } from '../src/modules/billing/billing.repository.ts';

import { newApplicationWithUsage, sessionUserOf } from './billing-fixtures.ts';
import { expectApiError, joinOrganization, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

/*
 * GET /api/v1/accounts/usages/monthly (decision 017): each application's monthly active users in
 * the last 12 months, for the roles with VIEW_PLAN_DETAIL and each organisation its own.
 */
const t = useTestApp();
const URL = '/api/v1/accounts/usages/monthly';
const OWNER = 'owner@monthly.usage-api.io';

/** The month `back` months before the one `now` falls in, as `YYYY-MM` (UTC), written out here. */
function monthBefore(now: Date, back: number): string {
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth() - back;
  return `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
}

async function organizationOf(cookie: string): Promise<string> {
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
  return (me.json() as { organizationId: string }).organizationId;
}

const get = (cookie?: string) => t.app.inject(jsonRequest('GET', URL, undefined, cookie));
const usage = (applicationId: string, billingCycle: string, mau: number) =>
  recordApplicationUsage(t.database.db, organizationId, {
    applicationId,
    billingCycle,
    mau,
    importedAt: new Date(),
  });

let organizationId = '';
let ownerCookie = '';
const cookies = {} as Record<RoleId, string>;
let strangerCookie = '';
let strangerOrganizationId = '';

beforeAll(async () => {
  ownerCookie = await setUpOrganization(t.app, OWNER);
  organizationId = await organizationOf(ownerCookie);
  cookies['portal.super-admin'] = ownerCookie;
  for (const roleId of ['portal.admin', 'portal.moderator', 'portal.analyst', 'portal.developer'] as const) {
    cookies[roleId] = (
      await joinOrganization(t, `${roleId}@monthly.usage-api.io`, organizationId, roleId)
    ).cookie;
  }
  strangerCookie = await setUpOrganization(t.app, 'owner@stranger.usage-api.io');
  strangerOrganizationId = await organizationOf(strangerCookie);
}, 60_000);

describe('who may read the monthly usage', () => {
  it('answers the super-admin and the admin (VIEW_PLAN_DETAIL); other roles get 403, no session 401', async () => {
    for (const roleId of ['portal.super-admin', 'portal.admin'] as const) {
      expect((await get(cookies[roleId])).statusCode, roleId).toBe(200);
    }
    for (const roleId of ['portal.moderator', 'portal.analyst', 'portal.developer'] as const) {
      expectApiError(await get(cookies[roleId]), 403, 'FORBIDDEN');
    }
    expectApiError(await get(), 401, 'UNAUTHORIZED');
  });
});

describe('the last 12 months per application', () => {
  let now: Date;
  let chat = '';
  let video = '';
  let retired = '';

  beforeAll(async () => {
    now = new Date();
    const db = t.database.db;
    chat = await newApplicationWithUsage(db, organizationId, {
      plan: 'advance',
      billingCycle: monthBefore(now, 0),
      mau: 420,
      name: 'Chat',
      createdAt: new Date('2024-01-10T00:00:00Z'),
    });
    await usage(chat, monthBefore(now, 11), 100);
    await usage(chat, monthBefore(now, 3), 300);
    // Thirteen months back: before the window.
    await usage(chat, monthBefore(now, 12), 9_999);
    // Created after Chat: listed after it.
    video = await newApplicationWithUsage(db, organizationId, {
      plan: 'max',
      billingCycle: monthBefore(now, 1),
      mau: 75,
      name: 'Video',
      createdAt: new Date('2024-06-01T00:00:00Z'),
    });
    // Used only before the window: not listed.
    await newApplicationWithUsage(db, organizationId, {
      plan: 'basic',
      billingCycle: monthBefore(now, 13),
      mau: 50,
      name: 'Old',
      createdAt: new Date('2023-01-01T00:00:00Z'),
    });
    // Deleted from the database below: its usage goes with it.
    retired = await newApplicationWithUsage(db, organizationId, {
      plan: 'basic',
      billingCycle: monthBefore(now, 2),
      mau: 10,
      name: 'Retired',
    });
    // Another organisation's application with usage this month.
    await newApplicationWithUsage(db, strangerOrganizationId, {
      plan: 'basic',
      billingCycle: monthBefore(now, 0),
      mau: 5,
      name: 'Theirs',
    });
  });

  it('answers the 12 months oldest first, this month (UTC) last, with 0 where nothing was imported', async () => {
    const response = await get(ownerCookie);
    expect(response.statusCode).toBe(200);
    const months = response.json() as MonthlyUsage[];
    expect(months.map((entry) => entry.month)).toEqual(
      Array.from({ length: 12 }, (_, index) => monthBefore(now, 11 - index)),
    );
    const mauOf = (name: string) =>
      months.map((entry) => entry.applications.find((application) => application.name === name)?.mau);
    expect(mauOf('Chat')).toEqual([100, 0, 0, 0, 0, 0, 0, 0, 300, 0, 0, 420]);
    expect(mauOf('Video')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 75, 0]);
    expect(mauOf('Retired')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0]);
    for (const entry of months) {
      expect(entry.applications.map((application) => application.name)).toEqual(['Chat', 'Video', 'Retired']);
    }
    expect(months[11]?.applications[0]).toEqual({ applicationId: chat, name: 'Chat', mau: 420 });
  });

  it('answers the admin the same months', async () => {
    expect((await get(cookies['portal.admin'])).json()).toEqual((await get(ownerCookie)).json());
  });

  it("answers another organisation its own applications only, none of this one's", async () => {
    const months = (await get(strangerCookie)).json() as MonthlyUsage[];
    expect(months).toHaveLength(12);
    expect(months.flatMap((entry) => entry.applications.map((application) => application.name))).toEqual(
      Array.from({ length: 12 }, () => 'Theirs'),
    );
    expect(months[11]?.applications[0]?.mau).toBe(5);
  });

  it('shows a deactivated application under its current name, and a deleted one no more', async () => {
    const db = t.database.db;
    await db
      .update(schema.application)
      .set({ state: 'temporary_inactive', deactivatedAt: new Date(), name: 'Video (old)' })
      .where(eq(schema.application.id, video));
    await db.delete(schema.application).where(eq(schema.application.id, retired));
    const months = (await get(ownerCookie)).json() as MonthlyUsage[];
    expect(months[10]?.applications).toEqual([
      { applicationId: chat, name: 'Chat', mau: 0 },
      { applicationId: video, name: 'Video (old)', mau: 75 },
    ]);
  });
});

describe('the months as the service counts them', () => {
  it('ends with the month the given instant falls in, in UTC, and answers every month when nothing was imported', async () => {
    const stranger = await sessionUserOf(t.database.db, 'owner@stranger.usage-api.io');
    const months = await t.app.billing.planUsage.monthlyUsages(
      stranger,
      new Date('2021-01-01T00:30:00+01:00'),
    );
    expect(months.map((entry) => entry.month)).toEqual([
      '2020-01',
      '2020-02',
      '2020-03',
      '2020-04',
      '2020-05',
      '2020-06',
      '2020-07',
      '2020-08',
      '2020-09',
      '2020-10',
      '2020-11',
      '2020-12',
    ]);
    expect(months.every((entry) => entry.applications.length === 0)).toBe(true);
  });
});
