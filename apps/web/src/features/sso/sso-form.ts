import {
  ssoDomainField,
  UpdateSsoConnectionRequestSchema,
  UpdateSsoSettingsRequestSchema,
  type ErrorCode,
  type MessageKey,
  type SsoConnection,
  type SsoProtocol,
  type SsoSettings,
  type UpdateSsoConnectionRequest,
  type UpdateSsoSettingsRequest,
} from '@portal/contracts';
import { z } from 'zod';
import {
  accessFormFields,
  accessFormValuesOf,
  applicationScopesFor,
  requireSelectedApplications,
} from '../../lib/application-access';
import { ApiError } from '../../lib/api-error';
import { applyFieldErrors } from '../../lib/form-errors';

/* The identity provider form ------------------------------------------------------------------ */

/** A SAML identity provider is given by its metadata XML, or by its three values typed in. */
export type SamlSource = 'metadata' | 'manual';

export interface ConnectionFormValues {
  protocol: SsoProtocol;
  issuer: string;
  clientId: string;
  clientSecret: string;
  samlSource: SamlSource;
  metadataXml: string;
  entryPoint: string;
  entityId: string;
  certificate: string;
}

/**
 * The form for a saved connection (or none): its values but the secrets, which are never shown
 * again. A saved SAML connection's certificate is asked for again to change it.
 */
export function connectionFormValuesOf(connection: SsoConnection | null): ConnectionFormValues {
  return {
    protocol: connection?.protocol ?? 'oidc',
    issuer: connection?.protocol === 'oidc' ? connection.issuer : '',
    clientId: connection?.protocol === 'oidc' ? connection.clientId : '',
    clientSecret: '',
    samlSource: connection?.protocol === 'saml' ? 'manual' : 'metadata',
    metadataXml: '',
    entryPoint: connection?.protocol === 'saml' ? connection.entryPoint : '',
    entityId: connection?.protocol === 'saml' ? connection.entityId : '',
    certificate: '',
  };
}

/** An empty secret keeps the saved one, so it is left out rather than sent empty. */
const unlessEmpty = (value: string) => value.trim() || undefined;

/** What the form sends to test or update: only the chosen protocol's and source's fields. */
export function connectionRequestOf(values: ConnectionFormValues): UpdateSsoConnectionRequest {
  if (values.protocol === 'oidc') {
    return {
      protocol: 'oidc',
      issuer: values.issuer.trim(),
      clientId: values.clientId.trim(),
      clientSecret: unlessEmpty(values.clientSecret),
    };
  }
  if (values.samlSource === 'metadata') return { protocol: 'saml', metadataXml: values.metadataXml.trim() };
  return {
    protocol: 'saml',
    entryPoint: values.entryPoint.trim(),
    entityId: values.entityId.trim(),
    certificate: values.certificate.trim(),
  };
}

/** The same request, as one string: a save is allowed only for the values last tested successfully. */
export const connectionKeyOf = (values: ConnectionFormValues) => JSON.stringify(connectionRequestOf(values));

/**
 * The identity provider form's checks: the contract's, and what the contract leaves to the page
 * (a client secret unless one is saved; the SAML source's fields).
 */
export function connectionFormSchema(saved: SsoConnection | null) {
  const keepsSecret = saved?.protocol === 'oidc';
  const required = (
    value: string,
    path: keyof ConnectionFormValues,
    message: MessageKey,
    ctx: z.RefinementCtx,
  ) => {
    if (!value.trim()) ctx.addIssue({ code: 'custom', path: [path], message });
  };
  return z
    .object({
      protocol: z.enum(['oidc', 'saml']),
      issuer: z.string(),
      clientId: z.string(),
      clientSecret: z.string(),
      samlSource: z.enum(['metadata', 'manual']),
      metadataXml: z.string(),
      entryPoint: z.string(),
      entityId: z.string(),
      certificate: z.string(),
    })
    .superRefine((values, ctx) => {
      const checked = UpdateSsoConnectionRequestSchema.safeParse(connectionRequestOf(values));
      checked.error?.issues.forEach(({ path, message }) => ctx.addIssue({ code: 'custom', path, message }));
      if (values.protocol === 'oidc') {
        if (!keepsSecret) required(values.clientSecret, 'clientSecret', 'validation.sso.clientSecret', ctx);
      } else if (values.samlSource === 'metadata') {
        required(values.metadataXml, 'metadataXml', 'validation.sso.saml', ctx);
      } else {
        required(values.entryPoint, 'entryPoint', 'validation.sso.entryPoint', ctx);
        required(values.entityId, 'entityId', 'validation.sso.entityId', ctx);
        required(values.certificate, 'certificate', 'validation.sso.certificate', ctx);
      }
    });
}

