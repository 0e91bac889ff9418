import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
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
