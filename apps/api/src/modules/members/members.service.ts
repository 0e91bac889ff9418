import {
  ROLE_IDS,
  ROLE_NAMES,
  SUPER_ADMIN_ROLE,
  assignableRoles,
  isScopableRole,
  type ApplicationScope,
  type ApplicationState,
  type ChangePasswordRequest,
  type Member,
  type Role,
  type RoleId,
  type UpdateMemberRequest,
} from '@portal/contracts';
import { hashPassword, verifyPassword } from '../../auth/auth.ts';
import type { Membership, SessionUser } from '../../auth/session.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, validationError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { memberAuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { changedFields, record } from '../audit-log/audit-log.record.ts';
import {
  deleteMemberUser,
  deleteOtherSessions,
  findMember,
  findMembershipByUserId,
  findOrganizationApplications,
  findPasswordHash,
  insertOrganization,
  insertSuperAdmin,
  listMembers,
  scopesOfMembers,
  setMemberScope,
  updateMember,
  updatePassword,
  type MemberRow,
} from './members.repository.ts';

/** Applications a member may be limited to: any the organisation still has. */
const SCOPABLE_APPLICATION_STATES: readonly ApplicationState[] = [
  'active',
  'initializing',
  'temporary_inactive',
  'inactive',
  'deactivated',
];

/**
 * The caller's membership (read with the session); a verified user without one gets a new
 * organisation to set up (decision 001).
 */
export async function getMembership(db: Db, user: SessionUser): Promise<Membership> {
  if (user.membership) return user.membership;
  const existing = await findMembershipByUserId(db, user.userId);
  if (existing) return existing;
  await createOrganizationForUser(db, user);
  const created = await findMembershipByUserId(db, user.userId);
  if (!created) throw new AppError('INTERNAL_ERROR');
  return created;
}

/**
 * Creates the organisation a new user will set up, with the user as its super-admin. Idempotent:
 * concurrent first requests of one user end with a single membership.
 */
async function createOrganizationForUser(db: Db, user: SessionUser) {
  const alreadyMember = new Error('already a member');
  try {
    await db.transaction(async (tx) => {
      const organizationId = crypto.randomUUID();
      await insertOrganization(tx, { id: organizationId, email: user.email });
      const inserted = await insertSuperAdmin(tx, organizationId, {
        userId: user.userId,
        displayName: user.name || user.email.split('@')[0] || user.email,
        roleId: SUPER_ADMIN_ROLE,
      });
      // Another request created the membership first: roll back this organisation.
      if (!inserted) throw alreadyMember;
    });
  } catch (error) {
    if (error !== alreadyMember) throw error;
  }
}

/** The caller's membership for an organisation endpoint; a user without one has no role, hence no permission. */
export async function requireMembership(db: Db, user: SessionUser): Promise<Membership> {
  const membership = user.membership ?? (await findMembershipByUserId(db, user.userId));
  if (!membership) throw new AppError('FORBIDDEN');
  return membership;
}

function toMember(row: MemberRow, scopes: ApplicationScope[] | undefined): Member {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    roles: [{ id: row.roleId }],
    applicationScopes: row.allApplications ? null : (scopes ?? []),
    lastLogin: row.lastLoginAt?.getTime() ?? 0,
    hasPassword: row.hasPassword,
  };
}

async function presentMembers(db: Db, rows: MemberRow[]): Promise<Member[]> {
  const scopes = await scopesOfMembers(
    db,
    rows.filter((row) => !row.allApplications).map((row) => row.id),
  );
  return rows.map((row) => toMember(row, scopes.get(row.id)));
}

async function presentMember(db: Db, row: MemberRow): Promise<Member> {
  const [member] = await presentMembers(db, [row]);
  if (!member) throw new AppError('INTERNAL_ERROR');
  return member;
}

/**
 * The §2 row rules held on the server: nobody but the super-admin touches the super-admin, and a
 * member who shares a role with the caller is out of the caller's reach.
 */
function assertMayManage(caller: Membership, target: Pick<MemberRow, 'roleId'>) {
  if (target.roleId === SUPER_ADMIN_ROLE || target.roleId === caller.member.roleId) {
    throw new AppError('MEMBER_NOT_EDITABLE');
  }
}

/** A role the caller may grant: never super-admin, never one the caller holds. */
export function assertAssignable(caller: Membership, roleId: string): asserts roleId is RoleId {
  if (!(assignableRoles([caller.member.roleId]) as readonly string[]).includes(roleId)) {
    throw new AppError('ROLE_NOT_ASSIGNABLE', { field: 'roleIds' });
  }
}

/**
 * The applications a scoped role is limited to: null (all) for roles that cannot be limited or
 * when none are given; otherwise each id must be one of the organisation's applications in `states`.
 */
export async function resolveApplicationScope(
  executor: Executor,
  organizationId: string,
  roleId: string,
  requested: readonly string[] | null | undefined,
  states: readonly ApplicationState[],
): Promise<string[] | null> {
  if (!isScopableRole(roleId) || !requested) return null;
  const unique = [...new Set(requested)];
  const found = await findOrganizationApplications(executor, organizationId, unique, states);
  if (found.length !== unique.length) {
    throw validationError([{ path: ['applicationScopes'], message: 'errors.unknownApplication' }]);
  }
  return unique;
}

/** A member of the organisation as the API shows it. */
export async function memberById(db: Db, organizationId: string, memberId: string): Promise<Member> {
  const row = await findMember(db, organizationId, memberId);
  if (!row) throw new AppError('NOT_FOUND');
  return presentMember(db, row);
}

function memberTarget(row: Pick<MemberRow, 'id' | 'email'>) {
  return { type: 'member' as const, id: row.id, name: row.email };
}

