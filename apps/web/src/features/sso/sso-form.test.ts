import type { SsoConnection, SsoSettings } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import {
  connectionFormSchema,
  connectionFormValuesOf,
  connectionKeyOf,
  connectionRequestOf,
  isCertificateExpired,
  settingsFieldErrors,
  settingsFormValuesOf,
  settingsRequestOf,
  tagsFrom,
  type ConnectionFormValues,
} from './sso-form';

const OIDC: SsoConnection = { protocol: 'oidc', issuer: 'https://idp.example.com', clientId: 'portal' };
const SAML: SsoConnection = {
  protocol: 'saml',
  entryPoint: 'https://idp.example.com/sso',
  entityId: 'https://idp.example.com/entity',
  certificateFingerprint: 'AB:CD',
  certificateExpiresAt: '2030-01-01T00:00:00.000Z',
};

const oidcValues = (overrides: Partial<ConnectionFormValues> = {}): ConnectionFormValues => ({
  ...connectionFormValuesOf(null),
  issuer: ' https://idp.example.com ',
  clientId: ' portal ',
  clientSecret: ' s3cret ',
  ...overrides,
});

/** The messages the form would show, per field. */
function messagesOf(saved: SsoConnection | null, values: ConnectionFormValues) {
  const result = connectionFormSchema(saved).safeParse(values);
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]),
  );
}

describe('the identity provider form', () => {
  it('starts empty on OIDC, or from the saved connection without its secrets', () => {
    expect(connectionFormValuesOf(null)).toMatchObject({
      protocol: 'oidc',
      issuer: '',
      samlSource: 'metadata',
    });
    expect(connectionFormValuesOf(OIDC)).toMatchObject({
      protocol: 'oidc',
      issuer: OIDC.issuer,
      clientId: 'portal',
      clientSecret: '',
    });
    expect(connectionFormValuesOf(SAML)).toMatchObject({
      protocol: 'saml',
      samlSource: 'manual',
      entryPoint: SAML.entryPoint,
      entityId: SAML.entityId,
      certificate: '',
    });
  });

  it('sends only the chosen protocol and source, trimmed, and no empty secret', () => {
    expect(connectionRequestOf(oidcValues())).toEqual({
      protocol: 'oidc',
      issuer: 'https://idp.example.com',
      clientId: 'portal',
      clientSecret: 's3cret',
    });
    expect(connectionRequestOf(oidcValues({ clientSecret: '  ' }))).toEqual({
      protocol: 'oidc',
      issuer: 'https://idp.example.com',
      clientId: 'portal',
      clientSecret: undefined,
    });
    const saml = { ...oidcValues(), protocol: 'saml' as const, metadataXml: ' <xml/> ', entryPoint: 'x' };
    expect(connectionRequestOf(saml)).toEqual({ protocol: 'saml', metadataXml: '<xml/>' });
    expect(connectionRequestOf({ ...saml, samlSource: 'manual', entityId: 'e', certificate: 'c' })).toEqual({
      protocol: 'saml',
      entryPoint: 'x',
      entityId: 'e',
      certificate: 'c',
    });
  });

  it('asks for a client secret unless an OIDC connection is saved', () => {
    const noSecret = oidcValues({ clientSecret: '' });
    expect(messagesOf(null, noSecret)).toEqual({ clientSecret: 'validation.sso.clientSecret' });
    expect(messagesOf(SAML, noSecret)).toEqual({ clientSecret: 'validation.sso.clientSecret' });
    expect(messagesOf(OIDC, noSecret)).toEqual({});
  });

  it("checks the issuer and client id with the contract's rules", () => {
    expect(messagesOf(null, oidcValues({ issuer: 'not a url', clientId: '' }))).toEqual({
      issuer: 'validation.sso.issuer',
      clientId: 'validation.sso.clientId',
    });
  });

  it('asks for the metadata, or for the three SAML values', () => {
    const saml = { ...connectionFormValuesOf(null), protocol: 'saml' as const };
    expect(messagesOf(null, saml)).toEqual({ metadataXml: 'validation.sso.saml' });
    expect(messagesOf(null, { ...saml, samlSource: 'manual' })).toEqual({
      entryPoint: 'validation.sso.entryPoint',
      entityId: 'validation.sso.entityId',
      certificate: 'validation.sso.certificate',
    });
  });

  it('keys a test by the request, so any change that alters it calls for a new test', () => {
    expect(connectionKeyOf(oidcValues())).toBe(connectionKeyOf(oidcValues({ clientId: 'portal  ' })));
    expect(connectionKeyOf(oidcValues())).not.toBe(connectionKeyOf(oidcValues({ clientId: 'other' })));
    // Fields of the other protocol are not sent, so they do not matter.
    expect(connectionKeyOf(oidcValues())).toBe(connectionKeyOf(oidcValues({ metadataXml: '<xml/>' })));
  });

  it('tells an expired SAML certificate', () => {
    const now = Date.parse('2031-01-01T00:00:00.000Z');
    expect(isCertificateExpired(SAML, now)).toBe(true);
    expect(isCertificateExpired(SAML, Date.parse('2029-01-01T00:00:00.000Z'))).toBe(false);
    expect(isCertificateExpired({ ...SAML, certificateExpiresAt: null }, now)).toBe(false);
    expect(isCertificateExpired(OIDC, now)).toBe(false);
  });
});

