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

/**
 * Up to `count` of the organisation's entries that match, newest first: a page of the list (asked
 * for one more than it shows, to know whether another follows) or a batch of the export. No total:
 * counting a million entries would cost more than the page.
 */
export function listAuditLogEntries(executor: Executor, organizationId: string, filter: AuditLogFilter, count: number) {
  const conditions: (SQL | undefined)[] = [
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
  ];
  return executor
    .select()
    .from(auditLogEntry)
    .where(and(...conditions))
    // NULLS LAST as the indexes are built (both columns are NOT NULL, but the planner goes by the
    // words): a plain DESC means NULLS FIRST, which no index serves, and every page would sort the
    // organisation's whole log.
    .orderBy(sql`${auditLogEntry.createdAt} DESC NULLS LAST`, sql`${auditLogEntry.id} DESC NULLS LAST`)
    .limit(count);
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
