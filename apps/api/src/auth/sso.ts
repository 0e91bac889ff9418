import crypto from 'node:crypto';
import { tryGetCurrentAuthEndpointContext } from '@better-auth/core/context';
import type { DBAdapter } from '@better-auth/core/db/adapter';
import { sso } from '@better-auth/sso';
import {
  ERROR_DEFINITIONS,
  SUPER_ADMIN_ROLE,
  defaultErrorMessage,
  isValidEmail,
  messageText,
  type ErrorCode,
} from '@portal/contracts';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { and, eq, gt, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { isOpenInvitation, lockOrganizationAndCountSeats } from '../db/organization-seats.ts';
import * as schema from '../db/schema.ts';
import type { IdentityAudit } from './sign-in-audit.ts';

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

type OrganizationRow = typeof schema.organization.$inferSelect;

async function organizationOfProvider(executor: Db | Tx, providerId: string) {
  const [row] = await executor
    .select({ organization: schema.organization })
    .from(schema.ssoProvider)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.ssoProvider.organizationId))
    .where(eq(schema.ssoProvider.providerId, providerId));
  if (!row) throw refusal('SSO_ORGANIZATION_NOT_FOUND');
  return row.organization;
}

/**
 * What the organisation's own rules say of an address, before anything about who has it: proven
 * when its domain is one the organisation verified by DNS, admitted (may make a new member) when
 * proven or on the allow-list.
 */
async function standingOf(executor: Db | Tx, organization: OrganizationRow, address: string) {
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const [verified] = await executor
    .select({ domain: schema.ssoEmailDomain.domain })
    .from(schema.ssoEmailDomain)
    .where(
      and(
        eq(schema.ssoEmailDomain.organizationId, organization.id),
        eq(schema.ssoEmailDomain.domain, domain),
        isNotNull(schema.ssoEmailDomain.verifiedAt),
      ),
    );
  const proven = Boolean(verified);
  return { proven, admitted: proven || organization.ssoAllowedEmails.includes(address) };
}

/** The portal user with this address: their organisation, whether the address is verified, and their ways to sign in. */
async function personWithAddress(executor: Db | Tx, address: string) {
  const [person] = await executor
    .select({
      id: schema.user.id,
      emailVerified: schema.user.emailVerified,
      organizationId: schema.member.organizationId,
      signInMethods: sql<number>`count(${schema.account.id})::int`,
    })
    .from(schema.user)
    .leftJoin(schema.member, eq(schema.member.userId, schema.user.id))
    .leftJoin(schema.account, eq(schema.account.userId, schema.user.id))
    .where(eq(schema.user.email, address))
    .groupBy(schema.user.id, schema.member.organizationId);
  return person;
}

type Person = NonNullable<Awaited<ReturnType<typeof personWithAddress>>>;

