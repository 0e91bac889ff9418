import type {
  AuditLogEntry,
  ListUsageAlertNoticesResponse,
  UsageAlertSettings,
  UsageAlertSettingsResponse,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { billingCycleOf } from '../src/modules/billing/billing-rules.ts';
import { recordApplicationUsage } from '../src/modules/billing/billing.repository.ts';
import { warnLowBalances } from '../src/modules/payments/payments.jobs.ts';
import { checkUsageAlerts } from '../src/modules/usage-alerts/usage-alerts.check.ts';
import { listOrganizationsWithAlertKind } from '../src/modules/usage-alerts/usage-alerts.repository.ts';
import { auditEntries, newAuditedOwner, type AuditedOwner } from './audit-log-support.ts';
import { newApplicationWithUsage } from './billing-fixtures.ts';
import { expectApiError, joinOrganization, jsonRequest, mailsTo, untilMail, useTestApp } from './helper.ts';

/*
 * Usage alerts (decision 044): the settings as a whole, who may read and save them, and the check
 * after a usage import: each threshold crossed noticed once a month, mailed to the super-admins and
 * the added addresses, recorded in the audit log, and shown until raised.
 */
const t = useTestApp();

let owners = 0;
async function newOwner(label: string): Promise<AuditedOwner> {
  return newAuditedOwner(t.app, `${label}-${(owners += 1)}@usage-alerts.example.com`);
}

async function setContract(organizationId: string, values: Partial<typeof schema.organization.$inferInsert>) {
  await t.database.db
    .update(schema.organization)
    .set(values)
    .where(eq(schema.organization.id, organizationId));
}

const FLAT_RATE = { contractType: 'flat_rate', licenseMau: 10, licenseFeeCents: 10_000 } as const;

function getSettings(cookie: string) {
  return t.app.inject(jsonRequest('GET', '/api/v1/usage-alerts', undefined, cookie));
}

function putSettings(cookie: string, body: UsageAlertSettings | Record<string, unknown>) {
  return t.app.inject(jsonRequest('PUT', '/api/v1/usage-alerts', body, cookie));
}

async function notices(cookie: string) {
  const response = await t.app.inject(jsonRequest('GET', '/api/v1/usage-alerts/notices', undefined, cookie));
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as ListUsageAlertNoticesResponse).results;
}

/** This month's users of one application of the organisation, as an import records them. */
async function usageThisMonth(organizationId: string, applicationId: string, mau: number) {
  await recordApplicationUsage(t.database.db, organizationId, {
    applicationId,
    billingCycle: billingCycleOf(new Date()),
    mau,
    importedAt: new Date(),
  });
}

function check(organizationId: string) {
  return checkUsageAlerts({ db: t.database.db, jobQueue: t.app.jobQueue, now: () => new Date() }, [
    organizationId,
  ]);
}

async function noticeRows(organizationId: string) {
  return t.database.db
    .select()
    .from(schema.usageAlertNotice)
    .where(eq(schema.usageAlertNotice.organizationId, organizationId));
}

function alertEntries(entries: AuditLogEntry[], action: string) {
  return entries.filter((entry) => entry.action === action);
}

