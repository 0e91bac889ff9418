import type {
  AuditAction,
  AuditActionGroup,
  AuditLogEntry,
  AuditTargetType,
  AuditValue,
} from '@portal/contracts';
import { t } from '../../lib/i18n';

/**
 * The audit log's words for the vocabulary of decision 042. Each label's key is made from the name,
 * so the wording (locales/en-audit-log.ts) must hold one for every action, group and target type.
 */
export const actionLabel = (action: AuditAction): string => t(`auditLog.action.${action}`);

export const actionGroupLabel = (group: AuditActionGroup): string => t(`auditLog.group.${group}`);

export const targetTypeLabel = (type: AuditTargetType): string => t(`auditLog.targetType.${type}`);

/** Who made the change: the member's email (their id when the entry has none), or the operator or the portal. */
export function actorLabel(actor: AuditLogEntry['actor']): string {
  if (actor.kind === 'operator') return t('auditLog.actor.operator');
  if (actor.kind === 'system') return t('auditLog.actor.system');
  return actor.email ?? actor.memberId ?? t('auditLog.value.none');
}

/** A changed field's value as the detail shows it; a value that is absent (or null) reads "—". */
export function auditValueText(value: AuditValue | undefined): string {
  if (value === undefined || value === null || value === '') return t('auditLog.value.none');
  if (typeof value === 'boolean') return t(value ? 'auditLog.value.true' : 'auditLog.value.false');
  if (Array.isArray(value)) return value.length === 0 ? t('auditLog.value.none') : value.join(', ');
  return String(value);
}

/** The entry's time in UTC, to the second: what the browser's own time zone is compared with. */
export function utcTimeText(createdAt: string): string {
  return `${createdAt.slice(0, 10)} ${createdAt.slice(11, 19)} ${t('auditLog.detail.utc')}`;
}