/** The organisation's open invitation of this address (locked in a transaction: one join uses it). */
async function openInvitationOf(executor: Db | Tx, organizationId: string, address: string, lock: boolean) {
  const query = executor
    .select()
    .from(schema.invitation)
    .where(
      and(
        eq(schema.invitation.organizationId, organizationId),
        eq(schema.invitation.email, address),
        isOpenInvitation,
        gt(schema.invitation.expiresAt, new Date()),
      ),
    )
    .limit(1);
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

type InvitationRow = typeof schema.invitation.$inferSelect;

/** Whether an SSO sign-in may go on, and as what; a refusal names its reason for the server log only. */
type Verdict =
  | { admit: 'member' }
  | { admit: 'join'; invitation: InvitationRow | undefined }
  | { refuse: ErrorCode; reason: string };

/**
 * Who an organisation's identity provider may sign in (docs/security.md, SSO trust model):
 * - its members, and people it invited who have a portal user but no organisation, when the address
 *   is at a domain it proved and the portal has verified it: an existing user is never linked
 *   because of a mere claim, and never taken from another organisation;
 * - new people (nobody can sign in with the address yet) from a proven domain or the allow-list.
 * A refusal tells nothing of the person: an address the organisation does not admit is answered
 * NOT_IN_WHITELIST whoever has it (§8, the truth for this organisation); an admitted address that
 * belongs to someone the organisation may not take is answered with the one SSO_SIGN_IN_REFUSED.
 */
function verdictOf(
  organization: OrganizationRow,
  standing: { proven: boolean; admitted: boolean },
  person: Person | undefined,
  invitation: InvitationRow | undefined,
): Verdict {
  const refused = (reason: string): Verdict => ({
    refuse: standing.admitted ? 'SSO_SIGN_IN_REFUSED' : 'NOT_IN_WHITELIST',
    reason,
  });
  // A user nobody can sign in as (one a refused SSO sign-in left behind) is as good as new.
  if (person && (person.signInMethods > 0 || person.organizationId !== null)) {
    if (person.organizationId !== null && person.organizationId !== organization.id)
      return refused('member of another organisation');
    if (!standing.proven) return refused('existing user at a domain the organisation has not proven');
    if (!person.emailVerified) return refused('existing user whose address is not verified');
    if (person.organizationId === organization.id) return { admit: 'member' };
    if (!invitation) return refused('existing user without an invitation');
    return { admit: 'join', invitation };
  }
  if (!standing.admitted) return { refuse: 'NOT_IN_WHITELIST', reason: 'address neither proven nor allowed' };
  return { admit: 'join', invitation };
}

/** The address an identity provider asserted, as the portal compares addresses; undefined when it is not one. */
export function normalizedSsoAddress(asserted: string): string | undefined {
  const address = asserted.trim().toLowerCase();
  return isValidEmail(address) ? address : undefined;
}

/** Whether the organisation has a seat left: members and open invitations hold them (as invitations count). */
async function lockOrganizationWithFreeSeat(tx: Tx, organization: OrganizationRow) {
  const seats = await lockOrganizationAndCountSeats(tx, organization.id);
  return seats.members + seats.openInvitations < organization.memberLimit;
}

/**
 * The rules an SSO sign-in follows (verdictOf), at each step the SSO plugin takes: before it looks
 * the asserted address up, before it makes a new user, before it links the sign-in method to a
 * user (where the person joins, in one transaction under the organisation's seat lock), and before
 * the session. A refused person leaves nothing behind; the reason goes to the server log only.
 */
export function ssoMembership(db: Db, log: FastifyBaseLogger, audit: Pick<IdentityAudit, 'joinedBySso'>) {
  function refuse(code: ErrorCode, detail: Record<string, unknown>): APIError {
    log.warn({ sso: { ...detail, answered: code } }, 'single sign-on refused');
    return refusal(code);
  }

  /** The verdict's refusal as an error to throw; its admission otherwise. */
  function admission(verdict: Verdict, detail: Record<string, unknown>) {
    if ('refuse' in verdict) throw refuse(verdict.refuse, { ...detail, reason: verdict.reason });
    return verdict;
  }

  return {
    /**
     * Before the plugin looks up the user with the asserted address: the address trimmed,
     * lower-cased and checked as sign-up checks it, and anyone the rules refuse refused now, so the
     * plugin's own linking never reaches them. Answers the address to look up.
     */
    async beforeAddressLookup(asserted: string, providerId: string): Promise<string> {
      const address = normalizedSsoAddress(asserted);
      if (!address)
        throw refuse('SSO_SIGN_IN_REFUSED', { providerId, reason: 'not a valid address', asserted });
      const organization = await organizationOfProvider(db, providerId);
      const person = await personWithAddress(db, address);
      const verdict = verdictOf(
        organization,
        await standingOf(db, organization, address),
        person,
        await openInvitationOf(db, organization.id, address, false),
      );
      admission(verdict, { providerId, organizationId: organization.id, userId: person?.id, address });
      return address;
    },

    /** Before a new user is made by an SSO sign-in: refused, or given an SSO member's kind of id and the normalised address. */
    async beforeUserCreated(user: { email: string }, providerId: string) {
      const address = normalizedSsoAddress(user.email);
      if (!address)
        throw refuse('SSO_SIGN_IN_REFUSED', {
          providerId,
          reason: 'not a valid address',
          asserted: user.email,
        });
      const organization = await organizationOfProvider(db, providerId);
      const detail = { providerId, organizationId: organization.id, address };
      const verdict = admission(
        verdictOf(
          organization,
          await standingOf(db, organization, address),
          undefined,
          await openInvitationOf(db, organization.id, address, false),
        ),
        detail,
      );
      const invitation = verdict.admit === 'join' ? verdict.invitation : undefined;
      // An invitation holds its seat already.
      if (!invitation && !(await db.transaction((tx) => lockOrganizationWithFreeSeat(tx, organization))))
        throw refuse('USER_LIMIT_REACHED', { ...detail, reason: 'no seat left' });
      // The identity provider vouches for the address, from a domain the organisation proved or an address it allows.
      return { id: uuidV7(), email: address, emailVerified: true };
    },

    /**
     * Before the SSO sign-in method is linked to a user: the user is a member here, or joins now —
     * with their invitation's role and applications (the invitation is then confirmed), or the
     * organisation's defaults while a seat is free.
     */
    async beforeAccountLinked(userId: string, providerId: string) {
      const organization = await organizationOfProvider(db, providerId);
      await db.transaction(async (tx) => {
        const hasSeat = await lockOrganizationWithFreeSeat(tx, organization);
        const [user] = await tx
          .select({ email: schema.user.email, name: schema.user.name })
          .from(schema.user)
          .where(eq(schema.user.id, userId));
        const detail = { providerId, organizationId: organization.id, userId };
        if (!user) throw refuse('SSO_SIGN_IN_REFUSED', { ...detail, reason: 'user not found' });
        const verdict = admission(
          verdictOf(
            organization,
            await standingOf(tx, organization, user.email),
            await personWithAddress(tx, user.email),
            await openInvitationOf(tx, organization.id, user.email, true),
          ),
          { ...detail, address: user.email },
        );
        if (verdict.admit === 'member') return;
        const { invitation } = verdict;
        if (!invitation && !hasSeat)
          throw refuse('USER_LIMIT_REACHED', { ...detail, reason: 'no seat left' });
        const joined = await joinOrganization(
          tx,
          organization,
          { userId, displayName: user.name.trim() || user.email },
          invitation,
        );
        await audit.joinedBySso(tx, { ...joined, organizationId: organization.id, email: user.email });
      });
    },

    /**
     * Before a session is made. An SSO sign-in ends in a session only for a member of the
     * provider's organisation (a sign-in method linked earlier to someone who is not is refused).
     * Any other sign-in of a member of an organisation that requires SSO must use it, except its
     * super-admins, whose password stays the way in when the IdP fails.
     */
    async beforeSessionCreated(userId: string, ssoProviderId: string | undefined) {
      const [row] = await db
        .select({
          organizationId: schema.member.organizationId,
          enforcedSso: schema.organization.enforcedSso,
          roleId: schema.member.roleId,
        })
        .from(schema.member)
        .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
        .where(eq(schema.member.userId, userId));
      if (ssoProviderId) {
        const organization = await organizationOfProvider(db, ssoProviderId);
        if (row?.organizationId !== organization.id)
          throw refuse('SSO_SIGN_IN_REFUSED', {
            providerId: ssoProviderId,
            organizationId: organization.id,
            userId,
            reason: 'signed-in user is not a member of the organisation',
          });
        return;
      }
      if (row?.enforcedSso && row.roleId !== SUPER_ADMIN_ROLE) throw refusal('SSO_REQUIRED');
    },
  };
}

/**
 * A new member of the organisation: with their invitation's role and applications (still in the
 * organisation and not deleted), which is confirmed, or with the organisation's SSO defaults.
 * Answers the new member's id and role.
 */
async function joinOrganization(
  tx: Tx,
  organization: OrganizationRow,
  user: { userId: string; displayName: string },
  invitation: InvitationRow | undefined,
): Promise<{ memberId: string; roleId: string }> {
  const memberId = uuidV7();
  const roleId = invitation?.roleId ?? organization.ssoDefaultRoleId;
  const allApplications = invitation
    ? invitation.applicationIds === null
    : organization.ssoDefaultAllApplications;
  await tx.insert(schema.member).values({
    id: memberId,
    organizationId: organization.id,
    userId: user.userId,
    displayName: user.displayName,
    roleId,
    allApplications,
  });
  if (invitation) {
    await tx
      .update(schema.invitation)
      .set({ status: 'confirmed', updatedAt: new Date() })
      .where(eq(schema.invitation.id, invitation.id));
    if (invitation.applicationIds?.length)
      await tx.insert(schema.memberApplicationScope).select(
        tx
          .select({
            memberId: sql<string>`${memberId}`.as('member_id'),
            applicationId: schema.application.id,
          })
          .from(schema.application)
          .where(
            and(
              eq(schema.application.organizationId, organization.id),
              inArray(schema.application.id, invitation.applicationIds),
              ne(schema.application.state, 'deleted'),
            ),
          ),
      );
    return { memberId, roleId };
  }
  if (!allApplications)
    await tx.insert(schema.memberApplicationScope).select(
      tx
        .select({
          memberId: sql<string>`${memberId}`.as('member_id'),
          applicationId: schema.ssoDefaultApplicationScope.applicationId,
        })
        .from(schema.ssoDefaultApplicationScope)
        .where(eq(schema.ssoDefaultApplicationScope.organizationId, organization.id)),
    );
  return { memberId, roleId };
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
      await membership.beforeSessionCreated(session.userId, ssoProviderOf(context));
      return undefined;
    },
  };
}

