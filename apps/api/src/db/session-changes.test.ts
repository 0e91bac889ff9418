import { describe, expect, it } from 'vitest';
import { SESSION_LOOKUP_TABLES, sessionChangeBy } from './session-changes.ts';

describe("which of this server's statements report a change to the session lookup's answers", () => {
  it('reports writes to the tables the lookup reads, quoted or bare, and not reads of them', () => {
    for (const text of [
      'delete from "session" where "session"."user_id" = $1',
      'update "member" set "role_id" = $1 where "member"."id" = $2',
      'insert into "account" ("id", "user_id") values ($1, $2)',
      'UPDATE organization SET name = $1',
      'delete from "public"."user" where "id" = $1',
      'with gone as (delete from "session" returning 1) select count(*) from gone',
    ]) {
      expect(sessionChangeBy(text, false), text).toEqual({ reports: true, wrote: true });
    }
    for (const table of SESSION_LOOKUP_TABLES) {
      expect(sessionChangeBy(`update "${table}" set "id" = "id"`, false), table).toEqual({
        reports: true,
        wrote: true,
      });
    }
    expect(sessionChangeBy('select * from "session" where "token" = $1', false)).toEqual({
      reports: false,
      wrote: false,
    });
  });

  it("leaves other tables' writes alone, the job queue's among them", () => {
    for (const text of [
      'insert into "member_application_scope" ("member_id", "application_id") values ($1, $2)',
      'update "application" set "state" = $1 where "id" = $2',
      'WITH next AS (SELECT id FROM pgboss.job WHERE name = $1 FOR UPDATE SKIP LOCKED) UPDATE pgboss.job j SET state = $2',
      'begin',
      'savepoint sp1',
    ]) {
      expect(sessionChangeBy(text, false), text).toEqual({ reports: false, wrote: false });
    }
  });

  it('reports the end of a transaction that wrote one of them, and only that one', () => {
    expect(sessionChangeBy('begin', true)).toEqual({ reports: false, wrote: false });
    let state = sessionChangeBy('update "member" set "display_name" = $1', false);
    state = sessionChangeBy('update "application" set "name" = $1', state.wrote);
    expect(state).toEqual({ reports: false, wrote: true });
    expect(sessionChangeBy('rollback to savepoint sp1', state.wrote)).toEqual({
      reports: false,
      wrote: true,
    });
    const commit = sessionChangeBy('commit', state.wrote);
    expect(commit).toEqual({ reports: true, wrote: false });
    expect(sessionChangeBy('rollback', commit.wrote)).toEqual({ reports: false, wrote: false });
  });
});
