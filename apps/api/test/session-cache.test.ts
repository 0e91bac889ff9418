import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Account } from '@portal/contracts';
import * as schema from '../src/db/schema.ts';
import { expectApiError, jsonRequest, setUpOrganization, useTestApp, type TestApp } from './helper.ts';
import { databaseUrlOf, keptSessions } from './session-cache-support.ts';

/**
 * The session check keeps the session lookup's answers (decision 027); these tests hold it to
 * "a change is seen at the next request" on whichever database the suite runs on.
 */
const t: TestApp = useTestApp();
let owner: string;

const { me, lookupsDuring, untilKept, keptMember, userIdOf } = keptSessions(t);
const memberOf = (email: string) => keptMember(owner, email);

beforeAll(async () => {
  owner = await setUpOrganization(t.app, 'owner@cache.example.com');
});

afterEach(() => vi.restoreAllMocks());

describe('the kept session answers', () => {
  it('answer a repeated check without asking the database', async () => {
    await untilKept(owner);
    expect(await lookupsDuring(() => me(owner))).toBe(0);
    expect((await me(owner)).statusCode).toBe(200);
  });

  it('are forgotten when a member is deleted: the next request is refused', async () => {
    const leaver = await memberOf('leaver@cache.example.com');
    expect(
      (await t.app.inject(jsonRequest('DELETE', `/api/v1/members/${leaver.memberId}`, undefined, owner)))
        .statusCode,
    ).toBe(204);
    expectApiError(await me(leaver.cookie), 401, 'UNAUTHORIZED');
  });

  it('are forgotten at sign-out', async () => {
    const member = await memberOf('signout@cache.example.com');
    expect(
      (await t.app.inject(jsonRequest('POST', '/api/auth/sign-out', {}, member.cookie))).statusCode,
    ).toBe(200);
    expectApiError(await me(member.cookie), 401, 'UNAUTHORIZED');
  });

  it('show a new role at the next request', async () => {
    const member = await memberOf('promoted@cache.example.com');
    const promoted = await t.app.inject(
      jsonRequest(
        'PUT',
        `/api/v1/members/${member.memberId}`,
        { displayName: 'Promoted', roleIds: ['portal.admin'] },
        owner,
      ),
    );
    expect(promoted.statusCode).toBe(200);
    expect(((await me(member.cookie)).json() as Account).roles).toEqual([{ id: 'portal.admin' }]);
  });

  it("show the organisation's new settings at the next request", async () => {
    const member = await memberOf('billing@cache.example.com');
    await t.database.db
      .update(schema.organization)
      .set({ name: 'Renamed Co' })
      .where(sql`true`);
    expect(((await me(member.cookie)).json() as Account).organization).toBe('Renamed Co');
  });

  it('are forgotten when a session is ended by a write straight to the database', async () => {
    const member = await memberOf('expired@cache.example.com');
    await t.database.db
      .update(schema.session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.session.userId, await userIdOf('expired@cache.example.com')));
    expectApiError(await me(member.cookie), 401, 'UNAUTHORIZED');
  });

  it('are not used past the end of the session', async () => {
    const member = await memberOf('clock@cache.example.com');
    const [session] = await t.database.db
      .select({ expiresAt: schema.session.expiresAt })
      .from(schema.session)
      .where(eq(schema.session.userId, await userIdOf('clock@cache.example.com')));
    const end = session!.expiresAt.getTime();
    vi.spyOn(Date, 'now').mockReturnValue(end + 1);
    // The clock says the session is over: the kept answer is not used, and the database agrees.
    expect(await lookupsDuring(() => me(member.cookie))).toBe(1);
  });

  it("are forgotten when another connection ends a session (another server's write)", async () => {
    const member = await memberOf('elsewhere@cache.example.com');
    const userId = await userIdOf('elsewhere@cache.example.com');
    await writeFromAnotherConnection(`DELETE FROM "session" WHERE user_id = $1`, [userId]);
    if (t.database.pglite) {
      // PGlite hands the notice over before the write returns.
      expectApiError(await me(member.cookie), 401, 'UNAUTHORIZED');
    } else {
      // PostgreSQL sends it on the listening connection: within moments, not at once.
      await expect
        .poll(async () => (await me(member.cookie)).statusCode, { timeout: 5000, interval: 10 })
        .toBe(401);
    }
  });
});

/** A write that passes neither the API nor its connection pool: PGlite directly, or a connection of its own. */
async function writeFromAnotherConnection(text: string, values: unknown[]) {
  if (t.database.pglite) {
    await t.database.pglite.query(text, values);
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrlOf(t.database.pool!) });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}
