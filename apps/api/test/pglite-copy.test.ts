import { PGlite } from '@electric-sql/pglite';
import { expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { migratedPgliteCopy } from './pglite-copy.ts';

const rows = async (database: Database, text: string) => (await database.pglite!.query(text)).rows;
const APPLIED_MIGRATIONS = 'select count(*)::int as count from drizzle.__drizzle_migrations';

it('opens an embedded database as a copy of another, rows and applied migrations included', async () => {
  const original = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
  try {
    await original.pglite!.exec(
      "create table copy_marker (note text); insert into copy_marker values ('written before the copy')",
    );
    const copy = await openDatabase({
      databaseUrl: undefined,
      dataDir: 'memory://',
      pgliteCopy: await original.pglite!.dumpDataDir('none'),
    });
    try {
      expect(await rows(copy, 'select note from copy_marker')).toEqual([{ note: 'written before the copy' }]);
      expect(await rows(copy, APPLIED_MIGRATIONS)).toEqual(await rows(original, APPLIED_MIGRATIONS));
    } finally {
      await copy.close();
    }
  } finally {
    await original.close();
  }
});

if (process.env.TEST_DATABASE_URL)
  it('gives no copy when the files have scratch databases on a PostgreSQL server', () => {
    expect(migratedPgliteCopy()).toBeUndefined();
  });
else
  it("gives this suite's files a copy of a migrated database", async () => {
    // Opened as it is, without openDatabase's migrations: the copy itself holds them all.
    const copy = new PGlite({ loadDataDir: migratedPgliteCopy() });
    const database = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
    try {
      expect((await copy.query(APPLIED_MIGRATIONS)).rows).toEqual(await rows(database, APPLIED_MIGRATIONS));
      expect(await rows(database, APPLIED_MIGRATIONS)).not.toEqual([{ count: 0 }]);
    } finally {
      await copy.close();
      await database.close();
    }
  });
