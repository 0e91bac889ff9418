import { eq, getTableColumns, isTable, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, openDatabase, type Database } from './client.ts';
import { listPage, listTotalOf, newestFirstPage, wholeRowsPage, type WithListTotal } from './list-page.ts';
import * as schema from './schema.ts';

type OrganizationRow = typeof schema.organization.$inferSelect;

describe('the schema, as the embedded database reads it for the query builder', () => {
  // On PGlite the query builder gets PostgreSQL's dates as PGlite parses them (db/client.ts): a
  // Date for timestamptz, which Drizzle's timestamp column takes as it is. These column kinds
  // would be read differently from PostgreSQL's text and must not appear until that is handled.
  it('has only time-zoned timestamps read as dates among its date and time columns', () => {
    const unsupported: string[] = [];
    for (const [tableName, table] of Object.entries(schema)) {
      if (!isTable(table)) continue;
      for (const column of Object.values(getTableColumns(table)) as PgColumn[]) {
        const { columnType } = column;
        const withTimezone = (column as PgColumn & { withTimezone?: boolean }).withTimezone;
        const dateOrTime = /Date|Time|Interval/.test(columnType);
        if (dateOrTime && !(columnType === 'PgTimestamp' && withTimezone)) {
          unsupported.push(`${tableName}.${column.name} (${columnType})`);
        }
      }
    }
    expect(unsupported).toEqual([]);
  });
});

describe('the embedded database (PGlite)', () => {
  let database: Database;
  const organizationId = crypto.randomUUID();

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: undefined, dataDir: 'memory://' });
  }, 60_000);
  afterAll(async () => database?.close());

  it('gives the query builder timestamps as the instants written, outside and inside a transaction', async () => {
    const trialEndAt = new Date('2026-03-04T05:06:07.891Z');
    await database.db
      .insert(schema.organization)
      .values({ id: organizationId, email: 'a@acme.io', trialEndAt });
    const read = async () =>
      (
        await database.db.select().from(schema.organization).where(eq(schema.organization.id, organizationId))
      )[0];
    expect((await read())?.trialEndAt?.toISOString()).toBe(trialEndAt.toISOString());

    const inTransaction = await database.db.transaction(async (tx) => {
      const later = new Date('2027-01-02T03:04:05.678Z');
      await tx
        .update(schema.organization)
        .set({ trialEndAt: later })
        .where(eq(schema.organization.id, organizationId));
      const [row] = await tx
        .select()
        .from(schema.organization)
        .where(eq(schema.organization.id, organizationId));
      return row?.trialEndAt;
    });
    expect(inTransaction?.toISOString()).toBe('2027-01-02T03:04:05.678Z');
    expect((await read())?.createdAt).toBeInstanceOf(Date);
  });

  it('rolls a failed transaction back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx
          .update(schema.organization)
          .set({ name: 'Renamed' })
          .where(eq(schema.organization.id, organizationId));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    const [row] = await database.db
      .select({ name: schema.organization.name })
      .from(schema.organization)
      .where(eq(schema.organization.id, organizationId));
    expect(row?.name).toBe('');
  });

  it('reads a page and the total of the rows that match in one answer, and the total past the end', async () => {
    const other = crypto.randomUUID();
    await database.db.insert(schema.organization).values({ id: other, email: 'b@acme.io' });
    const started = Date.parse('2026-01-01T00:00:00Z');
    await database.db.insert(schema.application).values(
      Array.from({ length: 5 }, (_, index) => ({
        id: crypto.randomUUID(),
        organizationId: index < 3 ? organizationId : other,
        name: `App ${index}`,
        plan: 'advance' as const,
        region: 'EU' as const,
        createdAt: new Date(started + index * 1000),
      })),
    );

    const inOrganization = eq(schema.application.organizationId, organizationId);
    const page = await newestFirstPage(database.db, schema.application, inOrganization, 2);
    expect(page.total).toBe(3);
    expect(page.rows.map((row) => row.name)).toEqual(['App 2', 'App 1']);
    expect(page.rows[0]).not.toHaveProperty('listTotal');
    expect(page.rows[0]?.createdAt).toEqual(new Date(started + 2000));

    const nothing = await newestFirstPage(database.db, schema.application, sql`false`, 10);
    expect(nothing).toEqual({ rows: [], total: 0 });

    const pastTheEnd = await listPage<OrganizationRow>(
      database.db,
      schema.organization,
      undefined,
      () =>
        wholeRowsPage(
          database.db,
          schema.organization,
          listTotalOf(database.db, schema.organization, undefined),
        )
          .orderBy(schema.organization.id)
          .limit(10)
          .offset(10) as PromiseLike<WithListTotal<OrganizationRow>[]>,
    );
    expect(pastTheEnd).toEqual({ rows: [], total: 2 });
  });
});

describe('telling a database that is away from a statement that failed', () => {
  /** An error as Drizzle and better-auth's adapter wrap the driver's: the driver's in `cause`. */
  const wrapped = (cause: object) => Object.assign(new Error('Failed query: select 1'), { cause });

  it.each([
    [
      'a fast shutdown ending the connection (57P01)',
      { code: '57P01', message: 'terminating connection due to administrator command' },
    ],
    ['a server starting up (57P03)', { code: '57P03', message: 'the database system is starting up' }],
    ['a server not listening', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['a connection lost under a query', new Error('Connection terminated unexpectedly')],
  ])('counts %s as the database being unavailable, however deeply wrapped', (_, cause) => {
    expect(isDatabaseUnavailable(cause)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(wrapped(cause)))).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505', message: 'duplicate key value violates unique constraint' }],
    ['a syntax error', { code: '42601', message: 'syntax error at or near "selec"' }],
    ['a bug', new Error('Cannot read properties of undefined')],
  ])('does not count %s', (_, cause) => {
    expect(isDatabaseUnavailable(wrapped(cause))).toBe(false);
  });
});
