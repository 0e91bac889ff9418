import crypto from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { UpdateSsoConnectionRequest, SsoSettings, UpdateSsoSettingsRequest } from '@portal/contracts';
import { DnsStandIn } from '../../apps/api/test/dns-server.ts';
import { OidcStandIn, type OidcIdentity } from '../../apps/api/test/oidc-stand-in.ts';
import { SamlIdp, type SamlIdentity } from '../../apps/api/test/saml-idp.ts';
import { ACME, test as base, Users, type TestUser } from './fixtures.ts';
import { Operator, type OperatedPortal } from './operator.ts';
import { withOwnPortal } from './own-portal.ts';

/** The client the OpenID stand-in knows, as a super-admin would have registered the portal there. */
export const OIDC_CLIENT = { clientId: 'portal-e2e-sso', clientSecret: 'portal-e2e-sso-secret' };

interface SsoPortal extends OperatedPortal {
  oidc: OidcStandIn;
  saml: SamlIdp;
  dns: DnsStandIn;
}

/**
 * The shared fixtures on a portal of this worker's own that trusts two local identity providers,
 * started before it: an OpenID provider (the stand-in) and a SAML IdP; it asks a local DNS server
 * (DNS_SERVERS) for the TXT records that prove an organisation's email domains. The shared portal
 * has no organisation with single sign-on, so its sign-in offers none.
 */
export const ssoTest = base.extend<
  { oidc: OidcStandIn; saml: SamlIdp; dns: DnsStandIn; operator: Operator },
  { ssoPortal: SsoPortal; oidcOrganization: SsoOrganization }
>({
  ssoPortal: [
    async ({}, use) => {
      const oidc = await OidcStandIn.start(OIDC_CLIENT);
      const saml = await SamlIdp.start();
      const dns = await DnsStandIn.start();
      try {
        const trusted = [oidc.origin, new URL(saml.ssoUrl).origin].join(',');
        await withOwnPortal('sso', { SSO_TRUSTED_IDP_ORIGINS: trusted, ...dns.portalEnv }, (portal) =>
          use({ ...portal, oidc, saml, dns }),
        );
      } finally {
        await oidc.stop();
        await saml.stop();
        await dns.stop();
      }
    },
    // Three stand-ins and a portal start here; a busy 2-core machine needs more than a test's minute.
    { scope: 'worker', timeout: 180_000 },
  ],
  /**
   * An organisation of this worker's connected to the OpenID provider, for tests that only sign
   * people in (or refuse them) and change nothing of its settings.
   */
  oidcOrganization: [
    async ({ ssoPortal, playwright }, use) => {
      const request = await playwright.request.newContext({ baseURL: ssoPortal.baseURL });
      try {
        await use(
          await ssoOrganizationThroughApi(
            request,
            ssoPortal.baseURL,
            oidcConnection(ssoPortal.oidc),
            'shared',
            ssoPortal.dns,
          ),
        );
      } finally {
        await request.dispose();
      }
    },
    { scope: 'worker' },
  ],
  oidc: async ({ ssoPortal }, use) => use(ssoPortal.oidc),
  saml: async ({ ssoPortal }, use) => use(ssoPortal.saml),
  dns: async ({ ssoPortal }, use) => use(ssoPortal.dns),
  operator: async ({ ssoPortal }, use) => use(new Operator(ssoPortal)),
  baseURL: async ({ ssoPortal }, use) => use(ssoPortal.baseURL),
});

const suffix = () => `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;

/** What the page sends to connect the OpenID stand-in. */
export const oidcConnection = (oidc: OidcStandIn): UpdateSsoConnectionRequest => ({
  protocol: 'oidc',
  issuer: oidc.issuer,
  ...OIDC_CLIENT,
});

/** An SSO domain no other organisation has (letters, digits and dashes, at most 32). */
export const uniqueSsoDomain = (label: string) => `${label}-${suffix()}`.slice(0, 32);

/** An email domain no other organisation owns. */
export const uniqueEmailDomain = (label: string) => `${label}-${suffix()}.io`;

let people = 0;

/** Someone at the OpenID provider, with an address at `emailDomain`. */
export function oidcPerson(label: string, emailDomain: string): OidcIdentity {
  people += 1;
  return {
    sub: `e2e-sso-${suffix()}-${people}`,
    email: `${label}-${people}@${emailDomain}`,
    name: `Sam Single ${people}`,
  };
}

/** Someone at the SAML IdP, with an address at `emailDomain`. */
export function samlPerson(label: string, emailDomain: string): SamlIdentity {
  people += 1;
  const email = `${label}-${people}@${emailDomain}`;
  return { nameId: email, email, firstName: 'Ada', lastName: `Lovelace ${people}` };
}

async function ssoCall(
  request: APIRequestContext,
  origin: string,
  path: string,
  data: unknown,
): Promise<SsoSettings> {
  const response = await request.put(path, { data, headers: { origin } });
  expect(response.status(), `PUT ${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as SsoSettings;
}

