import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { DnsStandIn, proveEmailDomain } from './dns-stand-in.ts';
import { OidcStandIn, type OidcIdentity } from './oidc-stand-in.ts';
import {
  STRONG_PASSWORD,
  TEST_ORIGIN,
  accountOf,
  connectSso,
  cookieHeader,
  sessionCookieOf,
  expectApiError,
  invite,
  joinOrganization,
  jsonRequest,
  setUpOrganization,
  signIn,
  signInRequest,
  signUp,
  signUpVerifiedUser,
  ssoSettingsBody,
  useTestApp,
} from './helper.ts';

/*
 * An organisation's single sign-on through an OpenID provider started by the test: the super-admin
 * connects it on the Single sign-on page's endpoints, people sign in by the organisation's SSO
 * domain, and the browser's redirects are followed by hand.
 */
const CLIENT = { clientId: 'acme-portal', clientSecret: 'acme-portal-secret' };
const idp = await OidcStandIn.start(CLIENT);
afterAll(() => idp.stop());
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());

const t = useTestApp({ ...idp.portalEnv, ...dns.portalEnv });

/** What the web app's /sign-in-sso page sends (apps/web/src/features/auth/api/sso-sign-in.ts). */
const signInBody = (organizationSlug: string) => ({
  organizationSlug,
  callbackURL: '/',
  errorCallbackURL: '/sign-in-sso',
});

let organizations = 0;

/**
 * A set-up organisation whose super-admin connected the stand-in, with its SSO domain and email
 * domain, proven through the local DNS server unless `proven` is false (then it stays pending).
 */
async function ssoOrganization(settings: Record<string, unknown> = {}, { proven = true } = {}) {
  organizations += 1;
  const emailDomain = `org${organizations}-sso.io`;
  const domain = `org-${organizations}`;
  const owner = `owner@${emailDomain}`;
  const cookie = await setUpOrganization(t.app, owner);
  await connectSso(
    t.app,
    cookie,
    { protocol: 'oidc', issuer: idp.issuer, ...CLIENT },
    ssoSettingsBody(domain, emailDomain, settings),
  );
  if (proven) await proveEmailDomain(t.app, cookie, dns, emailDomain);
  const [row] = await t.database.db
    .select({ organizationId: schema.member.organizationId })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(eq(schema.user.email, owner));
  return { cookie, domain, emailDomain, owner, organizationId: row!.organizationId };
}

let subjects = 0;
const person = (email: string): OidcIdentity => ({
  sub: `subject-${(subjects += 1)}`,
  email,
  name: 'Sam Single',
});

interface Landing {
  location: URL;
  session: string | undefined;
}

/** /sign-in-sso's flow: start at the portal, approve at the IdP, back to the portal's callback. */
async function signInWithSso(domain: string, as: OidcIdentity | undefined): Promise<Landing> {
  if (as) idp.signInAs(as);
  const start = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/sso', signInBody(domain)));
  expect(start.statusCode, start.body).toBe(200);
  const { url } = start.json() as { url: string };
  expect(url.startsWith(`${idp.issuer}/authorize?`)).toBe(true);
  const stateCookie = cookieHeader(start.headers['set-cookie']);
  const approval = await fetch(url, { redirect: 'manual' });
  expect(approval.status).toBe(302);
  const callback = new URL(approval.headers.get('location') ?? '');
  const landed = await t.app.inject({
    method: 'GET',
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: stateCookie },
  });
  expect(landed.statusCode, landed.body).toBe(302);
  const session = sessionCookieOf(landed.headers['set-cookie']);
  return { location: new URL(String(landed.headers.location), TEST_ORIGIN), session };
}

const me = (cookie: string) => accountOf(t.app, cookie);