/**
 * The audit action of a member's edit: the role when it changed, else the application scope, else
 * the display name; undefined when nothing changed. The entry lists every field that did.
 */
function memberEditAction(changes: Record<string, unknown>) {
  if ('role' in changes) return 'member.role_changed' as const;
  if ('applicationScope' in changes) return 'member.scope_changed' as const;
  if ('displayName' in changes) return 'member.display_name_changed' as const;
  return undefined;
}

async function memberOfOrganization(db: Db, caller: Membership, memberId: string): Promise<MemberRow> {
  const row = await findMember(db, caller.organization.id, memberId);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export interface MembersDeps {
  db: Db;
}

export function membersService({ db }: MembersDeps) {
  return {
    /** The role vocabulary, for any signed-in user. */
    listRoles(limit: number): { results: Role[]; total: number } {
      const roles = ROLE_IDS.map((id) => ({ id, name: ROLE_NAMES[id] }));
      return { results: roles.slice(0, limit), total: roles.length };
    },

    async list(user: SessionUser, limit: number) {
      const caller = await requireMembership(db, user);
      assertPermission(caller.member.roleId, 'VIEW_MEMBER');
      const { rows, total } = await listMembers(db, caller.organization.id, limit);
      return { results: await presentMembers(db, rows), total };
    },

    async me(user: SessionUser) {
      const caller = await getMembership(db, user);
      return presentMember(db, await memberOfOrganization(db, caller, caller.member.id));
    },

    async get(user: SessionUser, memberId: string) {
      const caller = await requireMembership(db, user);
      if (memberId !== caller.member.id) assertPermission(caller.member.roleId, 'VIEW_MEMBER');
      return presentMember(db, await memberOfOrganization(db, caller, memberId));
    },

    /** Editing oneself changes the display name only; others need EDIT_MEMBER and the row rules. */
    async update(user: SessionUser, origin: RequestOrigin, memberId: string, body: UpdateMemberRequest) {
      const caller = await requireMembership(db, user);
      const context = memberAuditContext(origin, user, caller);
      if (memberId === caller.member.id) {
        const self = await memberOfOrganization(db, caller, memberId);
        await db.transaction(async (tx) => {
          await updateMember(tx, caller.organization.id, memberId, { displayName: body.displayName });
          const changes = changedFields({ displayName: self.displayName }, { displayName: body.displayName });
          const action = memberEditAction(changes);
          if (action)
            await record(tx, { organizationId: caller.organization.id, action, target: memberTarget(self), changes, context });
        });
        return presentMember(db, await memberOfOrganization(db, caller, memberId));
      }
      assertPermission(caller.member.roleId, 'EDIT_MEMBER');
      const target = await memberOfOrganization(db, caller, memberId);
      assertMayManage(caller, target);
      const roleId = body.roleIds?.[0] ?? target.roleId;
      assertAssignable(caller, roleId);
      const currentScope = target.allApplications
        ? null
        : ((await scopesOfMembers(db, [target.id])).get(target.id) ?? []).map((scope) => scope.id);
      const requestedScope = body.applicationScopes === undefined ? currentScope : body.applicationScopes;
      const applicationIds = await resolveApplicationScope(
        db,
        caller.organization.id,
        roleId,
        requestedScope,
        SCOPABLE_APPLICATION_STATES,
      );
      await db.transaction(async (tx) => {
        await updateMember(tx, caller.organization.id, memberId, {
          displayName: body.displayName,
          roleId,
          allApplications: applicationIds === null,
        });
        await setMemberScope(tx, caller.organization.id, memberId, applicationIds);
        // A scope of null is every application; ids are compared sorted, as their order means nothing.
        const changes = changedFields(
          { displayName: target.displayName, role: target.roleId, applicationScope: currentScope && [...currentScope].sort() },
          { displayName: body.displayName, role: roleId, applicationScope: applicationIds && [...applicationIds].sort() },
        );
        const action = memberEditAction(changes);
        if (action)
          await record(tx, { organizationId: caller.organization.id, action, target: memberTarget(target), changes, context });
      });
      return presentMember(db, await memberOfOrganization(db, caller, memberId));
    },

    async remove(user: SessionUser, origin: RequestOrigin, memberId: string) {
      const caller = await requireMembership(db, user);
      assertPermission(caller.member.roleId, 'DELETE_MEMBER');
      const target = await memberOfOrganization(db, caller, memberId);
      if (target.id === caller.member.id) throw new AppError('CANNOT_REMOVE_SELF');
      assertMayManage(caller, target);
      await db.transaction(async (tx) => {
        await deleteMemberUser(tx, caller.organization.id, target.userId);
        await record(tx, {
          organizationId: caller.organization.id,
          action: 'member.removed',
          target: memberTarget(target),
          changes: { role: { before: target.roleId } },
          context: memberAuditContext(origin, user, caller),
        });
      });
    },

    /** Only one's own password; the other sessions end, the one that changed it stays signed in. */
    async changePassword(user: SessionUser, memberId: string, body: ChangePasswordRequest) {
      const caller = await requireMembership(db, user);
      if (memberId !== caller.member.id) {
        await memberOfOrganization(db, caller, memberId);
        throw new AppError('FORBIDDEN');
      }
      const currentHash = await findPasswordHash(db, user.userId);
      if (!currentHash) throw new AppError('PASSWORD_NOT_SET');
      if (!(await verifyPassword(currentHash, body.currentPassword))) {
        throw new AppError('INVALID_PASSWORD', { field: 'currentPassword' });
      }
      const passwordHash = await hashPassword(body.newPassword);
      await db.transaction(async (tx) => {
        await updatePassword(tx, caller.organization.id, user.userId, passwordHash);
        await deleteOtherSessions(tx, caller.organization.id, user.userId, user.sessionId);
      });
    },
  };
}
