import pg from 'pg';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpOrganization, useTestApp, type TestApp } from './helper.ts';
import { databaseUrlOf, keptSessions } from './session-cache-support.ts';

// The api project includes this file only when TEST_DATABASE_URL is set (vitest.config.ts).
const t: TestApp = useTestApp();
const { me, lookupsDuring, untilKept, keptMember, userIdOf } = keptSessions(t);
let owner: string;

beforeAll(async () => {
  owner = await setUpOrganization(t.app, 'owner@outage.example.com');
});

describe('the kept session answers on PostgreSQL, when the listening connection is lost', () => {
  it('are not kept until it listens again, so no change in between is missed', async () => {
    const member = await keptMember(owner, 'outage@outage.example.com');
    const admin = new pg.Client({ connectionString: databaseUrlOf(t.database.pool!) });
    await admin.connect();
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
      );
      // Until it is back, every check asks the database.
      await expect
        .poll(() => lookupsDuring(() => me(member.cookie)), { timeout: 5000, interval: 10 })
        .toBe(1);
      await untilKept(member.cookie);
      await admin.query(`DELETE FROM "session" WHERE user_id = $1`, [
        await userIdOf('outage@outage.example.com'),
      ]);
      await expect
        .poll(async () => (await me(member.cookie)).statusCode, { timeout: 5000, interval: 10 })
        .toBe(401);
    } finally {
      await admin.end();
    }
  });

  it("are kept through this server's writes to other tables, such as the job queue's", async () => {
    const member = await keptMember(owner, 'unrelated@outage.example.com');
    await t.database.pool!.query(`UPDATE "tax_rate" SET rate_percent = rate_percent`);
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE "application" SET name = name WHERE false`);
    });
    expect(await lookupsDuring(() => me(member.cookie))).toBe(0);
  });
});
