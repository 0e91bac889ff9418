import { SUPER_ADMIN_ROLE, type AuditAction } from '@portal/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { DnsStandIn, proveEmailDomain } from './dns-stand-in.ts';
import { GoogleStandIn } from './google-stand-in.ts';
import {
  INITIAL_SETUP,
  STRONG_PASSWORD,
  TEST_ORIGIN,
  accountOf,
  connectSso,
  cookieHeader,
  enrolAuthenticator,
  invitationCodeFromMail,
  invite,
  jsonRequest,
  latestMail,
  sessionCookieOf,
  setUpOrganization,
  signUpVerifiedUser,
  ssoSettingsBody,
  useTestApp,
} from './helper.ts';
import { withAuditEntriesRefused } from './audit-log-support.ts';
import { OidcStandIn, type OidcIdentity } from './oidc-stand-in.ts';
import { freshTotp } from './totp.ts';

/*
 * Sign-ins, sign-outs, joins and second factors in the organisation's audit log: each entry made
 * by the member it is about, from the request that made it, in the transaction of the change where
 * there is one (a refused entry takes the sign-in, the join or the enrolment with it); a failed
 * sign-in for an address nobody has records nothing, and no entry carries a password or a code.
 */
const google = await GoogleStandIn.start();
afterAll(() => google.stop());
const SSO_CLIENT = { clientId: 'audit-portal', clientSecret: 'audit-portal-secret' };
const idp = await OidcStandIn.start(SSO_CLIENT);
afterAll(() => idp.stop());
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());

const t = useTestApp({ ...google.portalEnv, ...idp.portalEnv, ...dns.portalEnv });

const USER_AGENT = 'sign-in-audit-browser/2.0';
const WRONG_PASSWORD = 'Wr0ng!Passw0rd-tried';
const FOUNDER = 'founder@audit-sign-in.example.com';

/** A request as the browser sends it, with the user agent the entries must carry. */
function fromBrowser(options: InjectOptions): InjectOptions {
  return { ...options, headers: { ...options.headers, 'user-agent': USER_AGENT } };
}

function browserJson(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, cookie?: string) {
  return fromBrowser(jsonRequest(method, url, body, cookie));
}

type EntryRow = typeof schema.auditLogEntry.$inferSelect;

/** The entries of one action about a member, in their organisation's log, newest first, as stored. */
async function entries(
  member: { organizationId: string; memberId: string },
  action: AuditAction,
): Promise<EntryRow[]> {
  return t.database.db
    .select()
    .from(schema.auditLogEntry)
    .where(
      and(
        eq(schema.auditLogEntry.organizationId, member.organizationId),
        eq(schema.auditLogEntry.action, action),
        eq(schema.auditLogEntry.targetId, member.memberId),
      ),
    )
    .orderBy(desc(schema.auditLogEntry.id));
}

async function allEntryCount(): Promise<number> {
  const [row] = await t.database.db.select({ count: sql<number>`count(*)::int` }).from(schema.auditLogEntry);
  return row!.count;
}

/** The one new entry of an action since `before` entries of it, checked to be the member's own, from the response's request. */
async function expectOneNewEntry(
  who: { organizationId: string; memberId: string; email: string },
  action: AuditAction,
  before: number,
  response: { headers: Record<string, unknown> },
): Promise<EntryRow> {
  const rows = await entries(who, action);
  expect(rows).toHaveLength(before + 1);
  const entry = rows[0]!;
  expect(entry).toMatchObject({
    actorKind: 'member',
    actorMemberId: who.memberId,
    actorEmail: who.email,
    targetType: 'member',
    targetId: who.memberId,
    targetName: who.email,
    ip: '127.0.0.1',
    userAgent: USER_AGENT,
    requestId: response.headers['x-request-id'],
  });
  return entry;
}

