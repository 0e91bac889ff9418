import type { AuditChanges } from '@portal/contracts';
import type { Executor } from '../../db/client.ts';
import { listAuditLogEntries, type AuditLogEntryRow, type AuditLogFilter } from './audit-log.repository.ts';

/**
 * Entries per read of the export. Each read is one bound of the list's index range, so the export
 * holds one batch in memory whatever the log's size, and no connection between batches.
 */
export const AUDIT_LOG_EXPORT_BATCH = 5_000;

/** The export's columns, in order: its header line. */
export const AUDIT_LOG_CSV_COLUMNS = [
  'time',
  'actor_kind',
  'actor_member_id',
  'actor_email',
  'action',
  'action_group',
  'target_type',
  'target_id',
  'target_name',
  'ip',
  'user_agent',
  'request_id',
  'changes',
] as const;

/**
 * Spreadsheets open a CSV file as ANSI unless it starts with the byte order mark; with it, names
 * and emails in any script read as written. Programs that read CSV skip it (or read the JSON list).
 */
export const CSV_BYTE_ORDER_MARK = '\uFEFF';
/** What a spreadsheet takes as the start of a formula (CWE-1236): such a cell is shown as text instead. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What RFC 4180 quotes a field for. */
const NEEDS_QUOTES = /[",\r\n]/;
const LINE_END = '\r\n';

/**
 * One field: empty for null; a leading apostrophe for a value a spreadsheet would run as a formula
 * (a target named `=HYPERLINK(…)` stays text); in double quotes, each doubled, when RFC 4180 asks.
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The changes as JSON, each field's `before` ahead of its `after` as in the list (jsonb keeps them the other way). */
function changesJson(changes: AuditChanges): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(changes).map(([field, { before, after }]) => [field, { before, after }])),
  );
}

function csvLine(row: AuditLogEntryRow): string {
  return (
    [
      row.createdAt.toISOString(),
      row.actorKind,
      row.actorMemberId,
      row.actorEmail,
      row.action,
      row.actionGroup,
      row.targetType,
      row.targetId,
      row.targetName,
      row.ip,
      row.userAgent,
      row.requestId,
      changesJson(row.changes),
    ]
      .map(csvField)
      .join(',') + LINE_END
  );
}

/**
 * The organisation's entries matching `filter` as CSV, newest first in the list's order: the byte
 * order mark and the header, then one chunk per batch of `batchSize` entries, each read below the
 * previous batch's last entry. The next batch is read while the current one is written, so the
 * database and the socket work side by side (two batches in memory at most). Read lazily: a consumer
 * that stops (the client went away) stops the reading after the batch in flight.
 */
export async function* auditLogCsv(
  executor: Executor,
  organizationId: string,
  filter: Omit<AuditLogFilter, 'before'>,
  batchSize = AUDIT_LOG_EXPORT_BATCH,
): AsyncGenerator<string> {
  yield CSV_BYTE_ORDER_MARK + AUDIT_LOG_CSV_COLUMNS.join(',') + LINE_END;
  // A promise of its own: drizzle's query runs anew each time its `then` is called.
  const batchBelow = async (before: AuditLogFilter['before']) =>
    listAuditLogEntries(executor, organizationId, { ...filter, before }, batchSize);
  let next: Promise<AuditLogEntryRow[]> | undefined = batchBelow(undefined);
  while (next) {
    const rows: AuditLogEntryRow[] = await next;
    const last = rows.at(-1);
    if (!last) return;
    next = rows.length < batchSize ? undefined : batchBelow({ createdAt: last.createdAt, id: last.id });
    // A read started here and then dropped (the consumer stopped) must not reject unobserved.
    next?.catch(() => undefined);
    yield rows.map(csvLine).join('');
  }
}

/**
 * The download's name: `audit-log-<organisation>-<YYYY-MM-DD>.csv`, the organisation as its name in
 * lower-case ASCII letters, digits and hyphens (its id when nothing of the name is left), the UTC day.
 */
export function auditLogCsvFileName(organization: { id: string; name: string }, now: Date): string {
  const slug = organization.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
  return `audit-log-${slug || organization.id}-${now.toISOString().slice(0, 10)}.csv`;
}