export const CONNECTION_FIELDS = [
  'issuer',
  'clientId',
  'clientSecret',
  'metadataXml',
  'entryPoint',
  'entityId',
  'certificate',
] as const satisfies readonly (keyof ConnectionFormValues)[];

/** A saved SAML certificate past its expiry: sign-ins fail until a new one is saved. */
export function isCertificateExpired(connection: SsoConnection, now = Date.now()): boolean {
  return (
    connection.protocol === 'saml' &&
    connection.certificateExpiresAt !== null &&
    new Date(connection.certificateExpiresAt).getTime() <= now
  );
}

/* The sign-in settings form ------------------------------------------------------------------- */

const { emailDomains: emailDomainsField, allowedEmails: allowedEmailsField } = UpdateSsoSettingsRequestSchema.shape;

export const SettingsFormSchema = z
  .object({
    domain: ssoDomainField,
    emailDomains: emailDomainsField,
    allowedEmails: allowedEmailsField,
    ...accessFormFields,
    enforced: z.boolean(),
  })
  .superRefine(requireSelectedApplications);
export type SettingsFormValues = z.input<typeof SettingsFormSchema>;
export type SettingsForm = z.output<typeof SettingsFormSchema>;

export function settingsFormValuesOf(settings: SsoSettings): SettingsFormValues {
  return {
    domain: settings.domain ?? '',
    // The form edits the list as names; each domain's proof is shown beside it, not edited.
    emailDomains: settings.emailDomains.map(({ domain }) => domain),
    allowedEmails: settings.allowedEmails,
    ...accessFormValuesOf(settings.defaultRoleId, settings.defaultApplicationScopes),
    enforced: settings.enforced,
  };
}

export function settingsRequestOf(form: SettingsForm): UpdateSsoSettingsRequest {
  const { domain, emailDomains, allowedEmails, roleId, access, applicationIds, enforced } = form;
  return {
    domain,
    emailDomains,
    allowedEmails,
    defaultRoleId: roleId,
    defaultApplicationScopes: applicationScopesFor(roleId, access, applicationIds),
    enforced,
  };
}

export const isEmailDomain = (tag: string) => emailDomainsField.element.safeParse(tag).success;
export const isAllowedEmail = (tag: string) => allowedEmailsField.element.safeParse(tag).success;

/**
 * Tags after a change: each trimmed and lower-cased (a domain also loses a leading '@'), pasted
 * lists split on white space, commas and semicolons, duplicates dropped, cut at the maximum.
 */
export function tagsFrom(tags: readonly string[], max: number, { isDomain = false } = {}): string[] {
  const seen = new Set<string>();
  for (const part of tags.join('\n').split(/[\s,;]+/)) {
    const tag = part.trim().toLowerCase();
    const cleaned = isDomain ? tag.replace(/^@+/, '') : tag;
    if (cleaned) seen.add(cleaned);
  }
  return [...seen].slice(0, max);
}

type SettingsField = keyof SettingsFormValues;

/** The server's names of the settings fields, and the form's. */
const SERVER_FIELD_NAMES = {
  domain: 'domain',
  emailDomains: 'emailDomains',
  allowedEmails: 'allowedEmails',
  defaultRoleId: 'roleId',
  defaultApplicationScopes: 'applicationIds',
  enforced: 'enforced',
} as const satisfies Record<keyof UpdateSsoSettingsRequest, SettingsField>;
type ServerField = keyof typeof SERVER_FIELD_NAMES;

/** Refusals about one field that may come without naming it. */
const FIELD_OF_CODE: Partial<Record<ErrorCode, SettingsField>> = {
  SSO_DOMAIN_TAKEN: 'domain',
  SSO_EMAIL_DOMAIN_TAKEN: 'emailDomains',
  SSO_EMAIL_DOMAIN_FREE_MAIL: 'emailDomains',
  SSO_NOT_CONFIGURED: 'enforced',
  SSO_APPLICATION_NOT_FOUND: 'applicationIds',
};

/** Where a refused save shows its messages: under the fields the server names (or the code concerns). */
export function settingsFieldErrors(error: unknown): { field: SettingsField; message: string }[] {
  const found: { field: SettingsField; message: string }[] = [];
  applyFieldErrors<ServerField>(
    error,
    (field, { message }) => found.push({ field: SERVER_FIELD_NAMES[field], message }),
    Object.keys(SERVER_FIELD_NAMES) as ServerField[],
  );
  if (found.length > 0 || !(error instanceof ApiError)) return found;
  const field = FIELD_OF_CODE[error.code as ErrorCode];
  return field ? [{ field, message: error.message }] : [];
}