async function memberOf(email: string) {
  const [row] = await t.database.db
    .select({ memberId: schema.member.id, organizationId: schema.member.organizationId })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(eq(schema.user.email, email));
  return row ? { ...row, email } : undefined;
}

async function sessionCount(email: string): Promise<number> {
  const [row] = await t.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(schema.session)
    .innerJoin(schema.user, eq(schema.user.id, schema.session.userId))
    .where(eq(schema.user.email, email));
  return row!.count;
}

const signInWithPassword = (email: string, password = STRONG_PASSWORD) =>
  t.app.inject(browserJson('POST', '/api/auth/sign-in/email', { email, password }));

/**
 * A sign-in through a provider's redirects, followed by hand as the browser would: started at the
 * portal, approved at the provider (told beforehand whom to approve), back at the portal's callback.
 */
async function signInByRedirect(startPath: string, startBody: Record<string, unknown>) {
  const start = await t.app.inject(browserJson('POST', startPath, startBody));
  expect(start.statusCode, start.body).toBe(200);
  const approval = await fetch((start.json() as { url: string }).url, { redirect: 'manual' });
  const callback = new URL(approval.headers.get('location') ?? '');
  const landed = await t.app.inject(
    fromBrowser({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: cookieHeader(start.headers['set-cookie']) },
    }),
  );
  expect(landed.statusCode, landed.body).toBe(302);
  return landed;
}

let founder: { organizationId: string; memberId: string; email: string };
let founderCookie: string;

beforeAll(async () => {
  // The founder signs in before there is an organisation: that sign-in has no log to go to.
  founderCookie = await signUpVerifiedUser(t.app, FOUNDER);
  const setup = await t.app.inject(browserJson('PUT', '/api/v1/accounts', INITIAL_SETUP, founderCookie));
  expect(setup.statusCode, setup.body).toBe(200);
  founder = (await memberOf(FOUNDER))!;
  const [joined] = await entries(founder, 'member.joined');
  expect(joined).toMatchObject({
    actorMemberId: founder.memberId,
    targetId: founder.memberId,
    requestId: setup.headers['x-request-id'],
    userAgent: USER_AGENT,
    changes: {
      role: { after: SUPER_ADMIN_ROLE },
      via: { after: 'organization_setup' },
      organization: { after: INITIAL_SETUP.organization },
    },
  });
  await t.database.db
    .update(schema.organization)
    .set({ memberLimit: 100 })
    .where(eq(schema.organization.id, founder.organizationId));
});

describe('password sign-ins and sign-outs', () => {
  it('records a sign-in with its method, and a sign-out, each once, from the request that made it', async () => {
    const signedIn = await signInWithPassword(FOUNDER);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const entry = await expectOneNewEntry(founder, 'sign_in.succeeded', 0, signedIn);
    expect(entry.actionGroup).toBe('sign_in');
    expect(entry.changes).toEqual({ method: { after: 'password' } });

    const before = (await entries(founder, 'sign_in.signed_out')).length;
    const signedOut = await t.app.inject(
      browserJson('POST', '/api/auth/sign-out', {}, cookieHeader(signedIn.headers['set-cookie'])),
    );
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    await expectOneNewEntry(founder, 'sign_in.signed_out', before, signedOut);
  });

  it('records a wrong password as a failed sign-in, never the password tried', async () => {
    const failed = await signInWithPassword(FOUNDER, WRONG_PASSWORD);
    expect(failed.statusCode).toBe(401);
    const entry = await expectOneNewEntry(founder, 'sign_in.failed', 0, failed);
    expect(entry.changes).toEqual({ method: { after: 'password' }, reason: { after: 'wrong_password' } });
    expect(JSON.stringify(entry)).not.toContain(WRONG_PASSWORD);
  });

  it('records nothing anywhere for an address nobody has', async () => {
    const before = await allEntryCount();
    const failed = await signInWithPassword('nobody@audit-sign-in.example.com', WRONG_PASSWORD);
    expect(failed.statusCode).toBe(401);
    expect(await allEntryCount()).toBe(before);
  });

  it('makes no session when its entry cannot be written', async () => {
    const sessions = await sessionCount(FOUNDER);
    const recorded = (await entries(founder, 'sign_in.succeeded')).length;
    await withAuditEntriesRefused(t.database.db, `action = 'sign_in.succeeded'`, async () => {
      const refused = await signInWithPassword(FOUNDER);
      expect(refused.statusCode).toBe(500);
      expect(sessionCookieOf(refused.headers['set-cookie'])).toBeUndefined();
    });
    expect(await sessionCount(FOUNDER)).toBe(sessions);
    expect(await entries(founder, 'sign_in.succeeded')).toHaveLength(recorded);
  });

  it('keeps the session of a sign-out whose entry cannot be written', async () => {
    const signedIn = await signInWithPassword(FOUNDER);
    const cookie = cookieHeader(signedIn.headers['set-cookie']);
    const sessions = await sessionCount(FOUNDER);
    await withAuditEntriesRefused(t.database.db, `action = 'sign_in.signed_out'`, async () => {
      await t.app.inject(browserJson('POST', '/api/auth/sign-out', {}, cookie));
    });
    expect(await sessionCount(FOUNDER)).toBe(sessions);
  });
});