/** A lookup of the asserted address, normalised or refused by the SSO rules first when an SSO sign-in returns. */
function withAddressRules<Adapter extends Pick<DBAdapter, 'findOne'>>(
  adapter: Adapter,
  membership: SsoMembership,
): Adapter {
  return {
    ...adapter,
    async findOne(query: Parameters<DBAdapter['findOne']>[0]) {
      const providerId = ssoProviderOf(tryGetCurrentAuthEndpointContext() as EndpointContext | undefined);
      const [clause, ...others] = query.where ?? [];
      const isAddressLookup = query.model === 'user' && clause?.field === 'email' && others.length === 0;
      if (!providerId || !isAddressLookup || typeof clause.value !== 'string') return adapter.findOne(query);
      const address = await membership.beforeAddressLookup(clause.value, providerId);
      return adapter.findOne({ ...query, where: [{ ...clause, value: address }] });
    },
  };
}

/**
 * better-auth's database adapter with the SSO rules before the plugin's lookup of the asserted
 * address. The plugin reads the address from the IdP as it came and looks its user up before any
 * hook of its own runs, so this is where the address is trimmed, lower-cased and checked (or
 * refused), and where people the portal may not link are refused before the plugin could link them.
 */
export function withSsoAddressRules(adapter: DBAdapter, membership: SsoMembership): DBAdapter {
  return {
    ...withAddressRules(adapter, membership),
    transaction: (callback) =>
      adapter.transaction((transactionAdapter) => callback(withAddressRules(transactionAdapter, membership))),
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
      // The plugin links a sign-in to an existing user only for a provider marked verified, at the
      // domains in its list: the portal marks its providers verified, lists only the domains an
      // organisation proved by DNS (modules/sso), and its own rules (above) decide before the plugin.
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