describe('usage alert settings', () => {
  it('start at 80 % and 100 % of the licence for a flat-rate contract, and at none for PAYG', async () => {
    const flat = await newOwner('defaults-flat');
    await setContract(flat.organizationId, FLAT_RATE);
    expect((await getSettings(flat.cookie)).json()).toEqual({
      alerts: [
        { kind: 'mau_percent', value: 80 },
        { kind: 'mau_percent', value: 100 },
      ],
      recipients: [],
      defaults: true,
      contractType: 'flat_rate',
      licenseMau: 10,
    } satisfies UsageAlertSettingsResponse);

    const payg = await newOwner('defaults-payg');
    expect((await getSettings(payg.cookie)).json()).toMatchObject({
      alerts: [],
      defaults: true,
      contractType: 'payg',
    });
  });

  it('are saved whole, and the change is in the audit log with what it replaced; saving the same again records nothing', async () => {
    const owner = await newOwner('save');
    const body: UsageAlertSettings = {
      alerts: [
        { kind: 'mau', value: 5_000 },
        { kind: 'projected_charge', value: 40_000 },
        { kind: 'low_balance', value: 5_000 },
      ],
      recipients: ['Finance@Usage-Alerts.example.com'],
    };
    const saved = await putSettings(owner.cookie, body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      alerts: body.alerts,
      recipients: ['finance@usage-alerts.example.com'],
      defaults: false,
    });
    expect((await getSettings(owner.cookie)).json()).toEqual(saved.json());

    const replaced = await putSettings(owner.cookie, {
      alerts: [{ kind: 'mau', value: 6_000 }],
      recipients: [],
    });
    expect(replaced.json()).toMatchObject({ alerts: [{ kind: 'mau', value: 6_000 }], recipients: [] });
    await putSettings(owner.cookie, { alerts: [{ kind: 'mau', value: 6_000 }], recipients: [] });

    const changes = alertEntries(await auditEntries(t.app, owner.cookie), 'usage_alert.changed');
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({
      actor: { kind: 'member', memberId: owner.memberId, email: owner.email },
      target: { type: 'organization', id: owner.organizationId },
      changes: {
        alerts: { before: ['mau:5000', 'projected_charge:40000', 'low_balance:5000'], after: ['mau:6000'] },
        recipients: { before: ['finance@usage-alerts.example.com'], after: [] },
      },
    });
    expect(changes[1]?.changes).toEqual({
      alerts: { before: [], after: ['mau:5000', 'projected_charge:40000', 'low_balance:5000'] },
      recipients: { before: [], after: ['finance@usage-alerts.example.com'] },
    });
  });

  it('refuses a kind the contract has no figure for, naming the alert, and keeps what was saved', async () => {
    const owner = await newOwner('misfit');
    await putSettings(owner.cookie, { alerts: [{ kind: 'mau', value: 100 }], recipients: [] });
    const response = await putSettings(owner.cookie, {
      alerts: [
        { kind: 'mau', value: 100 },
        { kind: 'mau_percent', value: 80 },
      ],
      recipients: [],
    });
    expectApiError(response, 400, 'USAGE_ALERT_NOT_FOR_CONTRACT');
    expect(response.json()).toMatchObject({ field: 'alerts.1.kind' });
    expect((await getSettings(owner.cookie)).json()).toMatchObject({ alerts: [{ kind: 'mau', value: 100 }] });

    const flat = await newOwner('misfit-flat');
    await setContract(flat.organizationId, FLAT_RATE);
    const money = await putSettings(flat.cookie, {
      alerts: [{ kind: 'low_balance', value: 100 }],
      recipients: [],
    });
    expectApiError(money, 400, 'USAGE_ALERT_NOT_FOR_CONTRACT');
    expect(money.json()).toMatchObject({ field: 'alerts.0.kind' });
  });

  it.each([
    ['a value of 0', { alerts: [{ kind: 'mau', value: 0 }], recipients: [] }, 'alerts.0.value'],
    ['a fraction', { alerts: [{ kind: 'mau', value: 1.5 }], recipients: [] }, 'alerts.0.value'],
    [
      'a percentage over 1000',
      {
        alerts: [
          { kind: 'mau', value: 10 },
          { kind: 'mau_percent', value: 1_001 },
        ],
        recipients: [],
      },
      'alerts.1.value',
    ],
    [
      'an alert set twice',
      {
        alerts: [
          { kind: 'mau', value: 10 },
          { kind: 'mau', value: 10 },
        ],
        recipients: [],
      },
      'alerts.1',
    ],
    ['an unknown kind', { alerts: [{ kind: 'sms', value: 10 }], recipients: [] }, 'alerts.0.kind'],
    [
      'eleven alerts',
      { alerts: Array.from({ length: 11 }, (_, i) => ({ kind: 'mau', value: i + 1 })), recipients: [] },
      'alerts',
    ],
    ['an address that is not one', { alerts: [], recipients: ['finance'] }, 'recipients.0'],
    ['an address twice', { alerts: [], recipients: ['a@example.com', 'A@example.com'] }, 'recipients.1'],
    [
      'eleven addresses',
      { alerts: [], recipients: Array.from({ length: 11 }, (_, i) => `r${i}@example.com`) },
      'recipients',
    ],
    ['no recipients field', { alerts: [] }, 'recipients'],
  ])('answer 400 naming the field for %s', async (_label, body, field) => {
    const owner = await newOwner('invalid');
    const response = await putSettings(owner.cookie, body);
    expectApiError(response, 400, 'VALIDATION_ERROR');
    expect((response.json() as { fields: { field: string }[] }).fields.map((f) => f.field)).toContain(field);
    expect((await getSettings(owner.cookie)).json()).toMatchObject({ defaults: true });
  });

  it('are read by an admin without the money kinds, saved by the super-admin alone, and never reach a developer', async () => {
    const owner = await newOwner('roles');
    await putSettings(owner.cookie, {
      alerts: [
        { kind: 'mau', value: 500 },
        { kind: 'projected_charge', value: 10_000 },
      ],
      recipients: [],
    });
    const admin = await joinOrganization(
      t,
      `admin-${owners}@usage-alerts.example.com`,
      owner.organizationId,
      'portal.admin',
    );
    expect((await getSettings(admin.cookie)).json()).toMatchObject({ alerts: [{ kind: 'mau', value: 500 }] });
    expectApiError(await putSettings(admin.cookie, { alerts: [], recipients: [] }), 403, 'FORBIDDEN');

    const developer = await joinOrganization(
      t,
      `dev-${owners}@usage-alerts.example.com`,
      owner.organizationId,
      'portal.developer',
    );
    expectApiError(await getSettings(developer.cookie), 403, 'FORBIDDEN');
    expectApiError(
      await t.app.inject(jsonRequest('GET', '/api/v1/usage-alerts/notices', undefined, developer.cookie)),
      403,
      'FORBIDDEN',
    );
    expectApiError(await t.app.inject(jsonRequest('GET', '/api/v1/usage-alerts')), 401, 'UNAUTHORIZED');
    expect((await getSettings(owner.cookie)).json()).toMatchObject({
      alerts: [{ kind: 'mau' }, { kind: 'projected_charge' }],
    });
  });

  it("are each organisation's own: another super-admin's save leaves this one's alone", async () => {
    const owner = await newOwner('own');
    const other = await newOwner('other');
    await putSettings(owner.cookie, { alerts: [{ kind: 'mau', value: 42 }], recipients: [] });
    await putSettings(other.cookie, { alerts: [{ kind: 'mau', value: 7 }], recipients: [] });
    expect((await getSettings(owner.cookie)).json()).toMatchObject({ alerts: [{ kind: 'mau', value: 42 }] });
  });
});