const SETTINGS: SsoSettings = {
  providerId: 'org-1',
  serviceProvider: {
    oidcRedirectUrl: 'https://portal.example.com/api/auth/sso/callback/org-1',
    samlAcsUrl: 'https://portal.example.com/api/auth/sso/saml2/callback/org-1',
    samlEntityId: 'https://portal.example.com/api/auth/sso/saml2/sp/metadata?providerId=org-1',
    samlMetadataUrl: 'https://portal.example.com/api/auth/sso/saml2/sp/metadata?providerId=org-1',
  },
  connection: OIDC,
  domain: null,
  emailDomains: [
    {
      domain: 'example.com',
      status: 'pending',
      record: {
        type: 'TXT',
        name: '_portal-challenge.example.com',
        value: 'portal-verification=token-1',
      },
      verifiedAt: null,
      checkedAt: null,
      checkError: null,
    },
  ],
  allowedEmails: [],
  defaultRoleId: 'portal.developer',
  defaultApplicationScopes: [{ id: 'app-1', name: 'Chat' }],
  enforced: false,
  signInUrl: null,
};

describe('the sign-in settings form', () => {
  it('turns the settings into form values and back', () => {
    const values = settingsFormValuesOf(SETTINGS);
    expect(values).toEqual({
      domain: '',
      emailDomains: ['example.com'],
      allowedEmails: [],
      roleId: 'portal.developer',
      access: 'selected',
      applicationIds: ['app-1'],
      enforced: false,
    });
    expect(settingsRequestOf({ ...values, domain: 'acme', roleId: 'portal.developer' })).toEqual({
      domain: 'acme',
      emailDomains: ['example.com'],
      allowedEmails: [],
      defaultRoleId: 'portal.developer',
      defaultApplicationScopes: ['app-1'],
      enforced: false,
    });
    // An admin is never limited to applications.
    expect(
      settingsRequestOf({ ...values, domain: 'acme', roleId: 'portal.admin' }).defaultApplicationScopes,
    ).toBeNull();
  });

  it('splits pasted lists, trims, lower-cases and deduplicates tags', () => {
    expect(
      tagsFrom(['Example.com', ' @Acme.io, example.com;b.org\nc.net d.dev'], 20, { isDomain: true }),
    ).toEqual(['example.com', 'acme.io', 'b.org', 'c.net', 'd.dev']);
    expect(tagsFrom(['A@Partner.com, a@partner.com'], 500)).toEqual(['a@partner.com']);
    expect(tagsFrom(['a.io b.io c.io'], 2, { isDomain: true })).toEqual(['a.io', 'b.io']);
  });

  it('puts a refusal under the field the server names, in the form’s names', () => {
    const refusal = (init: Partial<ConstructorParameters<typeof ApiError>[0]>) =>
      new ApiError({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'x',
        path: '/api/v1/sso/settings',
        ...init,
      });
    expect(
      settingsFieldErrors(
        refusal({ status: 409, code: 'SSO_DOMAIN_TAKEN', field: 'domain', message: 'Taken.' }),
      ),
    ).toEqual([{ field: 'domain', message: 'Taken.' }]);
    expect(
      settingsFieldErrors(
        refusal({
          fields: [
            { field: 'emailDomains.1', message: 'Enter an email domain.' },
            { field: 'defaultApplicationScopes', message: 'Choose applications.' },
          ],
        }),
      ),
    ).toEqual([
      { field: 'emailDomains', message: 'Enter an email domain.' },
      { field: 'applicationIds', message: 'Choose applications.' },
    ]);
  });

  it('places refusals about one field when the server does not name it, and leaves the rest', () => {
    const refusal = (code: string, status = 409) =>
      new ApiError({ status, code, message: code, path: '/api/v1/sso/settings' });
    expect(settingsFieldErrors(refusal('SSO_NOT_CONFIGURED'))).toEqual([
      { field: 'enforced', message: 'SSO_NOT_CONFIGURED' },
    ]);
    expect(settingsFieldErrors(refusal('SSO_EMAIL_DOMAIN_FREE_MAIL', 400))).toEqual([
      { field: 'emailDomains', message: 'SSO_EMAIL_DOMAIN_FREE_MAIL' },
    ]);
    expect(settingsFieldErrors(refusal('SSO_APPLICATION_NOT_FOUND', 400))).toEqual([
      { field: 'applicationIds', message: 'SSO_APPLICATION_NOT_FOUND' },
    ]);
    expect(settingsFieldErrors(refusal('INTERNAL_ERROR', 500))).toEqual([]);
  });
});
