import { count, desc, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/** A page's row with the list's total beside its own columns, as the page's query reads it. */
export type WithListTotal<Row> = Row & { listTotal: number };

/**
 * A list answer: the page of rows a query reads, and how many rows of `table` match `where` in all,
 * in one statement. `page` builds the page's query with `listTotal` among its columns: a subquery
 * that does not refer to the page's rows, so PostgreSQL runs it once per statement and the page
 * keeps its own plan (an index walk that stops at the limit). One statement instead of two saves a
 * round trip on PostgreSQL and most of a statement's cost on PGlite. The page's query must filter
 * by the same `where`. Only an empty page (nothing matches, or an offset past the end) carries no
 * total; the count is read on its own then.
 */
export async function listPage<Row>(
  executor: Executor,
  table: PgTable,
  where: SQL | undefined,
  page: (listTotal: SQL<number>) => PromiseLike<WithListTotal<Row>[]>,
): Promise<{ rows: Row[]; total: number }> {
  const countMatching = () => executor.select({ total: count() }).from(table).where(where);
  const rowsWithTotal = await page(sql<number>`${countMatching()}`.mapWith(Number));
  const [first] = rowsWithTotal;
  if (!first) {
    const [totalRow] = await countMatching();
    return { rows: [], total: totalRow?.total ?? 0 };
  }
  return {
    rows: rowsWithTotal.map(({ listTotal: _total, ...row }) => row as Row),
    total: first.listTotal,
  };
}

/** The newest rows of `table` matching `where` (ties broken by id), and how many match in all. */
export function newestFirstPage<T extends PgTable & { createdAt: AnyPgColumn; id: AnyPgColumn }>(
  executor: Executor,
  table: T,
  where: SQL | undefined,
  limit: number,
) {
  return listPage<T['$inferSelect']>(
    executor,
    table,
    where,
    (listTotal) =>
      wholeRowsPage(executor, table, listTotal)
        .where(where)
        .orderBy(desc(table.createdAt), desc(table.id))
        .limit(limit) as PromiseLike<WithListTotal<T['$inferSelect']>[]>,
  );
}

/**
 * The select of every column of `table` and the list's total, for a page of whole rows. Drizzle
 * cannot follow a table given as a type parameter through select(); the callers' casts say what
 * it reads.
 */
export function wholeRowsPage<T extends PgTable>(executor: Executor, table: T, listTotal: SQL<number>) {
  return executor.select({ ...getTableColumns(table), listTotal }).from(table as PgTable);
}
