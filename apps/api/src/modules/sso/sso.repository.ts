import crypto from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import { SUPER_ADMIN_ROLE } from '@portal/contracts';
import type { Executor } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

export type SsoProviderRow = typeof schema.ssoProvider.$inferSelect;

const HOUR_MS = 3_600_000;

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

/**
 * PUT's create-or-replace of the organisation's one identity provider: the first update inserts its
 * row, later ones replace its settings (the row keeps its id).
 */
export async function updateProvider(executor: Executor, values: typeof schema.ssoProvider.$inferInsert) {
  const { id: _id, ...changes } = values;
  await executor
    .insert(schema.ssoProvider)
    .values(values)
    .onConflictDoUpdate({ target: schema.ssoProvider.organizationId, set: { ...changes, updatedAt: new Date() } });
}

/** Removes the organisation's identity provider; answers the row removed, if there was one. */
export async function deleteProvider(executor: Executor, organizationId: string) {
  const [row] = await executor
    .delete(schema.ssoProvider)
    .where(eq(schema.ssoProvider.organizationId, organizationId))
    .returning();
  return row;
}

/**
 * The organisation's SSO settings, locked until the transaction ends: changes to its SSO are made one
 * at a time, and each reads what it replaces.
 */
export async function lockOrganizationSsoSettings(executor: Executor, organizationId: string) {
  const [row] = await executor
    .select({
      name: schema.organization.name,
      ssoDomain: schema.organization.ssoDomain,
      ssoAllowedEmails: schema.organization.ssoAllowedEmails,
      ssoDefaultRoleId: schema.organization.ssoDefaultRoleId,
      ssoDefaultAllApplications: schema.organization.ssoDefaultAllApplications,
      enforcedSso: schema.organization.enforcedSso,
    })
    .from(schema.organization)
    .where(eq(schema.organization.id, organizationId))
    .for('update');
  return row;
}

/**
 * Forgets which identity-provider accounts are which users: done when the organisation connects
 * another identity provider under the same provider id, whose subject ids could name other people.
 */
export async function deleteProviderAccounts(executor: Executor, providerId: string) {
  await executor.delete(schema.account).where(eq(schema.account.providerId, providerId));
}

export type EmailDomainRow = typeof schema.ssoEmailDomain.$inferSelect;

/** The email domains the organisation lists, with their proof state. */
export async function emailDomainsOf(executor: Executor, organizationId: string): Promise<EmailDomainRow[]> {
  return executor
    .select()
    .from(schema.ssoEmailDomain)
    .where(eq(schema.ssoEmailDomain.organizationId, organizationId))
    .orderBy(schema.ssoEmailDomain.domain);
}

export async function findEmailDomain(executor: Executor, organizationId: string, domain: string) {
  const [row] = await executor
    .select()
    .from(schema.ssoEmailDomain)
    .where(and(eq(schema.ssoEmailDomain.organizationId, organizationId), eq(schema.ssoEmailDomain.domain, domain)));
  return row;
}

/** The domains among these that another organisation has verified (pending claims elsewhere do not count). */
export async function domainsVerifiedElsewhere(
  executor: Executor,
  organizationId: string,
  domains: readonly string[],
): Promise<string[]> {
  if (domains.length === 0) return [];
  const rows = await executor
    .select({ domain: schema.ssoEmailDomain.domain })
    .from(schema.ssoEmailDomain)
    .where(
      and(
        inArray(schema.ssoEmailDomain.domain, [...domains]),
        ne(schema.ssoEmailDomain.organizationId, organizationId),
        isNotNull(schema.ssoEmailDomain.verifiedAt),
      ),
    );
  return rows.map((row) => row.domain);
}

/**
 * The organisation lists exactly these domains: those it lists already keep their token and proof,
 * new ones start pending with a token of their own, and the others are removed.
 */
