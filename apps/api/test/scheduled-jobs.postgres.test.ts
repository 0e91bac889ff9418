import { setTimeout } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimitCounter } from '../src/db/schema.ts';
import { EMAIL_DOMAIN_CHECK_QUEUE, scheduleEmailDomainRecheck } from '../src/modules/sso/sso.jobs.ts';
import { RATE_LIMIT_COUNTERS_CLEANUP_QUEUE } from '../src/plugins/rate-limits.ts';
import { usePortalInstances } from './instances.ts';

/*
 * Two instances on one PostgreSQL database, each running every schedule (here each second): every
 * scheduled job is sent by both, and must still be one job per due time, worked once by one of them.
 */
const instances = usePortalInstances(2, () => ({ BILLING_SCHEDULE_SECONDS: '1' }));

interface JobRow {
  id: string;
  state: string;
  retryCount: number;
  data: Record<string, unknown>;
}

async function jobsOf(queue: string): Promise<JobRow[]> {
  const result = await instances[0]!.database.pool!.query<JobRow>(
    `SELECT id, state, retry_count AS "retryCount", data FROM pgboss.job WHERE name = $1
     UNION ALL SELECT id, state, retry_count, data FROM pgboss.archive WHERE name = $1`,
    [queue],
  );
  return result.rows;
}

/** Polls the database until `done` holds; the schedules' ticks are the events waited for. */
async function until(done: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await setTimeout(100);
  }
}

describe('scheduled jobs across two instances', () => {
  it("removes ended rate-limit counters once per slot, though both instances' schedules send it", async () => {
    const db = instances[0]!.database.db;
    await db
      .insert(rateLimitCounter)
      .values({ key: 'ended', hits: 3, windowEndsAt: sql`now() - interval '1 minute'` });
    const completed = async () =>
      (await jobsOf(RATE_LIMIT_COUNTERS_CLEANUP_QUEUE)).filter((job) => job.state === 'completed');
    await until(async () => (await completed()).length >= 4, 'four cleanups');

    const jobs = await jobsOf(RATE_LIMIT_COUNTERS_CLEANUP_QUEUE);
    const slots = jobs.map((job) => job.data.slot);
    expect(new Set(slots).size).toBe(jobs.length);
    expect(jobs.filter((job) => job.state === 'completed').every((job) => job.retryCount === 0)).toBe(true);
    expect(await db.select().from(rateLimitCounter)).toEqual([]);
  });

  it("imports the day's usage once, though both instances' schedules ask for it every second", async () => {
    await until(
      async () => (await jobsOf('import-usage')).some((job) => job.state === 'completed'),
      "the day's usage import",
    );
    // Both schedules have asked again since: still the one job, worked once.
    const cleanups = (await jobsOf(RATE_LIMIT_COUNTERS_CLEANUP_QUEUE)).length;
    await until(
      async () => (await jobsOf(RATE_LIMIT_COUNTERS_CLEANUP_QUEUE)).length >= cleanups + 2,
      'two more schedule rounds',
    );
    const imports = await jobsOf('import-usage');
    expect(imports).toHaveLength(1);
    expect(imports[0]).toMatchObject({ state: 'completed', retryCount: 0 });
  });

  it("re-checks the SSO email domains once an hour, however often both instances' schedules send it", async () => {
    const now = new Date();
    await Promise.all(
      instances.flatMap((instance) =>
        Array.from({ length: 3 }, () => scheduleEmailDomainRecheck(instance.app.jobQueue, now)),
      ),
    );
    await until(
      async () => (await jobsOf(EMAIL_DOMAIN_CHECK_QUEUE)).some((job) => job.state === 'completed'),
      'the SSO re-check',
    );
    const checks = await jobsOf(EMAIL_DOMAIN_CHECK_QUEUE);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ state: 'completed', retryCount: 0 });
  });
});
