import crypto from 'node:crypto';
import { sso } from '@better-auth/sso';
import {
  ERROR_DEFINITIONS,
  SUPER_ADMIN_ROLE,
  defaultErrorMessage,
  formatMessage,
  messageText,
  type ErrorCode,
} from '@portal/contracts';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import * as schema from '../db/schema.ts';
import { lockOrganizationAndCountSeats } from '../db/organization-seats.ts';

/** Every organisation's identity provider has this id, so the URLs pasted into the IdP never change. */
export function ssoProviderIdOf(organizationId: string): string {
  return `sso-${organizationId}`;
}

/** The portal's side of an organisation's identity provider: what its super-admin pastes there. */
export function serviceProviderUrls(publicUrl: string, providerId: string) {
  const metadataUrl = `${publicUrl}/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`;
  return {
    oidcRedirectUrl: `${publicUrl}/api/auth/sso/callback/${providerId}`,
    samlAcsUrl: `${publicUrl}/api/auth/sso/saml2/sp/acs/${providerId}`,
    // The metadata's own address names the portal as a SAML service provider, as most IdPs expect.
    samlEntityId: metadataUrl,
    samlMetadataUrl: metadataUrl,
  };
}

/** The browser endpoints an identity provider sends people back to; the provider id is their last segment. */
const SSO_RETURN_PATH = /^\/api\/auth\/sso\/(?:callback|saml2\/sp\/acs)\/(sso-[A-Za-z0-9-]{1,100})$/;

/** The provider whose sign-in a request finishes, or undefined when it finishes none. */
export function providerIdOfReturn(pathname: string): string | undefined {
  return SSO_RETURN_PATH.exec(pathname)?.[1];
}

/** The better-auth paths that finish an SSO sign-in (as the endpoint context names them). */
const SSO_RETURN_ENDPOINTS = new Set(['/sso/callback/:providerId', '/sso/saml2/sp/acs/:providerId']);

interface EndpointContext {
  path?: string;
  params?: Record<string, string | undefined>;
}

/** The provider id when the database write happens while an SSO sign-in finishes. */
function ssoProviderOf(context: EndpointContext | null | undefined): string | undefined {
  if (!context?.path || !SSO_RETURN_ENDPOINTS.has(context.path)) return undefined;
  return context.params?.providerId;
}

/**
 * A refusal an SSO sign-in ends with: the plugin sends the browser to the error page with the code
 * as `error` and the message as `error_description`, which carries the code too so /sign-in-sso
 * shows the §8 wording for USER_LIMIT_REACHED and NOT_IN_WHITELIST.
 */
function refusal(code: ErrorCode): APIError {
  const status = ERROR_DEFINITIONS[code].status === 404 ? 'NOT_FOUND' : 'FORBIDDEN';
  return new APIError(status, { code, message: `${code}: ${defaultErrorMessage(code)}` });
}

/** UUID version 7 (time-ordered): SSO members' ids, which §2 tells apart from invited members' version 4. */
export function uuidV7(now = Date.now()): string {
  const bytes = crypto.randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function organizationOfProvider(executor: Db | Tx, providerId: string) {
  const [row] = await executor
    .select({ organization: schema.organization })
    .from(schema.ssoProvider)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.ssoProvider.organizationId))
    .where(eq(schema.ssoProvider.providerId, providerId));
  if (!row) throw refusal('SSO_ORGANIZATION_NOT_FOUND');
  return row.organization;
}

/** Whether a new member with this address may join: an owned email domain, or an allowed address. */
async function isAdmitted(
  executor: Db | Tx,
  organization: typeof schema.organization.$inferSelect,
  email: string,
) {
  const address = email.trim().toLowerCase();
  if (organization.ssoAllowedEmails.includes(address)) return true;
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const [owned] = await executor
    .select({ domain: schema.ssoEmailDomain.domain })
    .from(schema.ssoEmailDomain)
    .where(
      and(
        eq(schema.ssoEmailDomain.organizationId, organization.id),
        eq(schema.ssoEmailDomain.domain, domain),
      ),
    );
  return Boolean(owned);
}

/** Whether the organisation has a seat left: members and open invitations hold them (as invitations count). */
async function lockOrganizationWithFreeSeat(tx: Tx, organization: typeof schema.organization.$inferSelect) {
  const seats = await lockOrganizationAndCountSeats(tx, organization.id);
  if (seats.members + seats.openInvitations >= organization.memberLimit) throw refusal('USER_LIMIT_REACHED');
}

/**
 * Just-in-time membership: the rules an SSO sign-in follows before a user or a sign-in method is
 * written, so a refused person leaves nothing behind. A user who is a member already must be one of
 * this organisation; anyone else joins it with its default role and applications, from its email
 * domains or allow-list, while a seat is free.
 */
