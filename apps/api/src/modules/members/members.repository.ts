import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { ApplicationScope, ApplicationState, RoleId } from '@portal/contracts';
import { CREDENTIAL_PROVIDER_ID } from '../../auth/auth.ts';
import type { Executor } from '../../db/client.ts';
import { listPage, listTotalOf, preparedOnce, type WithListTotal } from '../../db/list-page.ts';
import * as schema from '../../db/schema.ts';

const hasPassword = sql<boolean>`EXISTS (SELECT 1 FROM ${schema.account} WHERE ${schema.account.userId} = ${schema.member.userId} AND ${schema.account.providerId} = ${CREDENTIAL_PROVIDER_ID})`;

const MEMBER_ROW = {
  id: schema.member.id,
  userId: schema.member.userId,
  displayName: schema.member.displayName,
  roleId: schema.member.roleId,
  allApplications: schema.member.allApplications,
  lastLoginAt: schema.member.lastLoginAt,
  email: schema.user.email,
  hasPassword,
};

export type MemberRow = {
  id: string;
  userId: string;
  displayName: string;
  roleId: RoleId;
  allApplications: boolean;
  lastLoginAt: Date | null;
  email: string;
  hasPassword: boolean;
};

function membersQuery(executor: Executor, where: ReturnType<typeof and>, listTotal?: SQL<number>) {
  return executor
    .select({ ...MEMBER_ROW, ...(listTotal ? { listTotal } : {}) })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(where);
}

/** An organisation's members by display name (then id, so that equal names keep one order). */
export async function listMembers(executor: Executor, organizationId: string, limit: number) {
  const page = preparedOnce(executor, 'portal_members_page', (name) => {
    const inOrganization = eq(schema.member.organizationId, sql.placeholder('organizationId'));
    return membersQuery(executor, inOrganization, listTotalOf(executor, schema.member, inOrganization))
      .orderBy(asc(sql`lower(${schema.member.displayName})`), asc(schema.member.id))
      .limit(sql.placeholder('limit'))
      .prepare(name);
  });
  const inOrganization = eq(schema.member.organizationId, organizationId);
  return listPage<MemberRow>(
    executor,
    schema.member,
    inOrganization,
    () => page.execute({ organizationId, limit }) as Promise<WithListTotal<MemberRow>[]>,
  );
}

export async function findMember(
  executor: Executor,
  organizationId: string,
  memberId: string,
): Promise<MemberRow | undefined> {
  const [row] = await membersQuery(
    executor,
    and(eq(schema.member.organizationId, organizationId), eq(schema.member.id, memberId)),
  ).limit(1);
  return row as MemberRow | undefined;
}

/** The user's membership and its organisation; undefined until the user has one. */
export async function findMembershipByUserId(executor: Executor, userId: string) {
  const [row] = await executor
    .select({ member: schema.member, organization: schema.organization })
    .from(schema.member)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
    .where(eq(schema.member.userId, userId))
    .limit(1);
  return row;
}

/** A new user's own organisation, to set up, before its super-admin is inserted (decision 001). */
export async function insertOrganization(executor: Executor, values: { id: string; email: string }) {
  await executor.insert(schema.organization).values(values);
}

/**
 * Makes the user the organisation's super-admin, unless the user is already a member somewhere
 * (member.user_id is unique); false then, and nothing is inserted.
 */
export async function insertSuperAdmin(
  executor: Executor,
  organizationId: string,
  values: { userId: string; displayName: string; roleId: RoleId },
): Promise<boolean> {
  const inserted = await executor
    .insert(schema.member)
    .values({ ...values, id: crypto.randomUUID(), organizationId, lastLoginAt: new Date() })
    .onConflictDoNothing({ target: schema.member.userId })
    .returning({ id: schema.member.id });
  return inserted.length > 0;
}

/** The selected applications (id and name) of each given member, for members limited to some. */
export async function scopesOfMembers(
  executor: Executor,
  memberIds: string[],
): Promise<Map<string, ApplicationScope[]>> {
  const scopes = new Map<string, ApplicationScope[]>();
  if (memberIds.length === 0) return scopes;
  const rows = await executor
    .select({
      memberId: schema.memberApplicationScope.memberId,
      id: schema.application.id,
      name: schema.application.name,
    })
    .from(schema.memberApplicationScope)
    .innerJoin(schema.application, eq(schema.application.id, schema.memberApplicationScope.applicationId))
    .where(inArray(schema.memberApplicationScope.memberId, memberIds))
    .orderBy(asc(schema.application.name));
  for (const { memberId, id, name } of rows) {
    const list = scopes.get(memberId) ?? [];
    list.push({ id, name });
    scopes.set(memberId, list);
  }
  return scopes;
}

/** Id and name of each given application of the organisation in one of the states (unknown ids are left out). */
export async function findOrganizationApplications(
  executor: Executor,
  organizationId: string,
  applicationIds: readonly string[],
  states: readonly ApplicationState[],
): Promise<ApplicationScope[]> {
  if (applicationIds.length === 0) return [];
  return executor
    .select({ id: schema.application.id, name: schema.application.name })
    .from(schema.application)
    .where(
      and(
        eq(schema.application.organizationId, organizationId),
        inArray(schema.application.id, [...applicationIds]),
        inArray(schema.application.state, [...states]),
      ),
    )
    .orderBy(asc(schema.application.name));
}

