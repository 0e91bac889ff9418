import type { Membership, SessionUser } from '../../auth/session.ts';

/**
 * Where a change came from, as the route read it from the request: the client's address (after the
 * trusted proxies), its user agent and the request's id. Services take this plain value, never the
 * request; work the portal starts itself (a job) has none.
 */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

export const NO_REQUEST: RequestOrigin = { ip: null, userAgent: null, requestId: null };

export type AuditActor =
  | { kind: 'member'; memberId: string; email: string }
  | { kind: 'operator' }
  | { kind: 'system' };

/** Who made a change and from where: what every audit entry carries besides the change itself. */
export interface AuditContext {
  actor: AuditActor;
  origin: RequestOrigin;
}

/** A change the portal made by its own rule (a job, a settlement, a payment the gateway reported). */
export const SYSTEM_AUDIT_CONTEXT: AuditContext = { actor: { kind: 'system' }, origin: NO_REQUEST };

/** An operator's change through the operator API, from the request's origin. */
export function operatorAuditContext(origin: RequestOrigin): AuditContext {
  return { actor: { kind: 'operator' }, origin };
}

/**
 * A member's change: the member is the caller's membership as the service resolved it (the session
 * may not carry it yet), the email the signed-in user's.
 */
export function memberAuditContext(origin: RequestOrigin, user: SessionUser, caller: Membership): AuditContext {
  return { actor: { kind: 'member', memberId: caller.member.id, email: user.email }, origin };
}
