import { auditActionGroup, type AuditAction, type AuditChanges, type AuditTargetType } from '@portal/contracts';
import type { Tx } from '../../db/client.ts';
import type { AuditContext } from './audit-context.ts';
import { scrubChanges, scrubValue } from './audit-scrub.ts';
import { insertAuditLogEntry } from './audit-log.repository.ts';

export interface AuditTarget {
  type: AuditTargetType;
  id: string;
  /** Its name as of the change (an application's name, a member's email). */
  name: string;
}

export interface AuditEntry {
  organizationId: string;
  action: AuditAction;
  target: AuditTarget;
  /** The fields that changed, before and after; secrets in them are scrubbed here. */
  changes?: AuditChanges;
  context: AuditContext;
}

/**
 * Records a change in the organisation's audit log. It takes the transaction of the change (never
 * the database): the entry commits with the change, and a change rolled back leaves no entry.
 */
export async function record(tx: Tx, entry: AuditEntry) {
  const { actor, origin } = entry.context;
  await insertAuditLogEntry(tx, {
    organizationId: entry.organizationId,
    actorKind: actor.kind,
    actorMemberId: actor.kind === 'member' ? actor.memberId : null,
    actorEmail: actor.kind === 'member' ? actor.email : null,
    action: entry.action,
    actionGroup: auditActionGroup(entry.action),
    targetType: entry.target.type,
    targetId: entry.target.id,
    targetName: String(scrubValue(entry.target.name)),
    ip: origin.ip,
    userAgent: origin.userAgent,
    requestId: origin.requestId,
    changes: scrubChanges(entry.changes ?? {}),
  });
}

/** The changes between two versions of some fields: only those whose value differs. */
export function changedFields<T extends Record<string, AuditChanges[string]['after']>>(
  before: T,
  after: T,
): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of Object.keys(after)) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field]))
      changes[field] = { before: before[field], after: after[field] };
  }
  return changes;
}
