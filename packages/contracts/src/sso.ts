import { z } from 'zod';
import { SSO_DOMAIN_MAX_LENGTH } from './constants.ts';
import type { MessageKey } from './messages.ts';
import { applicationScopesField } from './members.ts';
import { ROLE_IDS, SUPER_ADMIN_ROLE } from './permissions.ts';
import { SSO_DOMAIN_ALLOWED } from './rules.ts';

const key = (k: MessageKey) => k;

/**
 * Organisation SSO (beyond the spec): the Single sign-on page (MANAGE_SSO) and its endpoints. One
 * verb per operation across URL, schema, service, repository and web hook (decision 037): get the
 * settings, test / update / delete the connection, update the settings, verify an email domain.
 */

export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/** Email domains an organisation may own, and addresses it may allow besides them. */
export const SSO_EMAIL_DOMAINS_MAX = 20;
export const SSO_ALLOWED_EMAILS_MAX = 500;
/** IdP metadata XML and PEM certificates are small; a larger paste is a mistake. */
export const SSO_METADATA_MAX_LENGTH = 100_000;
export const SSO_CERTIFICATE_MAX_LENGTH = 20_000;

const httpsUrl = (message: MessageKey) =>
  z
    .string({ error: key(message) })
    .trim()
    .min(1, key(message))
    .max(2_000, key('validation.tooLong'))
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), key(message));

const requiredText = (message: MessageKey, max: number) =>
  z
    .string({ error: key(message) })
    .trim()
    .min(1, key(message))
    .max(max, key('validation.tooLong'));

/** An OIDC identity provider: its issuer (endpoints are discovered from it), client id and secret. */
export const OidcConnectionSchema = z.object({
  protocol: z.literal('oidc'),
  issuer: httpsUrl('validation.sso.issuer'),
  clientId: requiredText('validation.sso.clientId', 500),
  /** Required the first time; left out afterwards, the saved secret is kept (it is never shown again). */
  clientSecret: z.string().trim().max(2_000, key('validation.tooLong')).optional(),
});

/**
 * A SAML identity provider: its metadata XML, or its sign-in URL (entry point), entity id and
 * signing certificate typed in.
 */
export const SamlConnectionSchema = z.object({
  protocol: z.literal('saml'),
  metadataXml: z.string().trim().max(SSO_METADATA_MAX_LENGTH, key('validation.tooLong')).optional(),
  entryPoint: z.string().trim().max(2_000, key('validation.tooLong')).optional(),
  entityId: z.string().trim().max(2_000, key('validation.tooLong')).optional(),
  certificate: z.string().trim().max(SSO_CERTIFICATE_MAX_LENGTH, key('validation.tooLong')).optional(),
});

/** PUT /api/v1/sso/connection: the identity provider to connect, tested again before it is stored. */
export const UpdateSsoConnectionRequestSchema = z.discriminatedUnion('protocol', [
  OidcConnectionSchema,
  SamlConnectionSchema,
]);
export type UpdateSsoConnectionRequest = z.infer<typeof UpdateSsoConnectionRequestSchema>;

/** POST /api/v1/sso/connection/test: the same body as the update it precedes; nothing is stored. */
export const TestSsoConnectionRequestSchema = UpdateSsoConnectionRequestSchema;
export type TestSsoConnectionRequest = UpdateSsoConnectionRequest;

/** What the page shows of a saved connection: never the client secret. */
export const SsoConnectionSchema = z.discriminatedUnion('protocol', [
  z.object({ protocol: z.literal('oidc'), issuer: z.string(), clientId: z.string() }),
  z.object({
    protocol: z.literal('saml'),
    entryPoint: z.string(),
    entityId: z.string(),
    /** SHA-256 fingerprint of the IdP's signing certificate, to compare with the IdP's own page. */
    certificateFingerprint: z.string(),
    certificateExpiresAt: z.string().nullable(),
  }),
]);
export type SsoConnection = z.infer<typeof SsoConnectionSchema>;

/** The answer of a connection test: what was found at the identity provider. */
export const TestSsoConnectionResponseSchema = z.object({
  ok: z.literal(true),
  protocol: z.enum(SSO_PROTOCOLS),
  /** For OIDC the discovered endpoints; for SAML the entry point and entity id read from the input. */
  details: z.record(z.string(), z.string()),
});
export type TestSsoConnectionResponse = z.infer<typeof TestSsoConnectionResponseSchema>;

/** An email domain the organisation owns: a host name of at least two labels. */
const emailDomainField = z
  .string({ error: key('validation.sso.emailDomain') })
  .trim()
  .toLowerCase()
  .max(253, key('validation.sso.emailDomain'))
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    key('validation.sso.emailDomain'),
  );

const allowedEmailField = z
  .string({ error: key('validation.sso.allowedEmail') })
  .trim()
  .toLowerCase()
  .max(254, key('validation.sso.allowedEmail'))
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, key('validation.sso.allowedEmail'));

/** The organisation's SSO domain (§5): letters, digits and dashes, at most 32. */
export const ssoDomainField = z
  .string({ error: key('validation.ssoDomain.required') })
  .trim()
  .min(1, key('validation.ssoDomain.required'))
  .max(SSO_DOMAIN_MAX_LENGTH, key('validation.ssoDomain.format'))
  .regex(SSO_DOMAIN_ALLOWED, key('validation.ssoDomain.format'));

