import { count, desc, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/** A page's row with the list's total beside its own columns, as the page's query reads it. */
export type WithListTotal<Row> = Row & { listTotal: number };

/**
 * A list answer: the page of rows a query reads, and how many rows of `table` match `where` in all,
 * in one statement. `page` runs the page's query with `listTotalOf(…)` among its columns as
 * `listTotal`: a subquery that does not refer to the page's rows, so PostgreSQL runs it once per
 * statement and the page keeps its own plan (an index walk that stops at the limit). One statement
 * instead of two saves a round trip on PostgreSQL and most of a statement's cost on PGlite. The
 * page's query must filter by the same `where`. Only an empty page (nothing matches, or an offset
 * past the end) carries no total; the count is read on its own then.
 */
export async function listPage<Row>(
  executor: Executor,
  table: PgTable,
  where: SQL | undefined,
  page: () => PromiseLike<WithListTotal<Row>[]>,
): Promise<{ rows: Row[]; total: number }> {
  const rowsWithTotal = await page();
  const [first] = rowsWithTotal;
  if (!first) {
    const [totalRow] = await countMatching(executor, table, where);
    return { rows: [], total: totalRow?.total ?? 0 };
  }
  return {
    rows: rowsWithTotal.map(({ listTotal: _total, ...row }) => row as Row),
    total: first.listTotal,
  };
}

function countMatching(executor: Executor, table: PgTable, where: SQL | undefined) {
  return executor.select({ total: count() }).from(table).where(where);
}

/** The `listTotal` column of a page's query: how many rows of `table` match `where`. */
export function listTotalOf(executor: Executor, table: PgTable, where: SQL | undefined): SQL<number> {
  return sql<number>`${countMatching(executor, table, where)}`.mapWith(Number);
}

const preparedQueries = new WeakMap<Executor, Map<string, unknown>>();

/**
 * A query `prepare` builds once per executor, under `name` (on PostgreSQL a statement each
 * connection prepares once): the lists every signed-in page asks for spent a fifth of their CPU in
 * Drizzle building the same SQL again. Its values come as placeholders when it runs.
 */
export function preparedOnce<Prepared>(
  executor: Executor,
  name: string,
  prepare: (name: string) => Prepared,
): Prepared {
  let byName = preparedQueries.get(executor);
  if (!byName) {
    byName = new Map();
    preparedQueries.set(executor, byName);
  }
  if (!byName.has(name)) byName.set(name, prepare(name));
  return byName.get(name) as Prepared;
}

/** The newest rows of `table` matching `where` (ties broken by id), and how many match in all. */
export function newestFirstPage<T extends NewestFirstTable>(
  executor: Executor,
  table: T,
  where: SQL | undefined,
  limit: number,
) {
  return listPage<T['$inferSelect']>(
    executor,
    table,
    where,
    () => newestFirstQuery(executor, table, where, limit) as PromiseLike<WithListTotal<T['$inferSelect']>[]>,
  );
}

type NewestFirstTable = PgTable & { createdAt: AnyPgColumn; id: AnyPgColumn };

/** The query of a newest-first page with its total, for newestFirstPage or to prepare with placeholders. */
export function newestFirstQuery<T extends NewestFirstTable>(
  executor: Executor,
  table: T,
  where: SQL | undefined,
  limit: number | Placeholder,
) {
  return wholeRowsPage(executor, table, listTotalOf(executor, table, where))
    .where(where)
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(limit);
}

/**
 * The select of every column of `table` and the list's total, for a page of whole rows. Drizzle
 * cannot follow a table given as a type parameter through select(); the callers' casts say what
 * it reads.
 */
export function wholeRowsPage<T extends PgTable>(executor: Executor, table: T, listTotal: SQL<number>) {
  return executor.select({ ...getTableColumns(table), listTotal }).from(table as PgTable);
}
