import { z } from 'zod';

/**
 * The organisation audit log's vocabulary (decision 042): one dotted name per kind of change, each
 * in one group, the group being the part before the dot. The page filters by group; the server
 * stores each entry's group beside its action, so a group's filter reads one index range.
 */
export const AUDIT_ACTIONS = [
  'sign_in.succeeded',
  'sign_in.failed',
  'sign_in.signed_out',
  'member.invited',
  'member.invitation_resent',
  'member.invitation_cancelled',
  'member.joined',
  'member.display_name_changed',
  'member.role_changed',
  'member.scope_changed',
  'member.removed',
  'application.created',
  'application.renamed',
  'application.deactivated',
  'application.reactivated',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  'sso.connection_saved',
  'sso.connection_removed',
  'sso.settings_changed',
  'sso.domain_verified',
  'sso.domain_verification_lapsed',
  'two_factor.requirement_changed',
  'two_factor.enrolled',
  'two_factor.removed',
  'two_factor.reset_by_operator',
  'billing.information_changed',
  'billing.card_added',
  'billing.card_removed',
  'billing.card_made_default',
  'billing.top_up',
  'billing.invoice_paid',
  'account.made_inactive',
  'account.made_active',
  'usage_alert.changed',
  'usage_alert.triggered',
  'operator.credit_granted',
  'operator.charge_raised',
  'operator.charge_voided',
  'operator.limits_changed',
  'operator.billing_country_changed',
  'operator.contract_changed',
  'operator.free_credit_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_GROUPS = [
  'sign_in',
  'member',
  'application',
  'api_key',
  'sso',
  'two_factor',
  'billing',
  'account',
  'usage_alert',
  'operator',
] as const;
export type AuditActionGroup = (typeof AUDIT_ACTION_GROUPS)[number];

/** The group an action belongs to: the part of its name before the dot. */
export function auditActionGroup(action: AuditAction): AuditActionGroup {
  return action.slice(0, action.indexOf('.')) as AuditActionGroup;
}

/** The actions of a group, in the vocabulary's order. */
export function auditActionsOf(group: AuditActionGroup): AuditAction[] {
  return AUDIT_ACTIONS.filter((action) => auditActionGroup(action) === group);
}

/** Who made a change: a member (by id and email), an operator through the CLI, or the portal itself. */
export const AUDIT_ACTOR_KINDS = ['member', 'operator', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** What a change was made to. */
export const AUDIT_TARGET_TYPES = [
  'organization',
  'member',
  'invitation',
  'application',
  'api_key',
  'sso_connection',
  'email_domain',
  'card',
  'transaction',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** A field's value as the log keeps it: small, plain, and never a secret (the server scrubs them). */
export const AuditValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
export type AuditValue = z.infer<typeof AuditValueSchema>;

/** The fields a change touched, each with its value before and after (absent when there was none). */
export const AuditChangesSchema = z.record(
  z.string(),
  z.object({ before: AuditValueSchema.optional(), after: AuditValueSchema.optional() }),
);
export type AuditChanges = z.infer<typeof AuditChangesSchema>;

export const AuditLogEntrySchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  actor: z.object({
    kind: z.enum(AUDIT_ACTOR_KINDS),
    memberId: z.string().nullable(),
    email: z.string().nullable(),
  }),
  action: z.enum(AUDIT_ACTIONS),
  actionGroup: z.enum(AUDIT_ACTION_GROUPS),
  target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.string(), name: z.string() }),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
  changes: AuditChangesSchema,
});
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;

export const AUDIT_LOG_PAGE_MAX = 200;

/**
 * Where the next page starts: the last entry's time and id, as the previous page's `nextCursor`
 * gave them. Opaque to the client; its form is checked here so a damaged one is a 400 on `cursor`.
 */
export const AUDIT_LOG_CURSOR_PATTERN = /^[0-9]{13}-[0-9]{1,19}$/;

/** The log's times: from 1970 to the end of 9999, UTC (the database refuses years outside 1–9999). */
const AUDIT_TIME_MIN_MS = 0;
const AUDIT_TIME_END_MS = Date.UTC(10_000, 0, 1);
const auditTimeField = z.iso
  .datetime({ offset: true })
  .refine((value) => {
    const time = Date.parse(value);
    return time >= AUDIT_TIME_MIN_MS && time < AUDIT_TIME_END_MS;
  }, 'must be a time from 1970 to 9999');

/**
 * The filters of the list and the export, defined once: actor (kind, member id), action or group,
 * target (type, with an id) and time (`from` inclusive, `to` exclusive).
 */
const auditLogFilterFields = {
  actorKind: z.enum(AUDIT_ACTOR_KINDS).optional(),
  actorMemberId: z.string().min(1).max(100).optional(),
  actionGroup: z.enum(AUDIT_ACTION_GROUPS).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
  targetId: z.string().min(1).max(100).optional(),
  /** Entries at or after this time. */
  from: auditTimeField.optional(),
  /** Entries before this time. */
  to: auditTimeField.optional(),
};
export type AuditLogFilterQuery = z.infer<z.ZodObject<typeof auditLogFilterFields>>;

/** What the filters require of each other, each issue on the field to change. */
function checkAuditLogFilters(query: AuditLogFilterQuery, ctx: z.RefinementCtx) {
  if (query.targetId !== undefined && query.targetType === undefined)
    ctx.addIssue({ code: 'custom', path: ['targetType'], message: 'is required with targetId' });
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to))
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
}

export const ListAuditLogQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(AUDIT_LOG_PAGE_MAX).default(50),
    cursor: z.string().regex(AUDIT_LOG_CURSOR_PATTERN, 'is not a cursor this list gave').optional(),
    ...auditLogFilterFields,
  })
  .superRefine(checkAuditLogFilters);
export type ListAuditLogQuery = z.infer<typeof ListAuditLogQuerySchema>;

/**
 * `GET /api/v1/audit-log/export`: every entry the list's filters match, newest first, as CSV. No
 * cursor and no limit: the server reads the entries in batches and streams them.
 */
export const ExportAuditLogQuerySchema = z.object(auditLogFilterFields).superRefine(checkAuditLogFilters);
export type ExportAuditLogQuery = z.infer<typeof ExportAuditLogQuerySchema>;

export const ListAuditLogResponseSchema = z.object({
  results: z.array(AuditLogEntrySchema),
  /** The cursor of the next (older) page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type ListAuditLogResponse = z.infer<typeof ListAuditLogResponseSchema>;
