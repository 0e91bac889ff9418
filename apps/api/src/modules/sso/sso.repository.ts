import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { SUPER_ADMIN_ROLE } from '@portal/contracts';
import type { Executor } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

export type SsoProviderRow = typeof schema.ssoProvider.$inferSelect;

export async function findProviderOfOrganization(executor: Executor, organizationId: string) {
  const [row] = await executor
    .select()
    .from(schema.ssoProvider)
    .where(eq(schema.ssoProvider.organizationId, organizationId));
  return row;
}

/** Whether any organisation has connected an identity provider: the sign-in page offers SSO then. */
export async function anyProviderExists(executor: Executor): Promise<boolean> {
  const [row] = await executor.select({ id: schema.ssoProvider.id }).from(schema.ssoProvider).limit(1);
  return Boolean(row);
}

export async function upsertProvider(executor: Executor, values: typeof schema.ssoProvider.$inferInsert) {
  const { id: _id, ...changes } = values;
  await executor
    .insert(schema.ssoProvider)
    .values(values)
    .onConflictDoUpdate({ target: schema.ssoProvider.organizationId, set: { ...changes, updatedAt: new Date() } });
}

export async function setProviderDomain(executor: Executor, organizationId: string, domain: string) {
  await executor
    .update(schema.ssoProvider)
    .set({ domain, updatedAt: new Date() })
    .where(eq(schema.ssoProvider.organizationId, organizationId));
}

export async function deleteProvider(executor: Executor, organizationId: string) {
  await executor.delete(schema.ssoProvider).where(eq(schema.ssoProvider.organizationId, organizationId));
}

/**
 * Forgets which identity-provider accounts are which users: done when the organisation connects
 * another identity provider under the same provider id, whose subject ids could name other people.
 */
export async function deleteProviderAccounts(executor: Executor, providerId: string) {
  await executor.delete(schema.account).where(eq(schema.account.providerId, providerId));
}

export async function emailDomainsOf(executor: Executor, organizationId: string): Promise<string[]> {
  const rows = await executor
    .select({ domain: schema.ssoEmailDomain.domain })
    .from(schema.ssoEmailDomain)
    .where(eq(schema.ssoEmailDomain.organizationId, organizationId))
    .orderBy(schema.ssoEmailDomain.domain);
  return rows.map((row) => row.domain);
}

/** The domains among these that another organisation owns. */
export async function domainsOwnedElsewhere(executor: Executor, organizationId: string, domains: readonly string[]) {
  if (domains.length === 0) return [];
  const rows = await executor
    .select({ domain: schema.ssoEmailDomain.domain })
    .from(schema.ssoEmailDomain)
    .where(
      and(inArray(schema.ssoEmailDomain.domain, [...domains]), ne(schema.ssoEmailDomain.organizationId, organizationId)),
    );
  return rows.map((row) => row.domain);
}

export async function replaceEmailDomains(executor: Executor, organizationId: string, domains: readonly string[]) {
  await executor.delete(schema.ssoEmailDomain).where(eq(schema.ssoEmailDomain.organizationId, organizationId));
  if (domains.length > 0)
    await executor.insert(schema.ssoEmailDomain).values(
      domains.map((domain) => ({ domain, organizationId, verificationToken: crypto.randomUUID().replaceAll('-', '') })),
    );
}

/** The default applications of new SSO members, with their names (for the page). */
export async function defaultApplicationsOf(executor: Executor, organizationId: string) {
  return executor
    .select({ id: schema.application.id, name: schema.application.name })
    .from(schema.ssoDefaultApplicationScope)
    .innerJoin(schema.application, eq(schema.application.id, schema.ssoDefaultApplicationScope.applicationId))
    .where(eq(schema.ssoDefaultApplicationScope.organizationId, organizationId))
    .orderBy(schema.application.name);
}

/** Which of these application ids belong to the organisation. */
export async function applicationsOfOrganization(executor: Executor, organizationId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const rows = await executor
    .select({ id: schema.application.id })
    .from(schema.application)
    .where(and(eq(schema.application.organizationId, organizationId), inArray(schema.application.id, [...ids])));
  return rows.map((row) => row.id);
}

export async function replaceDefaultApplications(executor: Executor, organizationId: string, ids: readonly string[]) {
  await executor
    .delete(schema.ssoDefaultApplicationScope)
    .where(eq(schema.ssoDefaultApplicationScope.organizationId, organizationId));
  if (ids.length > 0)
    await executor
      .insert(schema.ssoDefaultApplicationScope)
      .values(ids.map((applicationId) => ({ organizationId, applicationId })));
}

/** The organisation that uses this SSO domain, compared without case. */
export async function organizationWithSsoDomain(executor: Executor, domain: string) {
  const [row] = await executor
    .select({ id: schema.organization.id })
    .from(schema.organization)
    .where(sql`lower(${schema.organization.ssoDomain}) = ${domain.toLowerCase()}`);
  return row;
}

/**
 * Ends the sessions of the organisation's members who are not super-admins: once SSO is required
 * they sign in again through the identity provider.
 */
export async function endSessionsOfNonSuperAdmins(executor: Executor, organizationId: string) {
  await executor.delete(schema.session).where(
    inArray(
      schema.session.userId,
      executor
        .select({ userId: schema.member.userId })
        .from(schema.member)
        .where(and(eq(schema.member.organizationId, organizationId), ne(schema.member.roleId, SUPER_ADMIN_ROLE))),
    ),
  );
}