describe('joining by invitation', () => {
  async function invitationOf(email: string) {
    const invited = await invite(t.app, founderCookie, [email], 'portal.developer');
    expect(invited.statusCode, invited.body).toBe(201);
    const code = invitationCodeFromMail((await latestMail(t.app, email))!.text);
    const verified = await t.app.inject(jsonRequest('POST', '/api/invitations/verify', { code }));
    return { code, invitationId: (verified.json() as { invitationId: string }).invitationId };
  }

  const confirm = (invitation: { code: string; invitationId: string }, email: string) =>
    t.app.inject(
      browserJson('POST', `/api/invitations/${invitation.invitationId}/confirm`, {
        displayName: email.split('@')[0],
        password: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
        code: invitation.code,
      }),
    );

  it('records the invitee joining and signing in, made by the new member, never the code or password', async () => {
    const email = 'joiner@audit-sign-in.example.com';
    const invitation = await invitationOf(email);
    const confirmed = await confirm(invitation, email);
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const joiner = (await memberOf(email))!;
    const joined = await expectOneNewEntry(joiner, 'member.joined', 0, confirmed);
    expect(joined.changes).toEqual({ role: { after: 'portal.developer' }, via: { after: 'invitation' } });
    const signedIn = await expectOneNewEntry(joiner, 'sign_in.succeeded', 0, confirmed);
    expect(signedIn.changes).toEqual({ method: { after: 'password' } });
    for (const entry of [joined, signedIn]) {
      expect(JSON.stringify(entry)).not.toContain(invitation.code);
      expect(JSON.stringify(entry)).not.toContain(STRONG_PASSWORD);
    }
  });

  it('makes no member when the entry of the join cannot be written', async () => {
    const email = 'unrecorded-joiner@audit-sign-in.example.com';
    const invitation = await invitationOf(email);
    await withAuditEntriesRefused(t.database.db, `action = 'member.joined'`, async () => {
      expect((await confirm(invitation, email)).statusCode).toBe(500);
    });
    expect(await memberOf(email)).toBeUndefined();
    const [row] = await t.database.db
      .select({ status: schema.invitation.status })
      .from(schema.invitation)
      .where(eq(schema.invitation.id, invitation.invitationId));
    expect(row?.status).toBe('pending');
  });
});