/** Roles a just-in-time member may get: any but super-admin. */
export const SSO_DEFAULT_ROLE_IDS = ROLE_IDS.filter((role) => role !== SUPER_ADMIN_ROLE);

/** PUT /api/v1/sso/settings: everything on the page but the connection. */
export const UpdateSsoSettingsRequestSchema = z.object({
  domain: ssoDomainField,
  emailDomains: z
    .array(emailDomainField, { error: key('validation.sso.emailDomain') })
    .max(SSO_EMAIL_DOMAINS_MAX, key('validation.sso.emailDomainsTooMany')),
  allowedEmails: z
    .array(allowedEmailField, { error: key('validation.sso.allowedEmail') })
    .max(SSO_ALLOWED_EMAILS_MAX, key('validation.sso.allowedEmailsTooMany')),
  defaultRoleId: z.enum(SSO_DEFAULT_ROLE_IDS as [string, ...string[]], {
    error: key('validation.role.required'),
  }),
  /** Application ids new members may use; null means all applications. */
  defaultApplicationScopes: applicationScopesField,
  /** Members must sign in through the identity provider (super-admins keep their password). */
  enforced: z.boolean(),
});
export type UpdateSsoSettingsRequest = z.infer<typeof UpdateSsoSettingsRequestSchema>;

/**
 * An email domain listed under Single sign-on is pending until the organisation proves it owns it:
 * a DNS TXT record `portal-verification=<token>` at `_portal-challenge.<domain>`. Only verified
 * domains (and the allow-list) make just-in-time members; once one organisation has verified a
 * domain, no other may list it.
 */
export const SSO_EMAIL_DOMAIN_STATUSES = ['pending', 'verified'] as const;
export type SsoEmailDomainStatus = (typeof SSO_EMAIL_DOMAIN_STATUSES)[number];

/** Why the last check left a domain pending. */
export const SSO_DOMAIN_CHECK_ERRORS = [
  /** No TXT record at the challenge name (or the name does not exist). */
  'record_not_found',
  /** TXT records exist there, but none holds this organisation's token. */
  'record_mismatch',
  /** Another organisation verified the domain first: it stays with them. */
  'verified_elsewhere',
  /** DNS did not answer (time-out, server failure): try again later. */
  'dns_unavailable',
] as const;
export type SsoDomainCheckError = (typeof SSO_DOMAIN_CHECK_ERRORS)[number];

/**
 * How long a verified domain's record may be missing (every re-check in that time finding no record,
 * or another token) before the domain goes back to pending. DNS that does not answer never counts.
 */
export const SSO_DOMAIN_VERIFIED_GRACE_HOURS = 72;

/** The host name under the domain that holds the proof of ownership. */
export const SSO_DOMAIN_CHALLENGE_PREFIX = '_portal-challenge';
/** The TXT record's value is this prefix and the domain's token. */
export const SSO_DOMAIN_RECORD_VALUE_PREFIX = 'portal-verification=';

export const SsoEmailDomainSchema = z.object({
  domain: z.string(),
  status: z.enum(SSO_EMAIL_DOMAIN_STATUSES),
  /** The TXT record to add to the domain's DNS: its full name and its value. */
  record: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  /**
   * While verified: when DNS last showed the record (set by Verify, renewed by each re-check that
   * finds it). A verified domain whose record has been missing for SSO_DOMAIN_VERIFIED_GRACE_HOURS
   * goes back to pending; null while pending.
   */
  verifiedAt: z.string().nullable(),
  /** When DNS was last asked (by Verify or the scheduled re-check). */
  checkedAt: z.string().nullable(),
  checkError: z.enum(SSO_DOMAIN_CHECK_ERRORS).nullable(),
});
export type SsoEmailDomain = z.infer<typeof SsoEmailDomainSchema>;

/** POST /api/v1/sso/email-domains/:domain/verify: the domain as typed in the settings. */
export const VerifySsoEmailDomainParamsSchema = z.object({ domain: emailDomainField });

/** GET /api/v1/sso (and the answer of every change): the page's whole state. */
export const SsoSettingsSchema = z.object({
  /** The portal's id of this organisation's identity provider, part of the URLs below. */
  providerId: z.string(),
  /** What to paste into the identity provider. */
  serviceProvider: z.object({
    oidcRedirectUrl: z.string(),
    samlAcsUrl: z.string(),
    samlEntityId: z.string(),
    samlMetadataUrl: z.string(),
  }),
  connection: SsoConnectionSchema.nullable(),
  domain: z.string().nullable(),
  emailDomains: z.array(SsoEmailDomainSchema),
  allowedEmails: z.array(z.string()),
  defaultRoleId: z.enum(ROLE_IDS),
  defaultApplicationScopes: z.array(z.object({ id: z.string(), name: z.string() })).nullable(),
  enforced: z.boolean(),
  /** A link that starts the organisation's sign-in at once (§2 /sign-in-sso?org=…&init=true); null without a domain. */
  signInUrl: z.string().nullable(),
});
export type SsoSettings = z.infer<typeof SsoSettingsSchema>;
