import { asc, count, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { listPage, listTotalOf, wholeRowsPage, type WithListTotal } from '../../db/list-page.ts';
import * as schema from '../../db/schema.ts';

/*
 * The operator acts across organisations: the list below reads them all; every read and write of
 * one organisation is given its id and scoped by it.
 */

export type OrganizationRow = typeof schema.organization.$inferSelect;

/** A page of every organisation, oldest first (so pages stay put as organisations are added), and the total. */
export async function listOrganizations(executor: Executor, page: { number: number; size: number }) {
  const { organization } = schema;
  return listPage<OrganizationRow>(
    executor,
    organization,
    undefined,
    () =>
      wholeRowsPage(executor, organization, listTotalOf(executor, organization, undefined))
        .orderBy(asc(organization.createdAt), asc(organization.id))
        .limit(page.size)
        .offset((page.number - 1) * page.size) as PromiseLike<WithListTotal<OrganizationRow>[]>,
  );
}

export async function findOrganization(
  executor: Executor,
  organizationId: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await executor
    .select()
    .from(schema.organization)
    .where(eq(schema.organization.id, organizationId));
  return row;
}

/** The organisation of the member signed up with this address (any case), if there is one. */
export async function findOrganizationIdOfMemberEmail(
  executor: Executor,
  email: string,
): Promise<string | undefined> {
  const { member, user } = schema;
  const [row] = await executor
    .select({ organizationId: member.organizationId })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(sql`lower(${user.email})`, email.toLowerCase()))
    .limit(1);
  return row?.organizationId;
}

/** How many applications and members the organisation has, against its limits. */
export async function countApplicationsAndMembers(executor: Executor, organizationId: string) {
  const { application, member } = schema;
  const [[applications], [members]] = await Promise.all([
    executor
      .select({ total: count() })
      .from(application)
      .where(eq(application.organizationId, organizationId)),
    executor.select({ total: count() }).from(member).where(eq(member.organizationId, organizationId)),
  ]);
  return { applications: applications?.total ?? 0, members: members?.total ?? 0 };
}

/**
 * The user with this address (any case), locked for the transaction, with their membership, the
 * organisation they are a member of and whether it requires a second factor.
 */
export async function lockUserByEmail(tx: Tx, email: string) {
  const { member, organization, user } = schema;
  const [row] = await tx
    .select({
      id: user.id,
      email: user.email,
      twoFactorEnabled: user.twoFactorEnabled,
      memberId: member.id,
      organizationId: member.organizationId,
      requireTwoFactor: organization.requireTwoFactor,
    })
    .from(user)
    .leftJoin(member, eq(member.userId, user.id))
    .leftJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(sql`lower(${user.email})`, email.toLowerCase()))
    .limit(1)
    .for('update', { of: user });
  return row;
}

/**
 * Removes the user's second factor (the authenticator secret and backup codes, and the flag that
 * makes sign-ins ask for a code) and ends every session they have.
 */
export async function removeSecondFactorAndEndSessions(tx: Tx, userId: string) {
  const { session, twoFactor, user } = schema;
  await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
  await tx.update(user).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(user.id, userId));
  await tx.delete(session).where(eq(session.userId, userId));
}
