import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import {
  AUDIT_LOG_RETENTION_QUEUE,
  applyAuditLogRetention,
  scheduleAuditLogRetention,
} from '../src/modules/audit-log/audit-log.jobs.ts';
import { jobIdOf } from '../src/plugins/job-queue.ts';
import { until } from '../scale/until.ts';
import { jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

/*
 * The audit log keeps an entry AUDIT_LOG_RETENTION_DAYS (400 unless set); a daily job deletes older
 * ones, in every organisation, and nothing else.
 */
const t = useTestApp({ AUDIT_LOG_RETENTION_DAYS: '30' });
const DAY_MS = 24 * 60 * 60_000;

const organizations: string[] = [];

/** Entries written straight to the table at the given ages, as the log would have recorded them then. */
async function entriesAged(organizationId: string, ageDays: number[], now: Date) {
  const rows = await t.database.db
    .insert(schema.auditLogEntry)
    .values(
      ageDays.map((age) => ({
        organizationId,
        createdAt: new Date(now.getTime() - age * DAY_MS),
        actorKind: 'system' as const,
        action: 'account.made_inactive' as const,
        actionGroup: 'account' as const,
        targetType: 'organization' as const,
        targetId: organizationId,
        targetName: `${age} days old`,
        changes: {},
      })),
    )
    .returning({ id: schema.auditLogEntry.id });
  return rows.map((row) => row.id);
}

/** The names of the entries `entriesAged` wrote that are left (the organisation's own, such as its founder joining, are not counted). */
async function remainingNames(organizationId: string) {
  const rows = await t.database.db
    .select({ name: schema.auditLogEntry.targetName })
    .from(schema.auditLogEntry)
    .where(
      and(
        eq(schema.auditLogEntry.organizationId, organizationId),
        eq(schema.auditLogEntry.action, 'account.made_inactive'),
        eq(schema.auditLogEntry.actorKind, 'system'),
      ),
    );
  return rows.map((row) => row.name).sort();
}

/** Waits for the retention run of the given day (its job) to complete. */
async function untilRunCompleted(day: Date) {
  const jobId = jobIdOf(AUDIT_LOG_RETENTION_QUEUE, day.toISOString().slice(0, 10));
  await until('the retention run completed', 60_000, async () => {
    const job = await t.app.jobQueue.boss.getJobById(AUDIT_LOG_RETENTION_QUEUE, jobId, { includeArchive: true });
    expect(job?.state).not.toBe('failed');
    return job?.state === 'completed';
  });
}

beforeAll(async () => {
  for (const email of ['owner@retention.example.com', 'owner@retention-other.example.com']) {
    const cookie = await setUpOrganization(t.app, email);
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    organizations.push((me.json() as { organizationId: string }).organizationId);
  }
  // The server sent today's run when it started; once it is done, only the tests' runs delete.
  await untilRunCompleted(new Date());
});

describe('the audit log retention', () => {
  it('keeps entries 400 days unless configured otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).auditLogRetentionDays).toBe(400);
    expect(t.config.auditLogRetentionDays).toBe(30);
    expect(() => loadConfig({ NODE_ENV: 'test', AUDIT_LOG_RETENTION_DAYS: '0' })).toThrow(/AUDIT_LOG_RETENTION_DAYS/);
  });

  it('deletes the entries older than the retention period in every organisation, and no others', async () => {
    const now = new Date();
    for (const organizationId of organizations) await entriesAged(organizationId, [1, 29, 31, 400], now);
    const { deleted } = await applyAuditLogRetention({ db: t.database.db, retentionDays: 30, now: () => now });
    expect(deleted).toBe(4);
    for (const organizationId of organizations)
      expect(await remainingNames(organizationId)).toEqual(['1 days old', '29 days old']);
    const again = await applyAuditLogRetention({ db: t.database.db, retentionDays: 30, now: () => now });
    expect(again.deleted).toBe(0);
  });

  it('runs as the day’s job, sent once however often the day’s run is asked for', async () => {
    const [organizationId] = organizations;
    await entriesAged(organizationId!, [45], new Date());
    // Tomorrow's run: today's was sent when the server started, before these entries existed.
    const tomorrow = new Date(Date.now() + DAY_MS);
    await scheduleAuditLogRetention(t.app.jobQueue, tomorrow);
    await scheduleAuditLogRetention(t.app.jobQueue, tomorrow);
    await untilRunCompleted(tomorrow);
    expect(await remainingNames(organizationId!)).toEqual(['1 days old', '29 days old']);
    const jobs = await t.app.jobQueue.boss.fetch(AUDIT_LOG_RETENTION_QUEUE);
    expect(jobs).toEqual([]);
  });
});