export function ssoMembership(db: Db) {
  return {
    /** Before a new user is made by an SSO sign-in: refused, or given an SSO member's kind of id. */
    async beforeUserCreated(user: { email: string }, providerId: string) {
      const organization = await organizationOfProvider(db, providerId);
      if (!(await isAdmitted(db, organization, user.email))) throw refusal('NOT_IN_WHITELIST');
      await db.transaction((tx) => lockOrganizationWithFreeSeat(tx, organization));
      // The identity provider vouches for the address, from a domain the organisation owns or allows.
      return { id: uuidV7(), emailVerified: true };
    },

    /** Before the SSO sign-in method is linked to a user: the user is, or becomes, a member here. */
    async beforeAccountLinked(userId: string, providerId: string) {
      const organization = await organizationOfProvider(db, providerId);
      await db.transaction(async (tx) => {
        const [user] = await tx
          .select({
            email: schema.user.email,
            name: schema.user.name,
            organizationId: schema.member.organizationId,
          })
          .from(schema.user)
          .leftJoin(schema.member, eq(schema.member.userId, schema.user.id))
          .where(eq(schema.user.id, userId));
        if (!user) throw refusal('NOT_IN_WHITELIST');
        if (user.organizationId === organization.id) return;
        if (user.organizationId !== null)
          throw new APIError('FORBIDDEN', {
            code: 'MEMBER_EMAIL_ALREADY_EXISTS_IN_OTHER_ORG',
            message: formatMessage('invitation.error.memberInOtherOrg', { email: user.email }),
          });
        if (!(await isAdmitted(tx, organization, user.email))) throw refusal('NOT_IN_WHITELIST');
        await lockOrganizationWithFreeSeat(tx, organization);
        const memberId = uuidV7();
        await tx.insert(schema.member).values({
          id: memberId,
          organizationId: organization.id,
          userId,
          displayName: user.name.trim() || user.email,
          roleId: organization.ssoDefaultRoleId,
          allApplications: organization.ssoDefaultAllApplications,
        });
        if (!organization.ssoDefaultAllApplications) {
          await tx.insert(schema.memberApplicationScope).select(
            tx
              .select({
                memberId: sql<string>`${memberId}`.as('member_id'),
                applicationId: schema.ssoDefaultApplicationScope.applicationId,
              })
              .from(schema.ssoDefaultApplicationScope)
              .where(eq(schema.ssoDefaultApplicationScope.organizationId, organization.id)),
          );
        }
      });
    },

    /**
     * Before any other sign-in makes a session: a member of an organisation that requires SSO must
     * use it, except its super-admins, whose password stays the way in when the IdP fails.
     */
    async beforeSessionCreated(userId: string) {
      const [row] = await db
        .select({ enforcedSso: schema.organization.enforcedSso, roleId: schema.member.roleId })
        .from(schema.member)
        .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
        .where(eq(schema.member.userId, userId));
      if (row?.enforcedSso && row.roleId !== SUPER_ADMIN_ROLE) throw refusal('SSO_REQUIRED');
    },
  };
}

export type SsoMembership = ReturnType<typeof ssoMembership>;

/** The database hooks of SSO sign-ins, merged into the portal's own (auth.ts). */
export function ssoDatabaseHooks(membership: SsoMembership) {
  return {
    userCreateBefore: async (user: { email: string }, context: EndpointContext | null) => {
      const providerId = ssoProviderOf(context);
      if (!providerId) return undefined;
      return { data: await membership.beforeUserCreated(user, providerId) };
    },
    accountCreateBefore: async (
      account: { providerId: string; userId: string },
      context: EndpointContext | null,
    ) => {
      const providerId = ssoProviderOf(context);
      if (!providerId || account.providerId !== providerId) return undefined;
      await membership.beforeAccountLinked(account.userId, providerId);
      return undefined;
    },
    sessionCreateBefore: async (session: { userId: string }, context: EndpointContext | null) => {
      if (ssoProviderOf(context)) return undefined;
      await membership.beforeSessionCreated(session.userId);
      return undefined;
    },
  };
}

/** The fields of `/sign-in/sso` the web app sends; better-auth's others (scopes, extra IdP parameters) are not offered. */
const SIGN_IN_FIELDS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL'] as const;

/**
 * People name their organisation by its SSO domain (/sign-in-sso); the plugin finds providers by id,
 * so the domain is turned into the organisation's provider id before it runs.
 */
function signInByOrganizationDomain(db: Db): BetterAuthPlugin {
  return {
    id: 'sso-sign-in-by-organization-domain',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/sign-in/sso',
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as Record<string, unknown>;
            const domain = typeof body.organizationSlug === 'string' ? body.organizationSlug.trim() : '';
            if (!domain)
              throw new APIError('BAD_REQUEST', {
                code: 'VALIDATION_ERROR',
                message: messageText('validation.ssoDomain.required'),
                field: 'organizationSlug',
              });
            const [row] = await db
              .select({ providerId: schema.ssoProvider.providerId })
              .from(schema.organization)
              .innerJoin(schema.ssoProvider, eq(schema.ssoProvider.organizationId, schema.organization.id))
              .where(sql`lower(${schema.organization.ssoDomain}) = ${domain.toLowerCase()}`);
            if (!row) throw refusal('SSO_ORGANIZATION_NOT_FOUND');
            // better-auth merges a hook's body into the request's without clearing fields, so the
            // request's own body is rewritten: the domain becomes the provider id, nothing else stays.
            for (const field of Object.keys(body))
              if (!(SIGN_IN_FIELDS as readonly string[]).includes(field)) delete body[field];
            body.providerId = row.providerId;
          }),
        },
      ],
    },
  };
}

/**
 * @better-auth/sso as the portal uses it: providers are written by the portal's own Single sign-on
 * page (modules/sso), signed SAML assertions with timestamps, answers only to requests the portal
 * made (InResponseTo, no IdP-initiated sign-in), and no organisation plugin: membership follows the
 * hooks above.
 */
export function portalSso(db: Db): BetterAuthPlugin[] {
  return [
    signInByOrganizationDomain(db),
    sso({
      organizationProvisioning: { disabled: true },
      // Only a verified provider's sign-ins link to existing users with the same address; the
      // portal marks its providers verified and lets its own rules (above) decide who may be linked.
      domainVerification: { enabled: true },
      saml: {
        requireTimestamps: true,
        allowIdpInitiated: false,
        enableInResponseToValidation: true,
        algorithms: { onDeprecated: 'reject' },
      },
    }) as unknown as BetterAuthPlugin,
  ];
}
