import { count, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/**
 * A list answer: the page of rows a query reads, and how many rows of `table` match `where` in all,
 * read side by side. The page's query must filter by the same `where`.
 */
export async function listPage<Row>(
  executor: Executor,
  page: PromiseLike<Row[]>,
  table: PgTable,
  where: SQL | undefined,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, [totalRow]] = await Promise.all([
    page,
    executor.select({ total: count() }).from(table).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

/** The newest rows of `table` matching `where` (ties broken by id), and how many match in all. */
export function newestFirstPage<T extends PgTable & { createdAt: AnyPgColumn; id: AnyPgColumn }>(
  executor: Executor,
  table: T,
  where: SQL | undefined,
  limit: number,
) {
  // Drizzle cannot follow a table given as a type parameter through select(); the casts say what
  // select() of a table reads: its rows.
  const page = executor
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(limit) as PromiseLike<T['$inferSelect'][]>;
  return listPage(executor, page, table, where);
}
