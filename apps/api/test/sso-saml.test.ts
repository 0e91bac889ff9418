import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { DnsStandIn, proveEmailDomain } from './dns-stand-in.ts';
import { SamlIdp, type SamlIdentity, type SamlPost, type SamlResponseOptions } from './saml-idp.ts';
import {
  TEST_ORIGIN,
  accountOf,
  sessionCookieOf,
  expectApiError,
  jsonRequest,
  buildTestApp,
  connectSso,
  setUpOrganization,
  signIn,
  signUpVerifiedUser,
  ssoSettingsBody,
  useTestApp,
} from './helper.ts';

/*
 * An organisation's single sign-on through a SAML identity provider built by the test (samlify, a
 * certificate made at start): the browser's part, the signed answer it posts to the portal, is
 * made by the IdP and posted by hand, so replayed, re-signed and altered answers can be tried.
 */
const idp = await SamlIdp.start();
afterAll(() => idp.stop());
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());

const t = useTestApp({ SSO_TRUSTED_IDP_ORIGINS: new URL(idp.ssoUrl).origin, ...dns.portalEnv });

let organizations = 0;

async function samlOrganization(
  connection: Record<string, unknown> = { protocol: 'saml', metadataXml: idp.metadataXml },
) {
  organizations += 1;
  const emailDomain = `saml${organizations}-corp.io`;
  const domain = `saml-${organizations}`;
  const cookie = await setUpOrganization(t.app, `owner@${emailDomain}`);
  const settings = await connectSso(
    t.app,
    cookie,
    connection,
    ssoSettingsBody(domain, emailDomain, { defaultRoleId: 'portal.analyst' }),
  );
  await proveEmailDomain(t.app, cookie, dns, emailDomain);
  return { cookie, domain, emailDomain, settings };
}

/** The portal's redirect to the IdP, as /sign-in-sso gets it. */
async function startSignIn(domain: string): Promise<string> {
  const start = await t.app.inject(
    jsonRequest('POST', '/api/auth/sign-in/sso', {
      organizationSlug: domain,
      callbackURL: '/',
      errorCallbackURL: '/sign-in-sso',
    }),
  );
  expect(start.statusCode, start.body).toBe(200);
  const { url } = start.json() as { url: string };
  expect(url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
  return url;
}

/** The IdP's page posting its answer to the portal's assertion consumer service, from the IdP's origin. */
async function post(answer: SamlPost) {
  const acs = new URL(answer.acsUrl);
  const form = new URLSearchParams({ SAMLResponse: answer.SAMLResponse });
  if (answer.RelayState) form.set('RelayState', answer.RelayState);
  const landed = await t.app.inject({
    method: 'POST',
    url: acs.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(idp.ssoUrl).origin },
    payload: form.toString(),
  });
  expect(landed.statusCode, landed.body).toBe(302);
  const session = sessionCookieOf(landed.headers['set-cookie']);
  return { location: new URL(String(landed.headers.location), TEST_ORIGIN), session };
}

async function signInWithSaml(domain: string, identity: SamlIdentity, options?: SamlResponseOptions) {
  return post(await idp.respondTo(await startSignIn(domain), identity, options));
}

let people = 0;
const person = (emailDomain: string): SamlIdentity => {
  people += 1;
  const email = `person${people}@${emailDomain}`;
  return { nameId: email, email, firstName: 'Ada', lastName: `Lovelace ${people}` };
};

const me = (cookie: string) => accountOf(t.app, cookie);

describe('whether sign-in offers single sign-on', () => {
  it('says so in the public configuration once an organisation has an identity provider, and not before', async () => {
    const fresh = await buildTestApp(idp.portalEnv);
    try {
      const before = await fresh.app.inject({ method: 'GET', url: '/api/v1/config' });
      expect(before.json()).toMatchObject({ ssoSignIn: false });
      const cookie = await setUpOrganization(fresh.app, 'owner@config-sso.io');
      await connectSso(
        fresh.app,
        cookie,
        { protocol: 'saml', metadataXml: idp.metadataXml },
        ssoSettingsBody('config-sso', 'config-sso.io'),
      );
      const after = await fresh.app.inject({ method: 'GET', url: '/api/v1/config' });
      expect(after.json()).toMatchObject({ ssoSignIn: true });
    } finally {
      await fresh.close();
    }
  }, 120_000);
});

