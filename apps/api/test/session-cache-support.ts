import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { vi } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { joinByInvitation, jsonRequest, type TestApp } from './helper.ts';

/** What the tests of the kept session answers (decision 027) do with the portal of their file. */
export function keptSessions(t: TestApp) {
  const me = (cookie: string) => t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));

  /** Session lookups the next `call` makes. */
  async function lookupsDuring(call: () => Promise<unknown>): Promise<number> {
    const lookups = vi.spyOn(t.database, 'query');
    try {
      await call();
      return lookups.mock.calls.length;
    } finally {
      lookups.mockRestore();
    }
  }

  /**
   * Reads the account until an answer comes from the cache (on PostgreSQL the change feed goes live
   * once its listening connection is up), so that what follows tests a kept answer.
   */
  async function untilKept(cookie: string) {
    const giveUpAt = Date.now() + 10_000;
    for (;;) {
      await me(cookie);
      if ((await lookupsDuring(() => me(cookie))) === 0) return;
      if (Date.now() > giveUpAt) throw new Error('the session check never kept an answer');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A developer invited by `ownerCookie`, whose session's answer is kept. */
  async function keptMember(ownerCookie: string, email: string) {
    const member = await joinByInvitation(t.app, ownerCookie, email, 'portal.developer');
    await untilKept(member.cookie);
    return member;
  }

  async function userIdOf(email: string): Promise<string> {
    const [user] = await t.database.db
      .select({ id: schema.user.id })
      .from(schema.user)
      .where(eq(schema.user.email, email));
    if (!user) throw new Error(`no user ${email}`);
    return user.id;
  }

  return { me, lookupsDuring, untilKept, keptMember, userIdOf };
}

/** The address of the PostgreSQL database a pool connects to. */
export function databaseUrlOf(pool: pg.Pool): string {
  return (pool as unknown as { options: { connectionString: string } }).options.connectionString;
}