describe('second factors', () => {
  const email = 'second-factor@audit-sign-in.example.com';
  let member: { organizationId: string; memberId: string; email: string };
  let cookie: string;
  let key: string;

  it('makes no enrolment when its entry cannot be written', async () => {
    const invited = await invite(t.app, founderCookie, [email], 'portal.developer');
    expect(invited.statusCode, invited.body).toBe(201);
    const code = invitationCodeFromMail((await latestMail(t.app, email))!.text);
    const { invitationId } = (
      await t.app.inject(jsonRequest('POST', '/api/invitations/verify', { code }))
    ).json() as {
      invitationId: string;
    };
    const confirmed = await t.app.inject(
      jsonRequest('POST', `/api/invitations/${invitationId}/confirm`, {
        displayName: 'second',
        password: STRONG_PASSWORD,
        confirmPassword: STRONG_PASSWORD,
        code,
      }),
    );
    cookie = cookieHeader(confirmed.headers['set-cookie']);
    member = (await memberOf(email))!;

    await withAuditEntriesRefused(t.database.db, `action = 'two_factor.enrolled'`, async () => {
      await expect(enrolAuthenticator(t.app, cookie)).rejects.toThrow(/two-factor confirm failed/);
    });
    expect((await accountOf(t.app, cookie)).twoFactorEnabled).toBe(false);
    expect(await entries(member, 'two_factor.enrolled')).toEqual([]);
  });

  it('records the enrolment, once', async () => {
    // Enrolment starts again: the refused confirmation left the factor unconfirmed.
    const enabled = await t.app.inject(
      jsonRequest('POST', '/api/auth/two-factor/enable', { password: STRONG_PASSWORD }, cookie),
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    key = new URL((enabled.json() as { totpURI: string }).totpURI).searchParams.get('secret')!;
    const confirmed = await t.app.inject(
      browserJson('POST', '/api/auth/two-factor/verify-totp', { code: await freshTotp(key) }, cookie),
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    cookie = sessionCookieOf(confirmed.headers['set-cookie'])!;
    const entry = await expectOneNewEntry(member, 'two_factor.enrolled', 0, confirmed);
    expect(entry.changes).toEqual({ twoFactorEnabled: { before: false, after: true } });
    // The session enrolment makes in place of the member's is no sign-in.
    expect(await entries(member, 'sign_in.succeeded')).toHaveLength(1);
  });

  it('records a sign-in finished by the code, after the password, and a wrong code as a failure without the code', async () => {
    const signedInBefore = (await entries(member, 'sign_in.succeeded')).length;
    const password = await signInWithPassword(email);
    expect(password.statusCode, password.body).toBe(200);
    const challenge = cookieHeader(password.headers['set-cookie']);
    // The password alone is no sign-in yet.
    expect(await entries(member, 'sign_in.succeeded')).toHaveLength(signedInBefore);

    const rightCode = await freshTotp(key);
    const wrongCode = String((Number(rightCode) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await t.app.inject(
      browserJson('POST', '/api/auth/two-factor/verify-totp', { code: wrongCode }, challenge),
    );
    expect(wrong.statusCode, wrong.body).toBe(401);
    const failure = await expectOneNewEntry(member, 'sign_in.failed', 0, wrong);
    expect(failure.changes).toEqual({ method: { after: 'two_factor' }, reason: { after: 'wrong_code' } });
    expect(JSON.stringify(failure)).not.toContain(wrongCode);

    const right = await t.app.inject(
      browserJson('POST', '/api/auth/two-factor/verify-totp', { code: rightCode }, challenge),
    );
    expect(right.statusCode, right.body).toBe(200);
    const entry = await expectOneNewEntry(member, 'sign_in.succeeded', signedInBefore, right);
    expect(entry.changes).toEqual({ method: { after: 'two_factor' }, firstFactor: { after: 'password' } });
    expect(JSON.stringify(entry)).not.toContain(rightCode);
    cookie = sessionCookieOf(right.headers['set-cookie'])!;
  });

  it('records the second factor turned off', async () => {
    const removed = await t.app.inject(
      browserJson('POST', '/api/auth/two-factor/disable', { password: STRONG_PASSWORD }, cookie),
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const entry = await expectOneNewEntry(member, 'two_factor.removed', 0, removed);
    expect(entry.actionGroup).toBe('two_factor');
    expect(entry.changes).toEqual({ twoFactorEnabled: { before: true, after: false } });
    expect(JSON.stringify(entry)).not.toContain(STRONG_PASSWORD);
  });
});

describe('Google sign-ins', () => {
  const email = 'googler@audit-sign-in-google.example.com';
  const signInWithGoogle = () => {
    google.signInAs({ sub: 'google-audit-subject', email });
    return signInByRedirect('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: '/',
      errorCallbackURL: '/',
    });
  };

  it('records a Google sign-in of a member, and one finished by the code after Google', async () => {
    // A new user's first sign-in comes before their organisation, whose log then starts with its setup.
    const first = sessionCookieOf((await signInWithGoogle()).headers['set-cookie'])!;
    await accountOf(t.app, first);
    const member = (await memberOf(email))!;
    expect(await entries(member, 'sign_in.succeeded')).toEqual([]);

    const again = await signInWithGoogle();
    const entry = await expectOneNewEntry(member, 'sign_in.succeeded', 0, again);
    expect(entry.changes).toEqual({ method: { after: 'google' } });

    const { key } = await enrolAuthenticator(t.app, sessionCookieOf(again.headers['set-cookie'])!);
    const challenged = await signInWithGoogle();
    expect(new URL(String(challenged.headers.location), TEST_ORIGIN).pathname).toBe('/two-factor');
    expect(await entries(member, 'sign_in.succeeded')).toHaveLength(1);
    const finished = await t.app.inject(
      browserJson(
        'POST',
        '/api/auth/two-factor/verify-totp',
        { code: await freshTotp(key) },
        cookieHeader(challenged.headers['set-cookie']),
      ),
    );
    expect(finished.statusCode, finished.body).toBe(200);
    const secondStep = await expectOneNewEntry(member, 'sign_in.succeeded', 1, finished);
    expect(secondStep.changes).toEqual({ method: { after: 'two_factor' }, firstFactor: { after: 'google' } });
  });
});

describe('single sign-on', () => {
  it('records a person the identity provider makes a member joining and signing in, then signing in again', async () => {
    const emailDomain = 'audit-sso.io';
    const owner = `owner@${emailDomain}`;
    const ownerCookie = await setUpOrganization(t.app, owner);
    await connectSso(
      t.app,
      ownerCookie,
      { protocol: 'oidc', issuer: idp.issuer, ...SSO_CLIENT },
      ssoSettingsBody('audit-sso', emailDomain, {}),
    );
    await proveEmailDomain(t.app, ownerCookie, dns, emailDomain);
    const person: OidcIdentity = { sub: 'sso-audit-subject', email: `sam@${emailDomain}`, name: 'Sam' };

    async function signInWithSso() {
      idp.signInAs(person);
      const landed = await signInByRedirect('/api/auth/sign-in/sso', {
        organizationSlug: 'audit-sso',
        callbackURL: '/',
        errorCallbackURL: '/sign-in-sso',
      });
      expect(sessionCookieOf(landed.headers['set-cookie'])).toBeDefined();
      return landed;
    }

    const first = await signInWithSso();
    const member = (await memberOf(person.email))!;
    const joined = await expectOneNewEntry(member, 'member.joined', 0, first);
    expect(joined.changes).toEqual({ role: { after: 'portal.developer' }, via: { after: 'sso' } });
    const signedIn = await expectOneNewEntry(member, 'sign_in.succeeded', 0, first);
    expect(signedIn.changes).toEqual({ method: { after: 'sso' } });

    const again = await signInWithSso();
    await expectOneNewEntry(member, 'sign_in.succeeded', 1, again);
    expect(await entries(member, 'member.joined')).toHaveLength(1);
  });
});