/**
 * The member ids or user ids of the organisation's members, for writes keyed by either to leave
 * other organisations' members alone.
 */
function organizationMembers(executor: Executor, organizationId: string, key: 'id' | 'userId') {
  return executor
    .select({ key: schema.member[key] })
    .from(schema.member)
    .where(eq(schema.member.organizationId, organizationId));
}

/**
 * A new portal user who is a member of the organisation: the user (their email verified), their
 * password sign-in and their membership.
 */
export async function insertMemberUser(
  executor: Executor,
  organizationId: string,
  values: {
    userId: string;
    memberId: string;
    email: string;
    displayName: string;
    passwordHash: string;
    roleId: RoleId;
    allApplications: boolean;
  },
) {
  const { userId, displayName } = values;
  await executor
    .insert(schema.user)
    .values({ id: userId, name: displayName, email: values.email, emailVerified: true });
  await executor.insert(schema.account).values({
    id: crypto.randomUUID(),
    accountId: userId,
    providerId: CREDENTIAL_PROVIDER_ID,
    userId,
    password: values.passwordHash,
  });
  await executor.insert(schema.member).values({
    id: values.memberId,
    organizationId,
    userId,
    displayName,
    roleId: values.roleId,
    allApplications: values.allApplications,
  });
}

/** Changes a member of the organisation; undefined when the organisation has no such member. */
export async function updateMember(
  executor: Executor,
  organizationId: string,
  memberId: string,
  values: Partial<
    Pick<typeof schema.member.$inferInsert, 'displayName' | 'roleId' | 'allApplications' | 'tourState'>
  >,
) {
  const [row] = await executor
    .update(schema.member)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(schema.member.organizationId, organizationId), eq(schema.member.id, memberId)))
    .returning();
  return row;
}

/**
 * Limits a member of the organisation to the organisation's applications among those given, besides
 * any they already had; ids of other organisations' applications are left out.
 */
export async function addToMemberScope(
  executor: Executor,
  organizationId: string,
  memberId: string,
  applicationIds: readonly string[],
) {
  if (applicationIds.length === 0) return;
  await executor.insert(schema.memberApplicationScope).select(
    executor
      .select({ memberId: schema.member.id, applicationId: schema.application.id })
      .from(schema.member)
      .innerJoin(schema.application, eq(schema.application.organizationId, schema.member.organizationId))
      .where(
        and(
          eq(schema.member.organizationId, organizationId),
          eq(schema.member.id, memberId),
          inArray(schema.application.id, [...applicationIds]),
        ),
      ),
  );
}

/** Replaces the applications a member of the organisation is limited to; null leaves none (they see all). */
export async function setMemberScope(
  executor: Executor,
  organizationId: string,
  memberId: string,
  applicationIds: readonly string[] | null,
) {
  await executor
    .delete(schema.memberApplicationScope)
    .where(
      and(
        eq(schema.memberApplicationScope.memberId, memberId),
        inArray(schema.memberApplicationScope.memberId, organizationMembers(executor, organizationId, 'id')),
      ),
    );
  await addToMemberScope(executor, organizationId, memberId, applicationIds ?? []);
}

/**
 * Removes a member of the organisation by removing their portal user: a user belongs to one
 * organisation, and the user's sessions, sign-in methods and application scopes go with it in the
 * same statement, so the next request of any of their sessions is refused.
 */
export async function deleteMemberUser(executor: Executor, organizationId: string, userId: string) {
  await executor
    .delete(schema.user)
    .where(
      and(
        eq(schema.user.id, userId),
        inArray(schema.user.id, organizationMembers(executor, organizationId, 'userId')),
      ),
    );
}

export async function findPasswordHash(executor: Executor, userId: string): Promise<string | undefined> {
  const [row] = await executor
    .select({ password: schema.account.password })
    .from(schema.account)
    .where(and(eq(schema.account.userId, userId), eq(schema.account.providerId, CREDENTIAL_PROVIDER_ID)))
    .limit(1);
  return row?.password ?? undefined;
}

/** Stores a new password hash for a user who is a member of the organisation. */
export async function updatePassword(
  executor: Executor,
  organizationId: string,
  userId: string,
  passwordHash: string,
) {
  await executor
    .update(schema.account)
    .set({ password: passwordHash, updatedAt: new Date() })
    .where(
      and(
        eq(schema.account.userId, userId),
        eq(schema.account.providerId, CREDENTIAL_PROVIDER_ID),
        inArray(schema.account.userId, organizationMembers(executor, organizationId, 'userId')),
      ),
    );
}

/** Ends every session but one of a user who is a member of the organisation. */
export async function deleteOtherSessions(
  executor: Executor,
  organizationId: string,
  userId: string,
  keepSessionId: string,
) {
  await executor
    .delete(schema.session)
    .where(
      and(
        eq(schema.session.userId, userId),
        ne(schema.session.id, keepSessionId),
        inArray(schema.session.userId, organizationMembers(executor, organizationId, 'userId')),
      ),
    );
}