export interface SsoOrganization {
  owner: TestUser;
  organizationId: string;
  domain: string;
  emailDomain: string;
  settings: SsoSettings;
}

/** The verify route of a listed email domain, as the Single sign-on page calls it. */
export const verifyPath = (domain: string) =>
  `/api/v1/sso/email-domains/${encodeURIComponent(domain)}/verify`;

/**
 * Proves a listed email domain as its owner would: the TXT record the page shows is published on
 * the local DNS server, then the domain is verified through the API; the answer must say verified.
 */
export async function proveEmailDomainThroughApi(
  request: APIRequestContext,
  origin: string,
  dns: DnsStandIn,
  domain: string,
): Promise<SsoSettings> {
  const listed = ((await (await request.get('/api/v1/sso')).json()) as SsoSettings).emailDomains.find(
    (entry) => entry.domain === domain,
  );
  if (!listed) throw new Error(`${domain} is not listed under single sign-on`);
  dns.publish(listed.record.name, [listed.record.value]);
  const response = await request.post(verifyPath(domain), { headers: { origin } });
  expect(response.status(), `POST ${verifyPath(domain)}: ${await response.text()}`).toBe(200);
  const settings = (await response.json()) as SsoSettings;
  expect(settings.emailDomains.find((entry) => entry.domain === domain)).toMatchObject({
    status: 'verified',
  });
  return settings;
}

/**
 * An organisation set up by a new super-admin (signed up through the dev mailbox) whose session is
 * in `request`'s browser context, connected to an identity provider (unless `connection` is null)
 * and given an SSO domain and one owned email domain through /api/v1/sso, as the Single sign-on
 * page sends them; the email domain is proven by its DNS record, so new people at it may join.
 */
export async function ssoOrganizationThroughApi(
  request: APIRequestContext,
  origin: string,
  connection: UpdateSsoConnectionRequest | null,
  label: string,
  dns: DnsStandIn,
): Promise<SsoOrganization> {
  const users = new Users(request, origin);
  const owner = await users.signedIn({
    label: `${label}-owner`,
    organization: { ...ACME, organization: `${label} Corp` },
  });
  const { organizationId } = (await (await request.get('/api/v1/accounts/me')).json()) as {
    organizationId: string;
  };
  const domain = uniqueSsoDomain(label);
  const emailDomain = uniqueEmailDomain(label);
  const initial = connection
    ? await ssoCall(request, origin, '/api/v1/sso/connection', connection)
    : ((await (await request.get('/api/v1/sso')).json()) as SsoSettings);
  // The new organisation's defaults (developers, all applications, not enforced) are kept.
  const { allowedEmails, defaultRoleId, defaultApplicationScopes, enforced } = initial;
  await ssoCall(request, origin, '/api/v1/sso/settings', {
    ...{ allowedEmails, defaultRoleId, enforced, domain, emailDomains: [emailDomain] },
    defaultApplicationScopes: defaultApplicationScopes?.map((application) => application.id) ?? null,
  } satisfies UpdateSsoSettingsRequest);
  const settings = await proveEmailDomainThroughApi(request, origin, dns, emailDomain);
  return { owner, organizationId, domain, emailDomain, settings };
}

/** On /sign-in-sso: types the organisation's SSO domain and continues to its identity provider. */
export async function continueWithSso(page: Page, domain: string) {
  await page.getByRole('textbox', { name: 'Organization domain' }).fill(domain);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** The version-7 UUID the portal gives members who joined through an identity provider. */
export const SSO_MEMBER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
