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

/** How the database writes an entry as text. */
export interface AuditLogEntryText {
  /** The entry's text, of the columns of `audit_log_entry` and of `from`; NULL where it cannot be exact. */
  text: SQL;
  /** A lateral join the text reads, e.g. of the entry's changes. */
  from: SQL;
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
 * The same entries as `listAuditLogEntries`, each written as text by the database: a row of one
 * text per entry (and its place in the order), which costs the driver far less than the entry's
 * columns. One string of the whole batch would cost the database more than the rows do: it spends
 * twice the time building and sending a value of a megabyte as 5,000 of 300 bytes.
 */
export async function readAuditLogTextBatch(
  executor: Executor,
  organizationId: string,
  filter: AuditLogFilter,
  count: number,
  entryText: AuditLogEntryText,
): Promise<AuditLogTextBatch> {
  const result = await executor.execute(sql`
    SELECT ${entryText.text} AS text,
      to_char(${auditLogEntry.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
      ${auditLogEntry.id}::text AS id
    FROM ${auditLogEntry} ${entryText.from}
    WHERE ${auditLogWhere(organizationId, filter)}
    ORDER BY ${NEWEST_FIRST}
    LIMIT ${count}`);
  const rows = (result as unknown as { rows: { text: string | null; created_at: string; id: string }[] }).rows;
  const texts = rows.map((row) => row.text);
  const last = rows.at(-1);
  return {
    text: texts.join(''),
    entries: rows.length,
    exact: !texts.includes(null),
    last: last && { createdAt: new Date(last.created_at), id: Number(last.id) },
  };
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