export async function replaceEmailDomains(executor: Executor, organizationId: string, domains: readonly string[]) {
  await executor
    .delete(schema.ssoEmailDomain)
    .where(
      and(
        eq(schema.ssoEmailDomain.organizationId, organizationId),
        domains.length > 0 ? notInArray(schema.ssoEmailDomain.domain, [...domains]) : undefined,
      ),
    );
  if (domains.length > 0)
    await executor
      .insert(schema.ssoEmailDomain)
      .values(domains.map((domain) => ({ domain, organizationId, verificationToken: newVerificationToken() })))
      .onConflictDoNothing({ target: [schema.ssoEmailDomain.organizationId, schema.ssoEmailDomain.domain] });
}

/** 128 random bits, the secret part of the TXT record: only the organisation that lists the domain sees it. */
function newVerificationToken(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** The row as it was read, still listed with the same token: a check never writes over a domain removed and listed again. */
function sameClaim(row: Pick<EmailDomainRow, 'organizationId' | 'domain' | 'verificationToken'>) {
  return and(
    eq(schema.ssoEmailDomain.organizationId, row.organizationId),
    eq(schema.ssoEmailDomain.domain, row.domain),
    eq(schema.ssoEmailDomain.verificationToken, row.verificationToken),
  );
}

/**
 * A check's outcome: when DNS was asked, what went wrong, and the proof's time (renewed, kept or
 * withdrawn). Written only while the claim is as the check read it, pending or verified: of two checks
 * at once, one moves the domain between the two, so the move is recorded once. Answers whether it wrote.
 */
export async function recordEmailDomainCheck(
  executor: Executor,
  row: EmailDomainRow,
  values: Pick<EmailDomainRow, 'checkedAt' | 'checkError' | 'verifiedAt'>,
): Promise<boolean> {
  const proofAsRead = row.verifiedAt
    ? isNotNull(schema.ssoEmailDomain.verifiedAt)
    : isNull(schema.ssoEmailDomain.verifiedAt);
  const written = await executor
    .update(schema.ssoEmailDomain)
    .set(values)
    .where(and(sameClaim(row), proofAsRead))
    .returning({ domain: schema.ssoEmailDomain.domain });
  return written.length > 0;
}

/**
 * The organisation's provider links existing users only at its verified domains (the SSO plugin reads
 * this comma-separated list); without any, the provider id, which matches no address. Computed from
 * the committed rows in one statement, so the last of several changes leaves the right list.
 */
export async function syncProviderDomain(executor: Executor, organizationId: string) {
  const domains = schema.ssoEmailDomain;
  await executor
    .update(schema.ssoProvider)
    .set({
      domain: sql`coalesce((SELECT string_agg(${domains.domain}, ',' ORDER BY ${domains.domain}) FROM ${domains} WHERE ${domains.organizationId} = ${organizationId} AND ${domains.verifiedAt} IS NOT NULL), ${schema.ssoProvider.providerId})`,
      updatedAt: new Date(),
    })
    .where(eq(schema.ssoProvider.organizationId, organizationId));
}

/**
 * Domains whose proof is due a re-check: verified ones daily, pending ones hourly in the week after
 * they were listed and daily after that.
 */
export async function emailDomainsDueForCheck(executor: Executor, now: Date, limit: number) {
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const dayAgo = new Date(now.getTime() - 24 * HOUR_MS);
  const weekAgo = new Date(now.getTime() - 7 * 24 * HOUR_MS);
  const checkedBefore = (time: Date) =>
    or(isNull(schema.ssoEmailDomain.checkedAt), lt(schema.ssoEmailDomain.checkedAt, time));
  return executor
    .select()
    .from(schema.ssoEmailDomain)
    .where(
      or(
        checkedBefore(dayAgo),
        and(
          isNull(schema.ssoEmailDomain.verifiedAt),
          gt(schema.ssoEmailDomain.createdAt, weekAgo),
          checkedBefore(hourAgo),
        ),
      ),
    )
    .orderBy(sql`${schema.ssoEmailDomain.checkedAt} ASC NULLS FIRST`)
    .limit(limit);
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
