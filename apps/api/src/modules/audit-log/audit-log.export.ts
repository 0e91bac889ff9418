import type { AuditChanges } from '@portal/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { auditLogEntry } from '../../db/schema.ts';
import {
  listAuditLogEntries,
  readAuditLogTextBatch,
  type AuditLogEntryRow,
  type AuditLogEntryText,
  type AuditLogFilter,
  type AuditLogTextBatch,
} from './audit-log.repository.ts';

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

/** An entry's line as the application writes it, which the database's lines must equal byte for byte. */
export function csvLine(row: AuditLogEntryRow): string {
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

/*
 * The same lines written by the database: a batch crosses to Node as one string instead of
 * thousands of row objects mapped to strings one by one. The rules are the ones above, read from the
 * same regular expressions (PostgreSQL reads these as JavaScript does).
 */

/** A regular expression as an SQL string literal: a constant, which PostgreSQL compiles once. */
const sqlPattern = (pattern: string) => sql.raw(`'${pattern.replaceAll("'", "''")}'`);
const FORMULA_START_SQL = sqlPattern(FORMULA_START.source);
const NEEDS_QUOTES_SQL = sqlPattern(NEEDS_QUOTES.source);

/** `csvField` in SQL. */
function csvFieldSql(value: SQL): SQL {
  const text = sql`(CASE WHEN ${value} ~ ${FORMULA_START_SQL} THEN '''' || ${value} ELSE ${value} END)`;
  return sql`(CASE
    WHEN ${value} IS NULL THEN ''
    WHEN ${text} ~ ${NEEDS_QUOTES_SQL} THEN '"' || replace(${text}, '"', '""') || '"'
    ELSE ${text}
  END)`;
}

/** The entry's text columns, after its time and before its changes. */
const TEXT_COLUMNS = [
  auditLogEntry.actorKind,
  auditLogEntry.actorMemberId,
  auditLogEntry.actorEmail,
  auditLogEntry.action,
  auditLogEntry.actionGroup,
  auditLogEntry.targetType,
  auditLogEntry.targetId,
  auditLogEntry.targetName,
  auditLogEntry.ip,
  auditLogEntry.userAgent,
  auditLogEntry.requestId,
];
/** The fields joined by a control character (unit separator): a rule applies to one only if this matches. */
const FIELD_SEPARATOR = '\\x1f';
const FIELDS_NEEDING_A_RULE_SQL = sql`concat_ws(E'${sql.raw(FIELD_SEPARATOR)}', ${sql.join(TEXT_COLUMNS, sql`, `)}) ~ ${sqlPattern(
  `${NEEDS_QUOTES.source}|${FORMULA_START.source.replace(/^\^/, `(^|${FIELD_SEPARATOR})`)}`,
)}`;

/**
 * The text columns as CSV fields. Most entries need no rule in any field: one test of them all and
 * a plain join cost less than testing each field (a null is an empty field either way).
 */
const TEXT_FIELDS_SQL = sql`(CASE
  WHEN ${FIELDS_NEEDING_A_RULE_SQL} THEN ${sql.join(
    TEXT_COLUMNS.map((column) => csvFieldSql(sql`${column}`)),
    sql` || ',' || `,
  )}
  ELSE ${sql.join(
    TEXT_COLUMNS.map((column) => sql`coalesce(${column}, '')`),
    sql` || ',' || `,
  )}
END)`;

/**
 * A change's `before` or `after` as `JSON.stringify` writes it, or NULL where the database's text
 * could differ from it. jsonb writes strings (with the same escapes), booleans and null as JavaScript
 * does. A number only when its text is what float8 writes for it, the shortest that reads back as
 * the same double in positional notation, which is what JavaScript writes too (`1.50`, `1e21` and
 * 20-digit integers are not). A list of strings with the space after each comma taken out: a `", "`
 * can only be that separator, as a quote inside a string is escaped.
 */
function changeValueJsonSql(value: SQL): SQL {
  return sql`(CASE jsonb_typeof(${value})
    WHEN 'number' THEN CASE WHEN ${value}::text = (${value}::text)::float8::text THEN ${value}::text END
    WHEN 'array' THEN CASE WHEN NOT jsonb_path_exists(${value}, 'strict $[*] ? (@.type() != "string")')
      THEN replace(${value}::text, '", "', '","') END
    WHEN 'object' THEN NULL
    ELSE ${value}::text
  END)`;
}

/**
 * `changesJson` in SQL, over the fields in jsonb's order, which is the order JSON.parse gives them
 * in JavaScript except for keys that are array indices (JavaScript puts those first). Such a key, a
 * field that is not an object or a value written above as NULL makes the entry's line inexact.
 */
const CHANGES_JSON_SQL = sql`
  CROSS JOIN LATERAL (
    SELECT coalesce('{' || string_agg(
        to_jsonb(field.name)::text || ':{' ||
          concat_ws(',', '"before":' || value.before, '"after":' || value.after) || '}',
        ',' ORDER BY field.position) || '}', '{}') AS json,
      coalesce(bool_and(
        field.name !~ '^[0-9]+$' AND jsonb_typeof(field.change) = 'object'
        AND (field.change -> 'before' IS NULL) = (value.before IS NULL)
        AND (field.change -> 'after' IS NULL) = (value.after IS NULL)), true) AS exact
    FROM jsonb_each(${auditLogEntry.changes}) WITH ORDINALITY AS field(name, change, position)
    CROSS JOIN LATERAL (
      SELECT ${changeValueJsonSql(sql`(field.change -> 'before')`)} AS before,
        ${changeValueJsonSql(sql`(field.change -> 'after')`)} AS after
    ) AS value
  ) AS changes_json`;

/**
 * `csvLine` in SQL, NULL where it might differ; the time as `toISOString()` writes it (the column
 * keeps milliseconds). The changes' JSON needs no formula rule (it starts with `{`) and, but for
 * `{}`, always quotes.
 */
const CSV_LINE_SQL: AuditLogEntryText = {
  text: sql`CASE WHEN changes_json.exact THEN
    to_char(${auditLogEntry.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ',' ||
    ${TEXT_FIELDS_SQL} || ',' ||
    CASE WHEN changes_json.json = '{}' THEN '{}' ELSE '"' || replace(changes_json.json, '"', '""') || '"' END ||
    E'\\r\\n'
  END`,
  from: CHANGES_JSON_SQL,
};

/** Up to `count` entries as CSV lines written by the database, and whether each is what `csvLine` writes. */
export function readAuditLogCsvLines(
  executor: Executor,
  organizationId: string,
  filter: AuditLogFilter,
  count: number,
): Promise<AuditLogTextBatch> {
  return readAuditLogTextBatch(executor, organizationId, filter, count, CSV_LINE_SQL);
}

/**
 * Up to `batchSize` entries as CSV lines, written by the database; or, when an entry holds a value
 * the database would write otherwise, the same entries read as rows and written here.
 */
async function auditLogCsvBatch(
  executor: Executor,
  organizationId: string,
  filter: AuditLogFilter,
  batchSize: number,
): Promise<AuditLogTextBatch> {
  const batch = await readAuditLogCsvLines(executor, organizationId, filter, batchSize);
  if (batch.exact) return batch;
  const rows = await listAuditLogEntries(executor, organizationId, filter, batchSize);
  const last = rows.at(-1);
  return {
    text: rows.map(csvLine).join(''),
    entries: rows.length,
    exact: true,
    last: last && { createdAt: last.createdAt, id: last.id },
  };
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
  const batchBelow = (before: AuditLogFilter['before']) =>
    auditLogCsvBatch(executor, organizationId, { ...filter, before }, batchSize);
  let next: Promise<AuditLogTextBatch> | undefined = batchBelow(undefined);
  while (next) {
    const batch: AuditLogTextBatch = await next;
    if (!batch.last) return;
    next = batch.entries < batchSize ? undefined : batchBelow(batch.last);
    // A read started here and then dropped (the consumer stopped) must not reject unobserved.
    next?.catch(() => undefined);
    yield batch.text;
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