describe('SAML single sign-on', () => {
  it('signs a new person in from a signed answer: a member with the default role and an SSO member id', async () => {
    const org = await samlOrganization();
    const who = person(org.emailDomain);
    const answer = await idp.respondTo(await startSignIn(org.domain), who);
    // The portal's request named its own assertion consumer service, the one the page shows.
    expect(answer.acsUrl).toBe(org.settings.serviceProvider.samlAcsUrl);
    const landed = await post(answer);
    expect(landed.location.pathname).toBe('/');
    expect(landed.session).toBeDefined();
    const account = await me(landed.session!);
    expect(account.roles).toEqual([{ id: 'portal.analyst' }]);
    expect(account.memberId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });

  it('works with the sign-in URL, entity id and certificate typed in instead of metadata', async () => {
    const org = await samlOrganization({
      protocol: 'saml',
      entryPoint: idp.ssoUrl,
      entityId: idp.entityId,
      certificate: idp.certificatePem,
    });
    expect((await signInWithSaml(org.domain, person(org.emailDomain))).session).toBeDefined();
  });

  it('refuses the same answer posted twice', async () => {
    const org = await samlOrganization();
    const answer = await idp.respondTo(await startSignIn(org.domain), person(org.emailDomain));
    expect((await post(answer)).session).toBeDefined();
    const replayed = await post(answer);
    expect(replayed.session).toBeUndefined();
    // Its sign-in state was used up by the first: the refusal lands on the portal with its
    // description, which the web app's guard carries to /sign-in-sso (§2).
    expect(replayed.location.origin).toBe(TEST_ORIGIN);
    expect(replayed.location.searchParams.get('error_description')).toBeTruthy();
  });

  it('refuses an answer signed with another key, an altered answer, and one for another audience', async () => {
    const org = await samlOrganization();
    const who = person(org.emailDomain);
    for (const options of [
      { signWith: 'other-key' },
      { tamper: (xml: string) => xml.replaceAll(who.email, `boss@${org.emailDomain}`) },
      { audience: 'https://another-portal.example/sp' },
      { notOnOrAfter: new Date(Date.now() - 60 * 60_000) },
    ] satisfies SamlResponseOptions[]) {
      const refused = await signInWithSaml(org.domain, who, options);
      expect(refused.session, JSON.stringify(Object.keys(options))).toBeUndefined();
      expect(refused.location.pathname).toBe('/sign-in-sso');
    }
    const users = await t.database.db
      .select()
      .from(schema.user)
      .where(eq(schema.user.email, `boss@${org.emailDomain}`));
    expect(users).toHaveLength(0);
  });

  it('refuses an answer to a request the portal never made', async () => {
    const org = await samlOrganization();
    const refused = await signInWithSaml(org.domain, person(org.emailDomain), {
      inResponseTo: '_never-asked',
    });
    expect(refused.session).toBeUndefined();
  });
});

describe('who a SAML identity provider may sign in (issue 23, findings 1, 7 and 8)', () => {
  it('does not link an existing user nobody invited, at a domain the organisation claimed or even proved', async () => {
    const victim = 'ceo@saml-victim.io';
    await signUpVerifiedUser(t.app, victim);
    const org = await samlOrganization();
    const listed = await t.app.inject(
      jsonRequest(
        'PUT',
        '/api/v1/sso/settings',
        ssoSettingsBody(org.domain, org.emailDomain, { emailDomains: [org.emailDomain, 'saml-victim.io'] }),
        org.cookie,
      ),
    );
    expect(listed.statusCode, listed.body).toBe(200);
    const identity = { nameId: victim, email: victim, firstName: 'Ada', lastName: 'Victim' };
    const claimed = await signInWithSaml(org.domain, identity);
    expect(claimed.session).toBeUndefined();
    expect(claimed.location.searchParams.get('error')).toBe('NOT_IN_WHITELIST');
    await proveEmailDomain(t.app, org.cookie, dns, 'saml-victim.io');
    const proven = await signInWithSaml(org.domain, identity);
    expect(proven.session).toBeUndefined();
    expect(proven.location.searchParams.get('error')).toBe('SSO_SIGN_IN_REFUSED');
    const accounts = await t.database.db
      .select({ providerId: schema.account.providerId })
      .from(schema.account)
      .innerJoin(schema.user, eq(schema.user.id, schema.account.userId))
      .where(eq(schema.user.email, victim));
    expect(accounts).toEqual([{ providerId: 'credential' }]);
    expect((await me(await signIn(t.app, victim))).roles).toEqual([{ id: 'portal.super-admin' }]);
  });

  it('trims and lower-cases the asserted address before looking it up, and refuses one that is not an address', async () => {
    const org = await samlOrganization();
    const owner = `owner@${org.emailDomain}`;
    const spaced = ` ${owner.toUpperCase()} `;
    const landed = await signInWithSaml(org.domain, {
      nameId: spaced,
      email: spaced,
      firstName: 'Ada',
      lastName: 'Owner',
    });
    expect(landed.session).toBeDefined();
    expect((await me(landed.session!)).roles).toEqual([{ id: 'portal.super-admin' }]);

    const forged = `x@evil.io@${org.emailDomain}`;
    const refused = await signInWithSaml(org.domain, {
      nameId: forged,
      email: forged,
      firstName: 'X',
      lastName: 'Y',
    });
    expect(refused.session).toBeUndefined();
    expect(refused.location.searchParams.get('error')).toBe('SSO_SIGN_IN_REFUSED');
    expect(refused.location.searchParams.get('error_description')).not.toContain('evil');
    const users = await t.database.db
      .select({ email: schema.user.email })
      .from(schema.user)
      .where(sql`${schema.user.email} LIKE ${`%${org.emailDomain}%`}`);
    expect(users).toEqual([{ email: owner }]);
  });
});

describe('the SAML connection', () => {
  it('is tested before it is saved: what was read, and a clear refusal of a certificate that is not one', async () => {
    const cookie = await setUpOrganization(t.app, 'owner@saml-test-corp.io');
    const tested = await t.app.inject(
      jsonRequest(
        'POST',
        '/api/v1/sso/connection/test',
        { protocol: 'saml', metadataXml: idp.metadataXml },
        cookie,
      ),
    );
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json()).toMatchObject({
      ok: true,
      details: {
        entityId: idp.entityId,
        entryPoint: idp.ssoUrl,
        certificateFingerprint: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
      },
    });
    const broken = await t.app.inject(
      jsonRequest(
        'POST',
        '/api/v1/sso/connection/test',
        {
          protocol: 'saml',
          entryPoint: idp.ssoUrl,
          entityId: idp.entityId,
          certificate: 'not a certificate',
        },
        cookie,
      ),
    );
    expectApiError(broken, 422, 'SSO_CONNECTION_FAILED');
    expect(broken.json()).toMatchObject({ field: 'certificate' });
  });
});
