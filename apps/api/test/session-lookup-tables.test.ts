import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../src/db/client.ts';
import { SESSION_CHANGES_CHANNEL, SESSION_LOOKUP_TABLES } from '../src/db/session-changes.ts';
import { useTestApp } from './helper.ts';

/**
 * The kept session answers (decision 027) are good only while every table the session lookup reads
 * reports its writes. The list of those tables is `SESSION_LOOKUP_TABLES`; these tests hold the
 * lookup function and the change-notice triggers, as the migrations left them in the database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL), to that list.
 */
const t = useTestApp();

/** AFTER … FOR EACH STATEMENT on INSERT, DELETE, UPDATE and TRUNCATE, in pg_trigger.tgtype's bits. */
const EVERY_WRITE_PER_STATEMENT = 4 | 8 | 16 | 32;

async function rowsOf<Row>(executor: Executor, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** The tables a function's body reads (`FROM` or `JOIN`, quoted or bare, with or without the schema). */
function tablesReadBy(body: string): string[] {
  const named = [...body.matchAll(/\b(?:from|join)\s+(?:"?public"?\.)?"?(\w+)"?/gi)].map(
    ([, table]) => table!,
  );
  return [...new Set(named)].sort();
}

/** What the database says about the session lookup and the notices of changes to what it reads. */
async function sessionLookupInDatabase(executor: Executor) {
  const [lookup] = await rowsOf<{ body: string }>(
    executor,
    sql`SELECT prosrc AS body FROM pg_proc WHERE proname = 'portal_session_lookup'`,
  );
  const [notify] = await rowsOf<{ body: string }>(
    executor,
    sql`SELECT prosrc AS body FROM pg_proc WHERE proname = 'portal_notify_session_change'`,
  );
  const triggers = await rowsOf<{ table: string; type: number; enabled: string }>(
    executor,
    sql`SELECT c.relname AS table, t.tgtype::int AS type, t.tgenabled AS enabled
        FROM pg_trigger t
        JOIN pg_class c ON c.oid = t.tgrelid
        JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE p.proname = 'portal_notify_session_change' AND NOT t.tgisinternal
        ORDER BY c.relname`,
  );
  return {
    tablesRead: tablesReadBy(lookup!.body),
    notifyBody: notify!.body,
    triggers,
    tablesWithTrigger: triggers.map((trigger) => trigger.table),
  };
}

const listed: string[] = [...SESSION_LOOKUP_TABLES].sort();

describe('the tables the session lookup reads', () => {
  it('are the listed ones, as the lookup function reads them', async () => {
    expect((await sessionLookupInDatabase(t.database.db)).tablesRead).toEqual(listed);
  });

  it('each report every write, per statement after it, on the session changes channel, and no other table does', async () => {
    const { triggers, tablesWithTrigger, notifyBody } = await sessionLookupInDatabase(t.database.db);
    expect(tablesWithTrigger).toEqual(listed);
    for (const trigger of triggers) {
      expect(trigger.type, trigger.table).toBe(EVERY_WRITE_PER_STATEMENT);
      // `O`: fires in the ordinary (origin) replication role, which is the portal's.
      expect(trigger.enabled, trigger.table).toBe('O');
    }
    expect(notifyBody).toContain(`pg_notify('${SESSION_CHANGES_CHANNEL}'`);
  });

  it("point their foreign keys only at one another, so no other table's delete cascades into them unreported", async () => {
    const keys = await rowsOf<{ from: string; to: string }>(
      t.database.db,
      sql`SELECT c.relname AS from, r.relname AS to
          FROM pg_constraint k
          JOIN pg_class c ON c.oid = k.conrelid
          JOIN pg_class r ON r.oid = k.confrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE k.contype = 'f' AND n.nspname = 'public'`,
    );
    const outside = keys.filter((key) => listed.includes(key.from) && !listed.includes(key.to));
    expect(outside).toEqual([]);
  });

  // The checks above read the database, not the migrations' text: a lookup that starts reading
  // another table, a trigger dropped or one added elsewhere is seen. The changes are rolled back.
  it('are seen to differ when the lookup reads a table without a trigger, or a trigger is dropped or added', async () => {
    let changed: Awaited<ReturnType<typeof sessionLookupInDatabase>> | undefined;
    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`CREATE OR REPLACE FUNCTION portal_session_lookup(lookup_token text, lookup_id text)
          RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
          BEGIN
            RETURN (SELECT to_jsonb(s) FROM session s JOIN "user" u ON u.id = s.user_id
              LEFT JOIN "application" a ON false WHERE s.token = lookup_token LIMIT 1);
          END $$`);
        await tx.execute(sql`DROP TRIGGER account_change_notice ON "account"`);
        await tx.execute(sql`CREATE TRIGGER application_change_notice AFTER INSERT ON "application"
          FOR EACH STATEMENT EXECUTE FUNCTION portal_notify_session_change()`);
        changed = await sessionLookupInDatabase(tx);
        tx.rollback();
      }),
    ).rejects.toThrow();
    expect(changed!.tablesRead).toEqual(['application', 'session', 'user']);
    expect(changed!.tablesWithTrigger).toEqual(['application', 'member', 'organization', 'session', 'user']);
    expect(changed!.triggers.find((trigger) => trigger.table === 'application')!.type).toBe(4);

    const restored = await sessionLookupInDatabase(t.database.db);
    expect(restored.tablesRead).toEqual(listed);
    expect(restored.tablesWithTrigger).toEqual(listed);
  });
});
