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

/**
 * A member's change: the member is the caller's membership as the service resolved it (the session
 * may not carry it yet), the email the signed-in user's.
 */
export function memberAuditContext(origin: RequestOrigin, user: SessionUser, caller: Membership): AuditContext {
  return { actor: { kind: 'member', memberId: caller.member.id, email: user.email }, origin };
}