describe('OIDC single sign-on', () => {
  it('makes a new person from the organisation’s domain a member with the default role, an SSO member id and no password', async () => {
    const org = await ssoOrganization();
    const landing = await signInWithSso(org.domain, person(`new@${org.emailDomain}`));
    expect(landing.location.pathname).toBe('/');
    expect(landing.session).toBeDefined();
    const account = await me(landing.session!);
    expect(account.organizationId).toBe(org.organizationId);
    expect(account.roles).toEqual([{ id: 'portal.developer' }]);
    expect(account.hasPassword).toBe(false);
    // §2: not a version-4 UUID, so the members page labels the member as an SSO user.
    expect(account.memberId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('signs the same person in again as the same member', async () => {
    const org = await ssoOrganization();
    const who = person(`again@${org.emailDomain}`);
    const first = await me((await signInWithSso(org.domain, who)).session!);
    const second = await me((await signInWithSso(org.domain, who)).session!);
    expect(second.memberId).toBe(first.memberId);
  });

  it('gives a new member the role and the applications chosen for new members', async () => {
    const org = await ssoOrganization();
    const applications = ['sso-app-chosen', 'sso-app-other'];
    for (const id of applications)
      await t.database.db.insert(schema.application).values({
        id,
        organizationId: org.organizationId,
        name: id,
        plan: 'advance',
        region: 'EU',
        state: 'active',
      });
    const saved = await t.app.inject(
      jsonRequest(
        'PUT',
        '/api/v1/sso/settings',
        {
          ...settingsOf(org, false),
          defaultRoleId: 'portal.moderator',
          defaultApplicationScopes: ['sso-app-chosen'],
        },
        org.cookie,
      ),
    );
    expect(saved.json()).toMatchObject({
      defaultRoleId: 'portal.moderator',
      defaultApplicationScopes: [{ id: 'sso-app-chosen', name: 'sso-app-chosen' }],
    });
    const landing = await signInWithSso(org.domain, person(`scoped@${org.emailDomain}`));
    const account = await me(landing.session!);
    expect(account.roles).toEqual([{ id: 'portal.moderator' }]);
    const member = await t.app.inject(
      jsonRequest('GET', `/api/v1/members/${account.memberId}`, undefined, org.cookie),
    );
    expect(member.json()).toMatchObject({
      applicationScopes: [{ id: 'sso-app-chosen', name: 'sso-app-chosen' }],
    });
  });

  it('refuses an address outside the owned domains and the allow-list with NOT_IN_WHITELIST, leaving no user', async () => {
    const org = await ssoOrganization({ allowedEmails: ['guest@elsewhere-corp.io'] });
    const refused = await signInWithSso(org.domain, person('stranger@elsewhere-corp.io'));
    expect(refused.session).toBeUndefined();
    expect(refused.location.pathname).toBe('/sign-in-sso');
    expect(refused.location.searchParams.get('error_description')).toContain('NOT_IN_WHITELIST');
    const users = await t.database.db
      .select()
      .from(schema.user)
      .where(eq(schema.user.email, 'stranger@elsewhere-corp.io'));
    expect(users).toHaveLength(0);

    const allowed = await signInWithSso(org.domain, person('guest@elsewhere-corp.io'));
    expect(allowed.session).toBeDefined();
  });

  it('refuses a new member when the organisation is at its member limit with USER_LIMIT_REACHED', async () => {
    const org = await ssoOrganization();
    await t.database.db
      .update(schema.organization)
      .set({ memberLimit: 1 })
      .where(eq(schema.organization.id, org.organizationId));
    const refused = await signInWithSso(org.domain, person(`late@${org.emailDomain}`));
    expect(refused.session).toBeUndefined();
    expect(refused.location.searchParams.get('error_description')).toContain('USER_LIMIT_REACHED');
  });

  it('refuses a wrong state', async () => {
    const org = await ssoOrganization();
    idp.signInAs(person(`state@${org.emailDomain}`));
    const start = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/sso', signInBody(org.domain)));
    const approval = await fetch((start.json() as { url: string }).url, { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location') ?? '');
    callback.searchParams.set('state', 'not-the-state-the-portal-made');
    const landed = await t.app.inject({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: cookieHeader(start.headers['set-cookie']) },
    });
    expect(landed.statusCode).toBe(302);
    expect(sessionCookieOf(landed.headers['set-cookie'])).toBeUndefined();
    expect(String(landed.headers.location)).toContain('error');
  });

  it('answers an unknown SSO domain with its own message', async () => {
    const response = await t.app.inject(
      jsonRequest('POST', '/api/auth/sign-in/sso', signInBody('no-such-org')),
    );
    expectApiError(response, 404, 'SSO_ORGANIZATION_NOT_FOUND');
  });
});

const settingsOf = (org: { domain: string; emailDomain: string }, enforced: boolean) =>
  ssoSettingsBody(org.domain, org.emailDomain, { enforced });

describe('existing members', () => {
  it('links a member who has a password to the identity provider instead of making another user', async () => {
    const org = await ssoOrganization();
    const email = `linked@${org.emailDomain}`;
    const { memberId } = await joinOrganization(t, email, org.organizationId, 'portal.admin');
    const landing = await signInWithSso(org.domain, person(email));
    const account = await me(landing.session!);
    expect(account.memberId).toBe(memberId);
    expect(account.roles).toEqual([{ id: 'portal.admin' }]);
    expect(account.hasPassword).toBe(true);
  });

  it("refuses a member of another organisation, whatever this organisation's IdP says, without naming them", async () => {
    const org = await ssoOrganization();
    const other = await ssoOrganization();
    // Someone at this organisation's proven domain who joined another organisation.
    const email = `member@${org.emailDomain}`;
    await joinOrganization(t, email, other.organizationId, 'portal.developer');
    const refused = await signInWithSso(org.domain, person(email));
    expect(refused.session).toBeUndefined();
    expect(refused.location.searchParams.get('error')).toBe('SSO_SIGN_IN_REFUSED');
    expect(refused.location.searchParams.get('error_description')).not.toContain(email);
    expect(await signInMethodsOf(email)).toEqual(['credential']);

    // An allowed address of another domain is not linked to an existing user at all.
    const elsewhere = `member@${other.emailDomain}`;
    await joinOrganization(t, elsewhere, other.organizationId, 'portal.developer');
    await t.app.inject(
      jsonRequest(
        'PUT',
        '/api/v1/sso/settings',
        { ...settingsOf(org, false), allowedEmails: [elsewhere] },
        org.cookie,
      ),
    );
    const unlinked = await signInWithSso(org.domain, person(elsewhere));
    expect(unlinked.session).toBeUndefined();
    expect(unlinked.location.pathname).toBe('/sign-in-sso');
    expect(unlinked.location.searchParams.get('error')).toBe('SSO_SIGN_IN_REFUSED');
    expect(await signInMethodsOf(elsewhere)).toEqual(['credential']);
  });
});

const signInMethodsOf = async (email: string) =>
  (
    await t.database.db
      .select({ providerId: schema.account.providerId })
      .from(schema.account)
      .innerJoin(schema.user, eq(schema.user.id, schema.account.userId))
      .where(eq(schema.user.email, email))
  ).map((row) => row.providerId);

const usersWith = (email: string) =>
  t.database.db.select().from(schema.user).where(eq(schema.user.email, email));

/** Where a refused sign-in lands, without what may differ between two people: the answer itself. */
const answerOf = (landing: Landing) => ({
  session: landing.session,
  path: landing.location.pathname,
  error: landing.location.searchParams.get('error'),
  description: landing.location.searchParams.get('error_description'),
});

describe('who an identity provider may sign in (issue 23, finding 1)', () => {
  it('never takes over a portal user without an organisation through a claimed domain: refused, not linked, and their own sign-in lands in no organisation of the claimant', async () => {
    const victimDomain = 'victim-corp.io';
    const victim = `boss@${victimDomain}`;
    // A verified user who has not signed in yet: no organisation.
    await signUpVerifiedUser(t.app, victim);
    const attacker = await ssoOrganization({}, { proven: false });
    // The attacker lists the victim's domain without proving it, and its IdP asserts her address.
    const listed = await t.app.inject(
      jsonRequest(
        'PUT',
        '/api/v1/sso/settings',
        { ...settingsOf(attacker, false), emailDomains: [attacker.emailDomain, victimDomain] },
        attacker.cookie,
      ),
    );
    expect(listed.statusCode, listed.body).toBe(200);
    const refused = await signInWithSso(attacker.domain, person(victim));
    expect(refused.session).toBeUndefined();
    expect(refused.location.pathname).toBe('/sign-in-sso');
    expect(refused.location.searchParams.get('error')).toBe('NOT_IN_WHITELIST');
    expect(await signInMethodsOf(victim)).toEqual(['credential']);

    // Even a domain the attacker proves does not hand it an existing user nobody invited.
    await proveEmailDomain(t.app, attacker.cookie, dns, victimDomain);
    const stillRefused = await signInWithSso(attacker.domain, person(victim));
    expect(stillRefused.session).toBeUndefined();
    expect(stillRefused.location.searchParams.get('error')).toBe('SSO_SIGN_IN_REFUSED');
    expect(await signInMethodsOf(victim)).toEqual(['credential']);
    const members = await t.database.db
      .select()
      .from(schema.member)
      .where(eq(schema.member.organizationId, attacker.organizationId));
    expect(members).toHaveLength(1);

    const own = await me(await signIn(t.app, victim));
    expect(own.organizationId).not.toBe(attacker.organizationId);
    expect(own.roles).toEqual([{ id: 'portal.super-admin' }]);
  });

  it('links an existing user the organisation invited, with the invitation’s role and applications, and confirms the invitation', async () => {
    const org = await ssoOrganization();
    const applicationId = 'sso-invited-app';
    await t.database.db.insert(schema.application).values({
      id: applicationId,
      organizationId: org.organizationId,
      name: applicationId,
      plan: 'advance',
      region: 'EU',
      state: 'active',
    });
    const email = `invited@${org.emailDomain}`;
    const invited = await invite(t.app, org.cookie, [email], 'portal.moderator', [applicationId]);
    expect(invited.statusCode, invited.body).toBeLessThan(300);
    // The invitee signed up on their own before accepting: a portal user without an organisation.
    await signUpVerifiedUser(t.app, email);
    const landing = await signInWithSso(org.domain, person(email));
    expect(landing.session).toBeDefined();
    const account = await me(landing.session!);
    expect(account.organizationId).toBe(org.organizationId);
    expect(account.roles).toEqual([{ id: 'portal.moderator' }]);
    expect(account.hasPassword).toBe(true);
    const member = await t.app.inject(
      jsonRequest('GET', `/api/v1/members/${account.memberId}`, undefined, org.cookie),
    );
    expect(member.json()).toMatchObject({ applicationScopes: [{ id: applicationId, name: applicationId }] });
    const [invitation] = await t.database.db
      .select()
      .from(schema.invitation)
      .where(eq(schema.invitation.email, email));
    expect(invitation?.status).toBe('confirmed');
    expect((await usersWith(email)).length).toBe(1);
  });

  it('makes new people just in time only from a verified domain, or the allow-list, not from a pending one', async () => {
    const org = await ssoOrganization({ allowedEmails: ['guest@pending-elsewhere.io'] }, { proven: false });
    const pending = await signInWithSso(org.domain, person(`early@${org.emailDomain}`));
    expect(pending.session).toBeUndefined();
    expect(pending.location.searchParams.get('error')).toBe('NOT_IN_WHITELIST');
    expect(await usersWith(`early@${org.emailDomain}`)).toHaveLength(0);
    // The allow-list is the organisation's explicit word for one address.
    expect((await signInWithSso(org.domain, person('guest@pending-elsewhere.io'))).session).toBeDefined();

    await proveEmailDomain(t.app, org.cookie, dns, org.emailDomain);
    const verified = await signInWithSso(org.domain, person(`early@${org.emailDomain}`));
    expect((await me(verified.session!)).organizationId).toBe(org.organizationId);
  });
});

describe('the address an identity provider asserts (issue 23, finding 7)', () => {
  it('is trimmed and lower-cased before it is looked up: the existing super-admin signs in, no second user is made', async () => {
    const org = await ssoOrganization();
    const landing = await signInWithSso(org.domain, person(`  ${org.owner.toUpperCase()} `));
    expect(landing.session).toBeDefined();
    const account = await me(landing.session!);
    expect(account.organizationId).toBe(org.organizationId);
    expect(account.roles).toEqual([{ id: 'portal.super-admin' }]);
    const users = await t.database.db
      .select({ email: schema.user.email })
      .from(schema.user)
      .where(sql`${schema.user.email} LIKE ${`%${org.emailDomain}%`}`);
    expect(users).toEqual([{ email: org.owner }]);
  });

  it('is refused when it is not an address, whatever domain it ends in, leaving no user', async () => {
    const org = await ssoOrganization();
    for (const asserted of [
      `x@evil.io@${org.emailDomain}`,
      `two words@${org.emailDomain}`,
      `@${org.emailDomain}`,
    ]) {
      const refused = await signInWithSso(org.domain, person(asserted));
      expect(refused.session, asserted).toBeUndefined();
      expect(refused.location.searchParams.get('error'), asserted).toBe('SSO_SIGN_IN_REFUSED');
    }
    const users = await t.database.db
      .select({ email: schema.user.email })
      .from(schema.user)
      .where(sql`${schema.user.email} LIKE ${`%${org.emailDomain}%`}`);
    expect(users).toEqual([{ email: org.owner }]);
  });
});

describe('refusals (issue 23, finding 8)', () => {
  it('answer the same for a member elsewhere, an unverified user, a user nobody invited and a non-address; and the same NOT_IN_WHITELIST for anyone outside the organisation’s domains, whether they have a portal user or not', async () => {
    const org = await ssoOrganization();
    const other = await ssoOrganization();
    const elsewhere = `elsewhere@${org.emailDomain}`;
    await joinOrganization(t, elsewhere, other.organizationId, 'portal.developer');
    const unverified = `unverified@${org.emailDomain}`;
    expect((await signUp(t.app, unverified)).statusCode).toBe(200);
    const uninvited = `uninvited@${org.emailDomain}`;
    await signUpVerifiedUser(t.app, uninvited);

    const answers = [];
    for (const asserted of [elsewhere, unverified, uninvited, `x@evil.io@${org.emailDomain}`])
      answers.push(answerOf(await signInWithSso(org.domain, person(asserted))));
    expect(answers[0]).toMatchObject({
      session: undefined,
      path: '/sign-in-sso',
      error: 'SSO_SIGN_IN_REFUSED',
    });
    expect(answers[0]!.description).not.toMatch(/elsewhere|@/);
    for (const answer of answers) expect(answer).toEqual(answers[0]);

    // Outside the organisation's domains: someone with a portal user and someone without.
    const outsideMember = `member@${other.emailDomain}`;
    await joinOrganization(t, outsideMember, other.organizationId, 'portal.developer');
    const outside = [];
    for (const asserted of [outsideMember, `nobody@${other.emailDomain}`])
      outside.push(answerOf(await signInWithSso(org.domain, person(asserted))));
    expect(outside[0]).toMatchObject({ session: undefined, path: '/sign-in-sso', error: 'NOT_IN_WHITELIST' });
    expect(outside[1]).toEqual(outside[0]);
  });
});

describe('enforced single sign-on', () => {
  it('refuses members’ passwords with SSO_REQUIRED, ends their sessions, keeps the super-admin’s, and turns invitations off', async () => {
    const org = await ssoOrganization();
    const email = `dev@${org.emailDomain}`;
    const developer = await joinOrganization(t, email, org.organizationId, 'portal.developer');
    const enforced = await t.app.inject(
      jsonRequest('PUT', '/api/v1/sso/settings', settingsOf(org, true), org.cookie),
    );
    expect(enforced.statusCode, enforced.body).toBe(200);
    expect(enforced.json()).toMatchObject({ enforced: true });

    const stale = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, developer.cookie));
    expect(stale.statusCode).toBe(401);
    expectApiError(await signInRequest(t.app, email, STRONG_PASSWORD), 403, 'SSO_REQUIRED');
    // A wrong password still says only that: whether SSO is required is no answer to a guess.
    expect((await signInRequest(t.app, email, 'Wrong-password-1!')).statusCode).toBe(401);
    const throughSso = await signInWithSso(org.domain, person(email));
    expect((await me(throughSso.session!)).memberId).toBe(developer.memberId);

    // The super-admin's password is the way back in when the identity provider fails.
    expect((await signInRequest(t.app, org.owner, STRONG_PASSWORD)).statusCode).toBe(200);
    expect((await me(org.cookie)).roles).toEqual([{ id: 'portal.super-admin' }]);
    const invite = await t.app.inject(
      jsonRequest(
        'POST',
        '/api/v1/invitations',
        { emails: [`x@${org.emailDomain}`], roleIds: ['portal.developer'] },
        org.cookie,
      ),
    );
    expectApiError(invite, 403, 'SSO_ENFORCED');
  });
});

describe('the rules the Single sign-on page enforces, refused by the server too', () => {
  it('refuses requiring SSO without a connection, a super-admin default role, a free-mail domain and a malformed SSO domain', async () => {
    const cookie = await setUpOrganization(t.app, 'owner@rules-sso.io');
    const put = (body: unknown) => t.app.inject(jsonRequest('PUT', '/api/v1/sso/settings', body, cookie));
    expectApiError(
      await put(ssoSettingsBody('rules', 'rules-sso.io', { enforced: true })),
      409,
      'SSO_NOT_CONFIGURED',
    );
    expectApiError(
      await put(ssoSettingsBody('rules', 'rules-sso.io', { defaultRoleId: 'portal.super-admin' })),
      400,
      'VALIDATION_ERROR',
    );
    expectApiError(await put(ssoSettingsBody('rules', 'gmail.com')), 400, 'SSO_EMAIL_DOMAIN_FREE_MAIL');
    // The maintained list beyond the spec's seven, and a provider's subdomain, are free mail too.
    for (const freeMail of ['proton.me', 'qq.com', 'mail.gmail.com']) {
      expectApiError(await put(ssoSettingsBody('rules', freeMail)), 400, 'SSO_EMAIL_DOMAIN_FREE_MAIL');
    }
    expectApiError(await put(ssoSettingsBody('rules.corp', 'rules-sso.io')), 400, 'VALIDATION_ERROR');
    expectApiError(await put(ssoSettingsBody('a'.repeat(33), 'rules-sso.io')), 400, 'VALIDATION_ERROR');
    // Nothing of the refused bodies was kept.
    const settings = await t.app.inject(jsonRequest('GET', '/api/v1/sso', undefined, cookie));
    expect(settings.json()).toMatchObject({
      domain: null,
      emailDomains: [],
      enforced: false,
      connection: null,
    });
  });

  it('accepts a company domain named like a free-mail provider (outlook.acme.com)', async () => {
    const cookie = await setUpOrganization(t.app, 'owner@lookalike-sso.io');
    const saved = await t.app.inject(
      jsonRequest('PUT', '/api/v1/sso/settings', ssoSettingsBody('lookalike', 'outlook.acme.com'), cookie),
    );
    expect(saved.statusCode).toBe(200);
    const settings = await t.app.inject(jsonRequest('GET', '/api/v1/sso', undefined, cookie));
    expect(settings.json().emailDomains).toMatchObject([{ domain: 'outlook.acme.com', status: 'pending' }]);
  });

  it('keeps the saved client secret when a change leaves it out, never answers it, and needs one the first time', async () => {
    const cookie = await setUpOrganization(t.app, 'owner@secret-sso.io');
    const connect = (body: Record<string, unknown>) =>
      t.app.inject(
        jsonRequest(
          'PUT',
          '/api/v1/sso/connection',
          { protocol: 'oidc', issuer: idp.issuer, ...body },
          cookie,
        ),
      );
    expectApiError(await connect({ clientId: CLIENT.clientId }), 400, 'VALIDATION_ERROR');
    const saved = await connect(CLIENT);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(CLIENT.clientSecret);
    const changed = await connect({ clientId: CLIENT.clientId });
    expect(changed.statusCode, changed.body).toBe(200);
    const { providerId } = changed.json() as { providerId: string };
    const [provider] = await t.database.db
      .select()
      .from(schema.ssoProvider)
      .where(eq(schema.ssoProvider.providerId, providerId));
    expect(provider?.oidcConfig).toContain(CLIENT.clientSecret);
  });

  it('stops requiring SSO when the connection is removed', async () => {
    const org = await ssoOrganization();
    await t.app.inject(jsonRequest('PUT', '/api/v1/sso/settings', settingsOf(org, true), org.cookie));
    const removed = await t.app.inject(
      jsonRequest('DELETE', '/api/v1/sso/connection', undefined, org.cookie),
    );
    expect(removed.json()).toMatchObject({ connection: null, enforced: false });
  });
});
