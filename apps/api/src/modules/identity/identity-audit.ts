import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditAction, AuditChanges } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { IdentityAudit, UserKey } from '../../auth/sign-in-audit.ts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { NO_REQUEST, type AuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { record } from '../audit-log/audit-log.record.ts';

/**
 * The origin of the request better-auth is serving. Its hooks and adapter see better-auth's own
 * request, which has no client address after the trusted proxies and no request id: the routes
 * that hand a request to better-auth put its origin here for the entries made meanwhile.
 */
const currentOrigin = new AsyncLocalStorage<RequestOrigin>();

export function withRequestOrigin<T>(origin: RequestOrigin, run: () => Promise<T>): Promise<T> {
  return currentOrigin.run(origin, run);
}

/** A member as the entries about them name them: the actor and the target are the same person. */
interface AuditedMember {
  memberId: string;
  organizationId: string;
  email: string;
}

function memberContext(member: AuditedMember, origin: RequestOrigin): AuditContext {
  return { actor: { kind: 'member', memberId: member.memberId, email: member.email }, origin };
}

function memberTarget(member: AuditedMember) {
  return { type: 'member' as const, id: member.memberId, name: member.email };
}

/** How someone became a member: an invitation accepted, an identity provider, or founding the organisation. */
export type JoinedVia = 'invitation' | 'sso' | 'organization_setup';

/**
 * Records a person joining an organisation, in the transaction that made them a member; the joining
 * member is the actor. `changes` may add what the way of joining tells (the organisation founded).
 */
export async function recordMemberJoined(
  tx: Tx,
  member: AuditedMember & { roleId: string },
  via: JoinedVia,
  origin: RequestOrigin,
  changes: AuditChanges = {},
) {
  await record(tx, {
    organizationId: member.organizationId,
    action: 'member.joined',
    target: memberTarget(member),
    changes: { role: { after: member.roleId }, via: { after: via }, ...changes },
    context: memberContext(member, origin),
  });
}

/** The member a user is, if any (a user has at most one organisation). */
async function memberOf(executor: Executor, user: UserKey): Promise<AuditedMember | undefined> {
  const [member] = await executor
    .select({
      memberId: schema.member.id,
      organizationId: schema.member.organizationId,
      email: schema.user.email,
    })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where('userId' in user ? eq(schema.member.userId, user.userId) : eq(schema.user.email, user.email));
  return member;
}

/**
 * The audit log's side of the identity service (auth/sign-in-audit.ts): each entry goes to the
 * organisation of the member it is about, made by that member. A user with no organisation yet
 * (before its setup) has no log to write into, so nothing is recorded for them.
 */
export function identityAudit(db: Db): IdentityAudit {
  const origin = () => currentOrigin.getStore() ?? NO_REQUEST;

  async function recordOf(tx: Tx, user: UserKey, action: AuditAction, changes: AuditChanges) {
    const member = await memberOf(tx, user);
    if (!member) return;
    await record(tx, {
      organizationId: member.organizationId,
      action,
      target: memberTarget(member),
      changes,
      context: memberContext(member, origin()),
    });
  }

  return {
    signedIn: (tx, userId, method, firstFactor) =>
      recordOf(tx, { userId }, 'sign_in.succeeded', {
        method: { after: method },
        ...(firstFactor ? { firstFactor: { after: firstFactor } } : {}),
      }),
    signedOut: (tx, userId) => recordOf(tx, { userId }, 'sign_in.signed_out', {}),
    secondFactorTurned: (tx, userId, on) =>
      recordOf(tx, { userId }, on ? 'two_factor.enrolled' : 'two_factor.removed', {
        twoFactorEnabled: { before: !on, after: on },
      }),
    signInFailed: (user, method, reason) =>
      db.transaction((tx) =>
        recordOf(tx, user, 'sign_in.failed', { method: { after: method }, reason: { after: reason } }),
      ),
    joinedBySso: (tx, member) => recordMemberJoined(tx, member, 'sso', origin()),
  };
}