describe('the check after a usage import', () => {
  it('mails a flat-rate organisation once at 80 %, then once at 100 %, to the super-admins and the added addresses', async () => {
    const owner = await newOwner('flat');
    await setContract(owner.organizationId, FLAT_RATE);
    const finance = `finance-${owners}@usage-alerts.example.com`;
    await putSettings(owner.cookie, {
      alerts: [
        { kind: 'mau_percent', value: 80 },
        { kind: 'mau_percent', value: 100 },
      ],
      recipients: [finance],
    });
    const cycle = billingCycleOf(new Date());
    const app = await newApplicationWithUsage(t.database.db, owner.organizationId, {
      plan: 'advance',
      billingCycle: cycle,
      mau: 7,
    });
    expect(await check(owner.organizationId)).toEqual({ noticed: 0 });

    await usageThisMonth(owner.organizationId, app, 8);
    expect(await check(owner.organizationId)).toEqual({ noticed: 1 });
    expect(await check(owner.organizationId)).toEqual({ noticed: 0 });
    const eighty = (await untilMail(t.app, owner.email, 'usage alert: 80 % of the licence used'))[0]!;
    expect(eighty.text).toContain('8 monthly active users');
    expect(eighty.text).toContain('80 % of its 10-MAU licence');
    expect(eighty.text).toContain('/subscription-licenses/asc');
    await untilMail(t.app, finance, 'usage alert: 80 % of the licence used');

    await usageThisMonth(owner.organizationId, app, 11);
    expect(await check(owner.organizationId)).toEqual({ noticed: 1 });
    // The 100 % mail came after the repeated check's would have: one 80 % mail each, not two.
    for (const to of [owner.email, finance]) {
      const mails = await untilMail(t.app, to, 'usage alert: 110 % of the licence used');
      expect(
        mails.filter((mail) => mail.subject.includes('80 %')),
        to,
      ).toHaveLength(1);
    }

    expect(await notices(owner.cookie)).toMatchObject([
      { kind: 'mau_percent', threshold: 80, figure: 8, licenseMau: 10, cycle },
      { kind: 'mau_percent', threshold: 100, figure: 11, licenseMau: 10, cycle },
    ]);
    const triggered = alertEntries(await auditEntries(t.app, owner.cookie), 'usage_alert.triggered');
    expect(triggered.map((entry) => entry.changes.threshold?.after)).toEqual([100, 80]);
    expect(triggered[0]?.actor.kind).toBe('system');

    // Raised above the figure, the 80 % alert's notice is no longer shown; at 80 again, it is.
    await putSettings(owner.cookie, {
      alerts: [
        { kind: 'mau_percent', value: 120 },
        { kind: 'mau_percent', value: 100 },
      ],
      recipients: [finance],
    });
    expect((await notices(owner.cookie)).map((notice) => notice.threshold)).toEqual([100]);
  });

  it('notices a crossing once when two servers check at the same moment', async () => {
    const owner = await newOwner('race');
    await setContract(owner.organizationId, FLAT_RATE);
    await newApplicationWithUsage(t.database.db, owner.organizationId, {
      plan: 'advance',
      billingCycle: billingCycleOf(new Date()),
      mau: 9,
    });
    const outcomes = await Promise.all([check(owner.organizationId), check(owner.organizationId)]);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.noticed, 0)).toBe(1);
    expect(await noticeRows(owner.organizationId)).toHaveLength(1);
  });

  it("warns a PAYG organisation of its month's projected charge and of a balance below its alert, with a link to top up", async () => {
    const owner = await newOwner('payg');
    await setContract(owner.organizationId, { balanceCents: 2_000 });
    await putSettings(owner.cookie, {
      alerts: [
        { kind: 'projected_charge', value: 100 },
        { kind: 'low_balance', value: 5_000 },
        { kind: 'mau', value: 1_000_000 },
      ],
      recipients: [],
    });
    // 1,000 MAU at the advance plan's price.
    await newApplicationWithUsage(t.database.db, owner.organizationId, {
      plan: 'advance',
      billingCycle: billingCycleOf(new Date()),
      mau: 1_000,
    });
    expect(await check(owner.organizationId)).toEqual({ noticed: 2 });
    const charge = (await untilMail(t.app, owner.email, 'usage alert: projected charge USD')).find((mail) =>
      mail.subject.includes('projected charge'),
    )!;
    expect(charge.text).toMatch(/comes to USD [\d,]+\.\d\d so far, at or over the alert of USD 1\.00/);
    const balance = (await untilMail(t.app, owner.email, 'usage alert: balance below USD 50.00')).find(
      (mail) => mail.subject.includes('balance below'),
    )!;
    expect(balance.text).toContain('The prepaid balance of');
    expect(balance.text).toContain('is USD 20.00, below the alert of USD 50.00');
    expect(balance.text).toContain('/payment/asc/top-up');

    // The old warning (balance below last month's charge) is not sent besides the alert set.
    const warned = await warnLowBalances({ db: t.database.db, jobQueue: t.app.jobQueue }, new Date());
    expect(warned).not.toContain(owner.organizationId);
    // The schedule watches its balance instead.
    expect(await listOrganizationsWithAlertKind(t.database.db, 'low_balance')).toContain(
      owner.organizationId,
    );
    expect(await listOrganizationsWithAlertKind(t.database.db, 'mau_percent')).not.toContain(
      owner.organizationId,
    );

    const admin = await joinOrganization(
      t,
      `payg-admin-${owners}@usage-alerts.example.com`,
      owner.organizationId,
      'portal.admin',
    );
    expect(await notices(owner.cookie)).toHaveLength(2);
    expect(await notices(admin.cookie)).toEqual([]);
  });

  it('notices nothing for an organisation without users, and mails no one twice across repeated checks', async () => {
    const owner = await newOwner('quiet');
    await setContract(owner.organizationId, FLAT_RATE);
    expect(await check(owner.organizationId)).toEqual({ noticed: 0 });
    expect(await notices(owner.cookie)).toEqual([]);
    expect(
      (await mailsTo(t.app, owner.email)).filter((mail) => mail.subject.includes('usage alert')),
    ).toEqual([]);
  });
});
