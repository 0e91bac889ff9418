import type {
  AuditLogEntry,
  AuditLogFilterQuery,
  ExportAuditLogQuery,
  ListAuditLogQuery,
  ListAuditLogResponse,
} from '@portal/contracts';
import type { Membership, SessionUser } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { validationError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { auditLogCsv, auditLogCsvFileName } from './audit-log.export.ts';
import { listAuditLogEntries, type AuditLogEntryRow, type AuditLogFilter } from './audit-log.repository.ts';

/** A page's cursor: the last entry's time (epoch ms) and id, which the next page starts below. */
function cursorOf(row: AuditLogEntryRow): string {
  return `${row.createdAt.getTime()}-${row.id}`;
}

function readCursor(cursor: string): { createdAt: Date; id: number } {
  const [time, id] = cursor.split('-').map(Number);
  if (time === undefined || id === undefined || !Number.isSafeInteger(time) || !Number.isSafeInteger(id))
    throw validationError([{ path: ['cursor'], message: 'is not a cursor this list gave' }]);
  return { createdAt: new Date(time), id };
}

function toEntry(row: AuditLogEntryRow): AuditLogEntry {
  return {
    id: String(row.id),
    createdAt: row.createdAt.toISOString(),
    actor: { kind: row.actorKind, memberId: row.actorMemberId, email: row.actorEmail },
    action: row.action,
    actionGroup: row.actionGroup,
    target: { type: row.targetType, id: row.targetId, name: row.targetName },
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    changes: row.changes,
  };
}

function filterOf(query: AuditLogFilterQuery): AuditLogFilter {
  return {
    actorKind: query.actorKind,
    actorMemberId: query.actorMemberId,
    actionGroup: query.actionGroup,
    action: query.action,
    targetType: query.targetType,
    targetId: query.targetId,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
  };
}

/** The caller's membership, or FORBIDDEN without one (the members module's `requireMembership`). */
export type MembershipOf = (db: Db, user: SessionUser) => Promise<Membership>;

export interface AuditLogDeps {
  db: Db;
  /**
   * Given, not imported: every module that records changes imports this one, so it sits below the
   * members module that finds memberships.
   */
  requireMembership: MembershipOf;
}

/** The reading of the organisation's audit log (VIEW_AUDIT_LOG); entries are written by `record`. */
export function auditLogService({ db, requireMembership }: AuditLogDeps) {
  /** The caller's organisation, if the caller may read its log. */
  async function readableOrganization(user: SessionUser) {
    const caller = await requireMembership(db, user);
    assertPermission(caller.member.roleId, 'VIEW_AUDIT_LOG');
    return caller.organization;
  }

  return {
    async list(user: SessionUser, query: ListAuditLogQuery): Promise<ListAuditLogResponse> {
      const organization = await readableOrganization(user);
      const rows = await listAuditLogEntries(
        db,
        organization.id,
        { ...filterOf(query), before: query.cursor === undefined ? undefined : readCursor(query.cursor) },
        query.limit + 1,
      );
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        results: page.map(toEntry),
        nextCursor: rows.length > query.limit && last ? cursorOf(last) : null,
      };
    },

    /**
     * The entries the filters match as CSV, with the download's name. Refused (FORBIDDEN) before
     * anything is read; the entries are read batch by batch as the chunks are taken.
     */
    async exportCsv(user: SessionUser, query: ExportAuditLogQuery) {
      const organization = await readableOrganization(user);
      return {
        fileName: auditLogCsvFileName(organization, new Date()),
        chunks: auditLogCsv(db, organization.id, filterOf(query)),
      };
    },
  };
}
