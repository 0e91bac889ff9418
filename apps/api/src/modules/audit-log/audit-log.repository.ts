import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { auditLogEntry } from '../../db/schema.ts';

export type AuditLogEntryRow = typeof auditLogEntry.$inferSelect;
export type NewAuditLogEntryRow = Omit<typeof auditLogEntry.$inferInsert, 'id' | 'createdAt'>;

/**
 * The only write of an entry, given the transaction of the change it records: the entry commits
 * with the change or not at all. The log is append-only; nothing here updates an entry.
 */
export async function insertAuditLogEntry(tx: Tx, entry: NewAuditLogEntryRow) {
  await tx.insert(auditLogEntry).values(entry);
}

export interface AuditLogFilter {
  actorKind?: AuditLogEntryRow['actorKind'];
  actorMemberId?: string;
  actionGroup?: AuditLogEntryRow['actionGroup'];
  action?: AuditLogEntryRow['action'];
  targetType?: AuditLogEntryRow['targetType'];
  targetId?: string;
  from?: Date;
  to?: Date;
  /** Only entries older than this one (the last of the previous page), in the list's order. */
  before?: { createdAt: Date; id: number };
}

/** The organisation's entries that match: the list's and the export's `where`. */
function auditLogWhere(organizationId: string, filter: AuditLogFilter): SQL | undefined {
  return and(
    eq(auditLogEntry.organizationId, organizationId),
    filter.actorKind && eq(auditLogEntry.actorKind, filter.actorKind),
    filter.actorMemberId !== undefined ? eq(auditLogEntry.actorMemberId, filter.actorMemberId) : undefined,
    filter.actionGroup && eq(auditLogEntry.actionGroup, filter.actionGroup),
    filter.action && eq(auditLogEntry.action, filter.action),
    filter.targetType && eq(auditLogEntry.targetType, filter.targetType),
    filter.targetId !== undefined ? eq(auditLogEntry.targetId, filter.targetId) : undefined,
    filter.from && gte(auditLogEntry.createdAt, filter.from),
    filter.to && lt(auditLogEntry.createdAt, filter.to),
    // A row comparison, which PostgreSQL reads as one bound of the (time, id) index range.
    filter.before &&
      sql`(${auditLogEntry.createdAt}, ${auditLogEntry.id}) < (${filter.before.createdAt.toISOString()}::timestamptz, ${filter.before.id})`,
  );
}

/**
 * Newest first. NULLS LAST as the indexes are built (both columns are NOT NULL, but the planner goes
 * by the words): a plain DESC means NULLS FIRST, which no index serves, and every page would sort the
 * organisation's whole log.
 */
const NEWEST_FIRST = sql`${auditLogEntry.createdAt} DESC NULLS LAST, ${auditLogEntry.id} DESC NULLS LAST`;

/**
 * Up to `count` of the organisation's entries that match, newest first: a page of the list (asked
 * for one more than it shows, to know whether another follows) or a batch of the export. No total:
 * counting a million entries would cost more than the page.
 */
export function listAuditLogEntries(executor: Executor, organizationId: string, filter: AuditLogFilter, count: number) {
  return executor
    .select()
    .from(auditLogEntry)
    .where(auditLogWhere(organizationId, filter))
    .orderBy(NEWEST_FIRST)
    .limit(count);
}

/** How the database writes each entry of a batch as text, and whether it wrote it exactly. */
export interface AuditLogEntryText {
  /** An entry's text, of the columns of `audit_log_entry` (and of `from`). */
  text: SQL;
  /** A lateral join the expressions read, e.g. of the entry's changes. */
  from: SQL;
  /** True where `text` is what the application would have written for the entry. */
  exact: SQL;
}

export interface AuditLogTextBatch {
  /** The entries' texts joined, newest first; empty when no entry matched. */
  text: string;
  entries: number;
  /** Whether every entry's text is exact; when not, the caller writes this batch itself. */
  exact: boolean;
  /** The batch's last (oldest) entry, below which the next batch starts. */
  last?: { createdAt: Date; id: number };
}

/**
 * The same entries as `listAuditLogEntries`, each written as text by the database and joined into
 * one string: one row of one column for the whole batch, so the driver builds no object per entry.
 */
export async function readAuditLogTextBatch(
  executor: Executor,
  organizationId: string,
  filter: AuditLogFilter,
  count: number,
  entryText: AuditLogEntryText,
): Promise<AuditLogTextBatch> {
  const result = await executor.execute(sql`
    WITH batch AS (
      SELECT ${auditLogEntry.createdAt} AS created_at, ${auditLogEntry.id} AS id,
        ${entryText.text} AS text, ${entryText.exact} AS exact
      FROM ${auditLogEntry} ${entryText.from}
      WHERE ${auditLogWhere(organizationId, filter)}
      ORDER BY ${NEWEST_FIRST}
      LIMIT ${count}
    )
    SELECT coalesce(string_agg(text, '' ORDER BY created_at DESC, id DESC), '') AS text,
      count(*)::int AS entries,
      coalesce(bool_and(exact), true) AS exact,
      to_char(min(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_created_at,
      (array_agg(id ORDER BY created_at, id))[1]::text AS last_id
    FROM batch`);
  const [row] = (result as unknown as { rows: BatchRow[] }).rows;
  if (!row) throw new Error('An aggregate answered no row.');
  return {
    text: row.text,
    entries: row.entries,
    exact: row.exact,
    last:
      row.last_created_at === null || row.last_id === null
        ? undefined
        : { createdAt: new Date(row.last_created_at), id: Number(row.last_id) },
  };
}

interface BatchRow {
  text: string;
  entries: number;
  exact: boolean;
  last_created_at: string | null;
  last_id: string | null;
}

/**
 * Deletes up to `batch` entries older than `cutoff`, of every organisation (the retention job, the
 * log's only delete); answers how many it deleted. Batches keep each transaction short.
 */
export async function deleteAuditLogEntriesBefore(executor: Executor, cutoff: Date, batch: number) {
  const deleted = await executor
    .delete(auditLogEntry)
    .where(
      sql`${auditLogEntry.id} IN (SELECT ${auditLogEntry.id} FROM ${auditLogEntry} WHERE ${auditLogEntry.createdAt} < ${cutoff.toISOString()}::timestamptz LIMIT ${batch})`,
    )
    .returning({ id: auditLogEntry.id });
  return deleted.length;
}
