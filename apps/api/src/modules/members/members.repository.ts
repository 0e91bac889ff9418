import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ApplicationScope, ApplicationState } from '@portal/contracts';
import { CREDENTIAL_PROVIDER_ID } from '../../auth/auth.ts';
import type { Db, Tx } from '../../db/client.ts';
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
  roleId: string;
  allApplications: boolean;
  lastLoginAt: Date | null;
  email: string;
  hasPassword: boolean;
};

function membersQuery(db: Db | Tx, where: ReturnType<typeof and>) {
  return db
    .select(MEMBER_ROW)
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(where);
}

/** An organisation's members by display name (then id, so that equal names keep one order). */
export async function listMembers(db: Db, organizationId: string, limit: number) {
  const inOrganization = eq(schema.member.organizationId, organizationId);
  const [rows, [totalRow]] = await Promise.all([
    membersQuery(db, inOrganization)
      .orderBy(asc(sql`lower(${schema.member.displayName})`), asc(schema.member.id))
      .limit(limit),
    db.select({ total: count() }).from(schema.member).where(inOrganization),
  ]);
  return { rows: rows as MemberRow[], total: totalRow?.total ?? 0 };
}

export async function findMember(
  db: Db | Tx,
  organizationId: string,
  memberId: string,
): Promise<MemberRow | undefined> {
  const [row] = await membersQuery(
    db,
    and(eq(schema.member.organizationId, organizationId), eq(schema.member.id, memberId)),
  ).limit(1);
  return row as MemberRow | undefined;
}

/** The selected applications (id and name) of each given member, for members limited to some. */
export async function scopesOfMembers(db: Db, memberIds: string[]): Promise<Map<string, ApplicationScope[]>> {
  const scopes = new Map<string, ApplicationScope[]>();
  if (memberIds.length === 0) return scopes;
  const rows = await db
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
  db: Db | Tx,
  organizationId: string,
  applicationIds: readonly string[],
  states: readonly ApplicationState[],
): Promise<ApplicationScope[]> {
  if (applicationIds.length === 0) return [];
  return db
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

/** Replaces a member's role, name and application access in one transaction. */
export async function updateMember(
  db: Db,
  memberId: string,
  values: { displayName: string; roleId: string; applicationIds: string[] | null },
) {
  await db.transaction(async (tx) => {
    await tx
      .update(schema.member)
      .set({
        displayName: values.displayName,
        roleId: values.roleId,
        allApplications: values.applicationIds === null,
        updatedAt: new Date(),
      })
      .where(eq(schema.member.id, memberId));
    await setMemberScope(tx, memberId, values.applicationIds);
  });
}

export async function setMemberScope(tx: Tx, memberId: string, applicationIds: string[] | null) {
  await tx.delete(schema.memberApplicationScope).where(eq(schema.memberApplicationScope.memberId, memberId));
  if (applicationIds && applicationIds.length > 0) {
    await tx
      .insert(schema.memberApplicationScope)
      .values(applicationIds.map((applicationId) => ({ memberId, applicationId })));
  }
}

export async function renameMember(db: Db, memberId: string, displayName: string) {
  await db
    .update(schema.member)
    .set({ displayName, updatedAt: new Date() })
    .where(eq(schema.member.id, memberId));
}

/**
 * Removes a member by removing their portal user: a user belongs to one organisation, and the
 * user's sessions, sign-in methods and application scopes go with it in the same statement, so
 * the next request of any of their sessions is refused.
 */
export async function deleteMemberUser(db: Db, userId: string) {
  await db.delete(schema.user).where(eq(schema.user.id, userId));
}

export async function findPasswordHash(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ password: schema.account.password })
    .from(schema.account)
    .where(and(eq(schema.account.userId, userId), eq(schema.account.providerId, CREDENTIAL_PROVIDER_ID)))
    .limit(1);
  return row?.password ?? undefined;
}

/** Stores a new password hash and ends the user's other sessions, together. */
export async function replacePassword(db: Db, userId: string, passwordHash: string, keepSessionId: string) {
  await db.transaction(async (tx) => {
    await tx
      .update(schema.account)
      .set({ password: passwordHash, updatedAt: new Date() })
      .where(and(eq(schema.account.userId, userId), eq(schema.account.providerId, CREDENTIAL_PROVIDER_ID)));
    await tx
      .delete(schema.session)
      .where(and(eq(schema.session.userId, userId), ne(schema.session.id, keepSessionId)));
  });
}
