import {
  type AuditChanges,
  type RoleId,
  type SsoConnection,
  type SsoEmailDomain,
  type SsoSettings,
  type TestSsoConnectionRequest,
  type TestSsoConnectionResponse,
  type UpdateSsoConnectionRequest,
  type UpdateSsoSettingsRequest,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { isFreeMailDomain } from '../../auth/free-mail.ts';
import type { Membership, SessionUser } from '../../auth/session.ts';
import { serviceProviderUrls, ssoProviderIdOf } from '../../auth/sso.ts';
import type { Config } from '../../config.ts';
import { uniqueViolationOf, type Db, type Tx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { updateOrganization } from '../accounts/accounts.repository.ts';
import { memberAuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { changedFields, record } from '../audit-log/audit-log.record.ts';
import { REDACTED } from '../audit-log/audit-scrub.ts';
import { requireMembership } from '../members/members.service.ts';
import {
  checkOidcProvider,
  checkSamlProvider,
  describeCertificate,
  type StoredOidcConfig,
  type StoredSamlConfig,
} from './identity-provider-check.ts';
import {
  challengeNameOf,
  checkEmailDomain,
  recordValueOf,
  type DomainProofLookup,
} from './email-domain-proof.ts';
import {
  anyProviderExists,
  applicationsOfOrganization,
  defaultApplicationsOf,
  deleteProvider,
  deleteProviderAccounts,
  domainsVerifiedElsewhere,
  emailDomainsOf,
  endSessionsOfNonSuperAdmins,
  findEmailDomain,
  findProviderOfOrganization,
  lockOrganizationSsoSettings,
  organizationWithSsoDomain,
  replaceDefaultApplications,
  replaceEmailDomains,
  syncProviderDomain,
  updateProvider,
  type EmailDomainRow,
  type SsoProviderRow,
} from './sso.repository.ts';

type OrganizationRow = Membership['organization'];
type StoredConnection = Pick<SsoProviderRow, 'id' | 'issuer' | 'oidcConfig' | 'samlConfig'>;
type SsoSettingsRow = NonNullable<Awaited<ReturnType<typeof lockOrganizationSsoSettings>>>;

/** What the page shows of the saved connection: never the client secret. */
function presentConnection(provider: StoredConnection | undefined): SsoConnection | null {
  if (provider?.oidcConfig) {
    const oidc = JSON.parse(provider.oidcConfig) as StoredOidcConfig;
    return { protocol: 'oidc', issuer: oidc.issuer, clientId: oidc.clientId };
  }
  if (provider?.samlConfig) {
    const saml = JSON.parse(provider.samlConfig) as StoredSamlConfig;
    return { protocol: 'saml', entryPoint: saml.entryPoint, entityId: saml.issuer, ...describeCertificate(saml.cert) };
  }
  return null;
}

/** A listed domain as the page shows it: its state, the record to publish and the last check's outcome. */
function presentEmailDomain(row: EmailDomainRow): SsoEmailDomain {
  return {
    domain: row.domain,
    status: row.verifiedAt ? 'verified' : 'pending',
    record: { type: 'TXT', name: challengeNameOf(row.domain), value: recordValueOf(row.verificationToken) },
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    checkedAt: row.checkedAt?.toISOString() ?? null,
    checkError: (row.checkError as SsoEmailDomain['checkError']) ?? null,
  };
}

/** A connection's fields the audit log compares, as the page shows them; null where its protocol has none. */
function auditedConnectionFields(provider: StoredConnection | undefined) {
  const shown: Partial<Record<string, string | null>> = presentConnection(provider) ?? {};
  return {
    protocol: shown.protocol ?? null,
    issuer: shown.issuer ?? null,
    clientId: shown.clientId ?? null,
    entityId: shown.entityId ?? null,
    entryPoint: shown.entryPoint ?? null,
    certificateFingerprint: shown.certificateFingerprint ?? null,
    certificateExpiresAt: shown.certificateExpiresAt ?? null,
  };
}

/** The parts of a connection compared but never shown, not even in the audit log: the client secret and the IdP's metadata. */
function secretConnectionParts(provider: StoredConnection | undefined) {
  const oidc = provider?.oidcConfig ? (JSON.parse(provider.oidcConfig) as StoredOidcConfig) : undefined;
  const saml = provider?.samlConfig ? (JSON.parse(provider.samlConfig) as StoredSamlConfig) : undefined;
  return {
    clientSecret: oidc?.clientSecret,
    metadataXml: saml && 'metadata' in saml.idpMetadata ? saml.idpMetadata.metadata : undefined,
  };
}

/**
 * What a save or a removal changed of the connection: the fields the page shows, before and after,
 * and whether the client secret or the metadata changed, with their values replaced.
 */
function connectionChanges(before: StoredConnection | undefined, after: StoredConnection | undefined): AuditChanges {
  const changes = changedFields(auditedConnectionFields(before), auditedConnectionFields(after));
  const secretsBefore = secretConnectionParts(before);
  const secretsAfter = secretConnectionParts(after);
  for (const part of ['clientSecret', 'metadataXml'] as const) {
    if (secretsBefore[part] === secretsAfter[part]) continue;
    changes[part] = {
      ...(secretsBefore[part] === undefined ? {} : { before: REDACTED }),
      ...(secretsAfter[part] === undefined ? {} : { after: REDACTED }),
    };
  }
  return changes;
}

function connectionTarget(provider: StoredConnection) {
  return { type: 'sso_connection' as const, id: provider.id, name: provider.issuer };
}

/** The settings the audit log compares; lists sorted, so that a new order is no change. */
function auditedSettings(settings: SsoSettingsRow, emailDomains: string[], defaultApplicationIds: string[]) {
  return {
    domain: settings.ssoDomain,
    emailDomains: emailDomains.toSorted(),
    allowedEmails: settings.ssoAllowedEmails.toSorted(),
    defaultRoleId: settings.ssoDefaultRoleId,
    defaultApplicationScopes: settings.ssoDefaultAllApplications ? null : defaultApplicationIds.toSorted(),
    enforced: settings.enforcedSso,
  };
}

/** The organisation's SSO settings as they are, locked for the rest of the change. */
async function lockedSettings(tx: Tx, organizationId: string): Promise<SsoSettingsRow> {
  const settings = await lockOrganizationSsoSettings(tx, organizationId);
  if (!settings) throw new AppError('NOT_FOUND');
  return settings;
}

/** The organisation's Single sign-on page (beyond the spec): MANAGE_SSO, the super-admin's (decision 037). */
export function ssoService({
  db,
  config,
  domainProofLookup,
  log,
}: {
  db: Db;
  config: Config;
  domainProofLookup: DomainProofLookup;
  log: FastifyBaseLogger;
}) {
  const trustedOrigins = config.ssoTrustedIdpOrigins;

  async function membershipManaging(user: SessionUser): Promise<Membership> {
    const membership = await requireMembership(db, user);
    assertPermission(membership.member.roleId, 'MANAGE_SSO');
    return membership;
  }

  async function organizationManagedBy(user: SessionUser): Promise<OrganizationRow> {
    return (await membershipManaging(user)).organization;
  }

  /** A change by the super-admin managing SSO: their organisation, and who the audit log names. */
  async function changeBy(user: SessionUser, origin: RequestOrigin) {
    const membership = await membershipManaging(user);
    return { organization: membership.organization, context: memberAuditContext(origin, user, membership) };
  }

  async function settingsOf(organization: OrganizationRow): Promise<SsoSettings> {
    const providerId = ssoProviderIdOf(organization.id);
    const [provider, emailDomains, defaultApplications] = await Promise.all([
      findProviderOfOrganization(db, organization.id),
      emailDomainsOf(db, organization.id),
      defaultApplicationsOf(db, organization.id),
    ]);
    return {
      providerId,
      serviceProvider: serviceProviderUrls(config.publicUrl, providerId),
      connection: presentConnection(provider),
      domain: organization.ssoDomain,
      emailDomains: emailDomains.map(presentEmailDomain),
      allowedEmails: organization.ssoAllowedEmails,
      defaultRoleId: organization.ssoDefaultRoleId,
      defaultApplicationScopes: organization.ssoDefaultAllApplications ? null : defaultApplications,
      enforced: organization.enforcedSso,
      signInUrl: organization.ssoDomain
        ? `${config.publicUrl}/sign-in-sso?${new URLSearchParams({ org: organization.ssoDomain, init: 'true' })}`
        : null,
    };
  }

  /** The identity provider checked as the page's Test connection does, and what the portal would store. */
  async function check(organization: OrganizationRow, input: TestSsoConnectionRequest) {
    if (input.protocol === 'oidc') {
      const saved = await findProviderOfOrganization(db, organization.id);
      const savedOidc = saved?.oidcConfig ? (JSON.parse(saved.oidcConfig) as StoredOidcConfig) : undefined;
      // Left empty, the saved secret is kept: it is never sent back to the page.
      const clientSecret = input.clientSecret || savedOidc?.clientSecret;
      if (!clientSecret)
        throw new AppError('VALIDATION_ERROR', { message: 'validation.sso.clientSecret', field: 'clientSecret' });
      const checked = await checkOidcProvider(input, clientSecret, trustedOrigins);
      return { ...checked, oidcConfig: checked.config, samlConfig: undefined };
    }
    if (!input.metadataXml && !input.entryPoint && !input.entityId && !input.certificate)
      throw new AppError('VALIDATION_ERROR', { message: 'validation.sso.saml', field: 'metadataXml' });
    const { samlEntityId } = serviceProviderUrls(config.publicUrl, ssoProviderIdOf(organization.id));
    const checked = await checkSamlProvider(input, samlEntityId, trustedOrigins);
    return { ...checked, oidcConfig: undefined, samlConfig: checked.config };
  }

  return {
    /** Whether the sign-in page offers SSO: once any organisation has connected its identity provider. */
    async signInOffered(): Promise<boolean> {
      return anyProviderExists(db);
    },

    async getSettings(user: SessionUser): Promise<SsoSettings> {
      return settingsOf(await organizationManagedBy(user));
    },

    async testConnection(user: SessionUser, input: TestSsoConnectionRequest): Promise<TestSsoConnectionResponse> {
      const checked = await check(await organizationManagedBy(user), input);
      return { ok: true, protocol: input.protocol, details: checked.details };
    },

    /**
     * Tested again, then stored; another identity provider's accounts are forgotten (their ids could
     * collide). A save that changes anything is recorded, with the secret's change shown, never its value.
     */
    async updateConnection(
      user: SessionUser,
      origin: RequestOrigin,
      input: UpdateSsoConnectionRequest,
    ): Promise<SsoSettings> {
      const { organization, context } = await changeBy(user, origin);
      const checked = await check(organization, input);
      const providerId = ssoProviderIdOf(organization.id);
      await db.transaction(async (tx) => {
        await lockedSettings(tx, organization.id);
        const saved = await findProviderOfOrganization(tx, organization.id);
        if (saved && saved.issuer !== checked.issuer) await deleteProviderAccounts(tx, providerId);
        const connection: StoredConnection = {
          id: saved?.id ?? crypto.randomUUID(),
          issuer: checked.issuer,
          oidcConfig: checked.oidcConfig ? JSON.stringify(checked.oidcConfig) : null,
          samlConfig: checked.samlConfig ? JSON.stringify(checked.samlConfig) : null,
        };
        await updateProvider(tx, {
          ...connection,
          userId: user.userId,
          providerId,
          organizationId: organization.id,
          domain: providerId,
          // The portal's own rules (auth/sso.ts) decide who may be linked; the plugin's check of
          // this flag stands aside, and its domain list holds only proven domains (syncProviderDomain).
          domainVerified: true,
        });
        await syncProviderDomain(tx, organization.id);
        const changes = connectionChanges(saved, connection);
        if (Object.keys(changes).length > 0)
          await record(tx, {
            organizationId: organization.id,
            action: 'sso.connection_saved',
            target: connectionTarget(connection),
            changes,
            context,
          });
      });
      return settingsOf(organization);
    },

    /** Removing the identity provider also stops requiring it: nobody could sign in otherwise. */
    async deleteConnection(user: SessionUser, origin: RequestOrigin): Promise<SsoSettings> {
      const { organization, context } = await changeBy(user, origin);
      const updated = await db.transaction(async (tx) => {
        const settings = await lockedSettings(tx, organization.id);
        const removed = await deleteProvider(tx, organization.id);
        await deleteProviderAccounts(tx, ssoProviderIdOf(organization.id));
        const changed = await updateOrganization(tx, organization.id, { enforcedSso: false });
        if (removed)
          await record(tx, {
            organizationId: organization.id,
            action: 'sso.connection_removed',
            target: connectionTarget(removed),
            changes: {
              ...connectionChanges(removed, undefined),
              ...(settings.enforcedSso ? { enforced: { before: true, after: false } } : {}),
            },
            context,
          });
        return changed;
      });
      return settingsOf(updated ?? organization);
    },

    /** Recorded when anything on the page but the connection changed, with the fields that did. */
    async updateSettings(user: SessionUser, origin: RequestOrigin, input: UpdateSsoSettingsRequest): Promise<SsoSettings> {
      const { organization, context } = await changeBy(user, origin);
      const emailDomains = [...new Set(input.emailDomains)];
      const allowedEmails = [...new Set(input.allowedEmails)];
      if (emailDomains.some(isFreeMailDomain)) throw new AppError('SSO_EMAIL_DOMAIN_FREE_MAIL', { field: 'emailDomains' });
      const applicationIds = input.defaultApplicationScopes ? [...new Set(input.defaultApplicationScopes)] : null;
      try {
        const updated = await db.transaction(async (tx) => {
          const current = await lockedSettings(tx, organization.id);
          const provider = await findProviderOfOrganization(tx, organization.id);
          if (input.enforced && !provider) throw new AppError('SSO_NOT_CONFIGURED', { field: 'enforced' });
          const holder = await organizationWithSsoDomain(tx, input.domain);
          if (holder && holder.id !== organization.id) throw new AppError('SSO_DOMAIN_TAKEN', { field: 'domain' });
          // A domain another organisation has proven stays theirs; claims still pending block nobody.
          if ((await domainsVerifiedElsewhere(tx, organization.id, emailDomains)).length > 0)
            throw new AppError('SSO_EMAIL_DOMAIN_TAKEN', { field: 'emailDomains' });
          if (applicationIds) {
            const known = await applicationsOfOrganization(tx, organization.id, applicationIds);
            if (known.length !== applicationIds.length)
              throw new AppError('SSO_APPLICATION_NOT_FOUND', { field: 'defaultApplicationScopes' });
          }
          const before = auditedSettings(
            current,
            (await emailDomainsOf(tx, organization.id)).map((row) => row.domain),
            (await defaultApplicationsOf(tx, organization.id)).map((application) => application.id),
          );
          await replaceEmailDomains(tx, organization.id, emailDomains);
          await syncProviderDomain(tx, organization.id);
          await replaceDefaultApplications(tx, organization.id, applicationIds ?? []);
          if (input.enforced && !current.enforcedSso) await endSessionsOfNonSuperAdmins(tx, organization.id);
          const changed = await updateOrganization(tx, organization.id, {
            ssoDomain: input.domain,
            ssoAllowedEmails: allowedEmails,
            ssoDefaultRoleId: input.defaultRoleId as RoleId,
            ssoDefaultAllApplications: applicationIds === null,
            enforcedSso: input.enforced,
          });
          if (!changed) throw new AppError('NOT_FOUND');
          const changes = changedFields(before, auditedSettings(changed, emailDomains, applicationIds ?? []));
          if (Object.keys(changes).length > 0)
            await record(tx, {
              organizationId: organization.id,
              action: 'sso.settings_changed',
              target: { type: 'organization', id: organization.id, name: changed.name },
              changes,
              context,
            });
          return changed;
        });
        return settingsOf(updated);
      } catch (error) {
        // Two organisations saving the same SSO domain at once: the unique index decides.
        if (uniqueViolationOf(error)?.constraint === 'organization_sso_domain_idx')
          throw new AppError('SSO_DOMAIN_TAKEN', { field: 'domain' });
        throw error;
      }
    },

    /**
     * Verify on the page: DNS is asked for the domain's record now, and the answer recorded
     * (verified, or why it is still pending). Answers the whole page's state either way. A domain it
     * verifies is recorded as the caller's change.
     */
    async verifyEmailDomain(user: SessionUser, origin: RequestOrigin, domain: string): Promise<SsoSettings> {
      const { organization, context } = await changeBy(user, origin);
      const row = await findEmailDomain(db, organization.id, domain);
      if (!row) throw new AppError('SSO_EMAIL_DOMAIN_NOT_FOUND', { field: 'domain' });
      await checkEmailDomain({ db, lookup: domainProofLookup, log }, row, new Date(), context);
      return settingsOf(organization);
    },
  };
}

export type SsoService = ReturnType<typeof ssoService>;
