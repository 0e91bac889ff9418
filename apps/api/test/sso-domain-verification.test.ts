import type { SsoEmailDomain, SsoSettings } from '@portal/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import { SYSTEM_AUDIT_CONTEXT } from '../src/modules/audit-log/audit-context.ts';
import { checkEmailDomain, type DomainProofLookup } from '../src/modules/sso/email-domain-proof.ts';
import { EMAIL_DOMAIN_CHECK_QUEUE, scheduleEmailDomainRecheck } from '../src/modules/sso/sso.jobs.ts';
import { findEmailDomain } from '../src/modules/sso/sso.repository.ts';
import { DnsStandIn, emailDomainOf, proveEmailDomain, verifyEmailDomain } from './dns-stand-in.ts';
import { SamlIdp } from './saml-idp.ts';
import { expectApiError, jsonRequest, setUpOrganization, ssoSettingsBody, useTestApp } from './helper.ts';

/*
 * Proving an SSO email domain: the page's Verify and the scheduled re-check ask DNS for the TXT
 * record `portal-verification=<token>` at `_portal-challenge.<domain>`, here a local DNS server
 * (dns2) named by DNS_SERVERS, so nothing leaves the machine.
 */
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());
const idp = await SamlIdp.start();
afterAll(() => idp.stop());
const t = useTestApp({ ...dns.portalEnv, ...idp.portalEnv });

const HOUR_MS = 3_600_000;
let organizations = 0;

/** A set-up organisation listing these email domains (the first is its owner's). */
async function organizationListing(...domains: string[]) {
  organizations += 1;
  const cookie = await setUpOrganization(t.app, `owner@${domains[0]}`);
  const saved = await t.app.inject(
    jsonRequest(
      'PUT',
      '/api/v1/sso/settings',
      ssoSettingsBody(`proof-${organizations}`, domains[0]!, { emailDomains: domains }),
      cookie,
    ),
  );
  expect(saved.statusCode, saved.body).toBe(200);
  const [row] = await t.database.db
    .select({ organizationId: schema.member.organizationId })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(eq(schema.user.email, `owner@${domains[0]}`));
  return { cookie, organizationId: row!.organizationId, domain: `proof-${organizations}` };
}

const stateOf = (settings: SsoSettings, domain: string): SsoEmailDomain => {
  const found = settings.emailDomains.find((entry) => entry.domain === domain);
  if (!found) throw new Error(`${domain} is not listed`);
  return found;
};

async function verified(cookie: string, domain: string) {
  const response = await verifyEmailDomain(t.app, cookie, domain);
  expect(response.statusCode, response.body).toBe(200);
  return stateOf(response.json() as SsoSettings, domain);
}

const rowOf = async (organizationId: string, domain: string) =>
  (await findEmailDomain(t.database.db, organizationId, domain))!;

/** Moves a domain's last check (and its proof's time) into the past, as the hours pass. */
async function age(organizationId: string, domain: string, hours: { checked: number; proven?: number }) {
  const ago = (h: number) => new Date(Date.now() - h * HOUR_MS);
  await t.database.db
    .update(schema.ssoEmailDomain)
    .set({
      checkedAt: ago(hours.checked),
      ...(hours.proven !== undefined ? { verifiedAt: ago(hours.proven) } : {}),
    })
    .where(
      and(eq(schema.ssoEmailDomain.organizationId, organizationId), eq(schema.ssoEmailDomain.domain, domain)),
    );
}

/** The super-admin connects the local SAML identity provider. */
async function connect(cookie: string) {
  const connected = await t.app.inject(
    jsonRequest('PUT', '/api/v1/sso/connection', { protocol: 'saml', metadataXml: idp.metadataXml }, cookie),
  );
  expect(connected.statusCode, connected.body).toBe(200);
  return connected.json() as SsoSettings;
}

/** The domains the SSO plugin links existing users at (its provider's `domain` field). */
async function providerDomainOf(organizationId: string) {
  const [provider] = await t.database.db
    .select()
    .from(schema.ssoProvider)
    .where(eq(schema.ssoProvider.organizationId, organizationId));
  return provider!.domain;
}

let scheduledHours = 0;
/** The scheduled re-check of an hour of its own, through the job queue; answers once the domain was checked again. */
async function runScheduledRecheck(organizationId: string, domain: string) {
  const before = (await rowOf(organizationId, domain)).checkedAt?.getTime();
  scheduledHours += 1;
  await scheduleEmailDomainRecheck(t.app.jobQueue, new Date(Date.UTC(2030, 0, 1, scheduledHours)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const row = await rowOf(organizationId, domain);
    if (row.checkedAt && row.checkedAt.getTime() !== before) return row;
    if (Date.now() > deadline) throw new Error(`${domain} was not checked again`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Verify', () => {
  it('shows each listed domain pending with the record to add, and verifies it once DNS has the token, split into strings or not', async () => {
    const org = await organizationListing('split-proof.io', 'whole-proof.io');
    const listed = await emailDomainOf(t.app, org.cookie, 'split-proof.io');
    expect(listed).toMatchObject({
      status: 'pending',
      verifiedAt: null,
      checkedAt: null,
      checkError: null,
      record: { type: 'TXT', name: '_portal-challenge.split-proof.io' },
    });
    expect(listed.record.value).toMatch(/^portal-verification=[0-9a-f]{32}$/);

    const value = listed.record.value;
    dns.publish(listed.record.name, ['v=spf1 -all'], [value.slice(0, 20), value.slice(20)]);
    const split = await verified(org.cookie, 'split-proof.io');
    expect(split).toMatchObject({ status: 'verified', checkError: null });
    expect(split.verifiedAt).not.toBeNull();
    expect(split.checkedAt).toBe(split.verifiedAt);

    const whole = await proveEmailDomain(t.app, org.cookie, dns, 'whole-proof.io');
    expect(stateOf(whole, 'whole-proof.io').status).toBe('verified');
  });

  it('leaves a domain pending and says why: no record, another token, DNS failing or not answering', async () => {
    const org = await organizationListing('why-proof.io');
    const { record } = await emailDomainOf(t.app, org.cookie, 'why-proof.io');
    expect(await verified(org.cookie, 'why-proof.io')).toMatchObject({
      status: 'pending',
      checkError: 'record_not_found',
    });
    dns.publish(record.name, ['portal-verification=someone-elses-token'], ['google-site-verification=x']);
    const mismatch = await verified(org.cookie, 'why-proof.io');
    expect(mismatch).toMatchObject({ status: 'pending', checkError: 'record_mismatch' });
    expect(mismatch.checkedAt).not.toBeNull();
    dns.fail(record.name, 'servfail');
    expect(await verified(org.cookie, 'why-proof.io')).toMatchObject({
      status: 'pending',
      checkError: 'dns_unavailable',
    });
    dns.fail(record.name, 'silent');
    expect(await verified(org.cookie, 'why-proof.io')).toMatchObject({
      status: 'pending',
      checkError: 'dns_unavailable',
    });
  }, 60_000);

  it('answers 404 for a domain the organisation does not list, and 400 for one that is not a domain', async () => {
    const org = await organizationListing('listed-proof.io');
    expectApiError(
      await verifyEmailDomain(t.app, org.cookie, 'unlisted-proof.io'),
      404,
      'SSO_EMAIL_DOMAIN_NOT_FOUND',
    );
    expectApiError(await verifyEmailDomain(t.app, org.cookie, 'not a domain'), 400, 'VALIDATION_ERROR');
    // The domain is compared as the settings store it: trimmed and lower-cased.
    const response = await verifyEmailDomain(t.app, org.cookie, 'LISTED-proof.io');
    expect(response.statusCode, response.body).toBe(200);
    expect(stateOf(response.json() as SsoSettings, 'listed-proof.io').checkError).toBe('record_not_found');
  });
});

describe('a proof kept', () => {
  it('survives saving the settings again; a domain removed and listed again starts over with a new token', async () => {
    const org = await organizationListing('kept-proof.io');
    await proveEmailDomain(t.app, org.cookie, dns, 'kept-proof.io');
    const { record } = await emailDomainOf(t.app, org.cookie, 'kept-proof.io');
    const put = (emailDomains: string[]) =>
      t.app.inject(
        jsonRequest(
          'PUT',
          '/api/v1/sso/settings',
          ssoSettingsBody(org.domain, 'kept-proof.io', { emailDomains }),
          org.cookie,
        ),
      );
    const saved = (await put(['kept-proof.io', 'added-proof.io'])).json() as SsoSettings;
    expect(stateOf(saved, 'kept-proof.io')).toMatchObject({ status: 'verified', record });
    expect(stateOf(saved, 'added-proof.io').status).toBe('pending');

    expect(
      ((await put(['added-proof.io'])).json() as SsoSettings).emailDomains.map((entry) => entry.domain),
    ).toEqual(['added-proof.io']);
    const again = stateOf(
      (await put(['added-proof.io', 'kept-proof.io'])).json() as SsoSettings,
      'kept-proof.io',
    );
    expect(again.status).toBe('pending');
    expect(again.record.value).not.toBe(record.value);
  });

  it("is what the identity provider's linking domains hold: verified domains only", async () => {
    const org = await organizationListing('linked-proof.io', 'unproven-proof.io');
    const { providerId } = await connect(org.cookie);
    expect(await providerDomainOf(org.organizationId)).toBe(providerId);
    await proveEmailDomain(t.app, org.cookie, dns, 'linked-proof.io');
    expect(await providerDomainOf(org.organizationId)).toBe('linked-proof.io');
  });
});

describe('one verified owner per domain', () => {
  it('refuses listing a domain another organisation verified (SSO_EMAIL_DOMAIN_TAKEN), while pending claims elsewhere block nobody', async () => {
    const first = await organizationListing('first-owner.io', 'contested-proof.io');
    const second = await organizationListing('second-owner.io', 'contested-proof.io');
    await proveEmailDomain(t.app, first.cookie, dns, 'contested-proof.io');
    const third = await organizationListing('third-owner.io');
    const refused = await t.app.inject(
      jsonRequest(
        'PUT',
        '/api/v1/sso/settings',
        ssoSettingsBody(third.domain, 'third-owner.io', {
          emailDomains: ['third-owner.io', 'contested-proof.io'],
        }),
        third.cookie,
      ),
    );
    expect(expectApiError(refused, 409, 'SSO_EMAIL_DOMAIN_TAKEN').message).toMatch(/verified/i);
    // The second organisation's earlier claim stays listed, pending, and cannot be verified.
    expect(await verified(second.cookie, 'contested-proof.io')).toMatchObject({
      status: 'pending',
      checkError: 'verified_elsewhere',
    });
  });

  it('lets the database decide a race: of two organisations whose records both check out at once, one verifies', async () => {
    const winner = await organizationListing('winner-owner.io', 'raced-proof.io');
    const loser = await organizationListing('loser-owner.io', 'raced-proof.io');
    // The loser's check reads its claim, then DNS answers only after the winner has verified.
    const loserRow = await rowOf(loser.organizationId, 'raced-proof.io');
    const lateLookup: DomainProofLookup = async () => {
      await proveEmailDomain(t.app, winner.cookie, dns, 'raced-proof.io');
      return 'found';
    };
    const outcome = await checkEmailDomain(
      { db: t.database.db, lookup: lateLookup, log: t.app.log },
      loserRow,
      new Date(),
      SYSTEM_AUDIT_CONTEXT,
    );
    expect(outcome).toBe('pending');
    expect(await rowOf(loser.organizationId, 'raced-proof.io')).toMatchObject({
      verifiedAt: null,
      checkError: 'verified_elsewhere',
    });
    expect((await rowOf(winner.organizationId, 'raced-proof.io')).verifiedAt).not.toBeNull();
  });
});

describe('the scheduled re-check', () => {
  it('verifies a pending domain once its record appears', async () => {
    const org = await organizationListing('later-proof.io');
    const { record } = await emailDomainOf(t.app, org.cookie, 'later-proof.io');
    dns.publish(record.name, [record.value]);
    const checked = await runScheduledRecheck(org.organizationId, 'later-proof.io');
    expect(checked.verifiedAt).not.toBeNull();
    expect(checked.checkError).toBeNull();
  });

  it('keeps a verified domain through a missing record for 72 hours and DNS outages, then sends it back to pending', async () => {
    const org = await organizationListing('lapsing-proof.io');
    const { providerId } = await connect(org.cookie);
    await proveEmailDomain(t.app, org.cookie, dns, 'lapsing-proof.io');
    const { record } = await emailDomainOf(t.app, org.cookie, 'lapsing-proof.io');

    // Found again a day later: the proof is renewed.
    await age(org.organizationId, 'lapsing-proof.io', { checked: 25, proven: 25 });
    const renewed = await runScheduledRecheck(org.organizationId, 'lapsing-proof.io');
    expect(Date.now() - renewed.verifiedAt!.getTime()).toBeLessThan(HOUR_MS);

    dns.remove(record.name);
    await age(org.organizationId, 'lapsing-proof.io', { checked: 25, proven: 25 });
    const missing = await runScheduledRecheck(org.organizationId, 'lapsing-proof.io');
    expect(missing).toMatchObject({ checkError: 'record_not_found' });
    expect(missing.verifiedAt).not.toBeNull();

    dns.fail(record.name, 'servfail');
    await age(org.organizationId, 'lapsing-proof.io', { checked: 25, proven: 100 });
    const outage = await runScheduledRecheck(org.organizationId, 'lapsing-proof.io');
    expect(outage).toMatchObject({ checkError: 'dns_unavailable' });
    expect(outage.verifiedAt).not.toBeNull();

    dns.publish(record.name, ['portal-verification=not-this-one']);
    await age(org.organizationId, 'lapsing-proof.io', { checked: 25, proven: 73 });
    const lapsed = await runScheduledRecheck(org.organizationId, 'lapsing-proof.io');
    expect(lapsed).toMatchObject({ verifiedAt: null, checkError: 'record_mismatch' });
    expect(await providerDomainOf(org.organizationId)).toBe(providerId);
    expect(
      stateOf(
        (await t.app.inject(jsonRequest('GET', '/api/v1/sso', undefined, org.cookie))).json() as SsoSettings,
        'lapsing-proof.io',
      ).status,
    ).toBe('pending');
  }, 120_000);

  it('is one job an hour however many servers ask for it', async () => {
    const jobs = async () => {
      const result = (await t.database.db.execute(
        sql`SELECT count(*)::int AS jobs FROM pgboss.job WHERE name = ${EMAIL_DOMAIN_CHECK_QUEUE}`,
      )) as unknown as { rows: { jobs: number }[] };
      return result.rows[0]!.jobs;
    };
    const before = await jobs();
    const now = new Date(Date.UTC(2031, 5, 1, 12, 5));
    // Two servers' schedules in the same hour, and a third in the next.
    await scheduleEmailDomainRecheck(t.app.jobQueue, now);
    await scheduleEmailDomainRecheck(t.app.jobQueue, new Date(now.getTime() + 20 * 60_000));
    expect(await jobs()).toBe(before + 1);
    await scheduleEmailDomainRecheck(t.app.jobQueue, new Date(now.getTime() + HOUR_MS));
    expect(await jobs()).toBe(before + 2);
  });
});

describe('the DNS_SERVERS setting', () => {
  const base = { NODE_ENV: 'test', PORTAL_DATA_DIR: '/tmp/dns-servers-config' };
  it('takes IP addresses with optional ports, and refuses names and bad ports at start', () => {
    expect(
      loadConfig({ ...base, DNS_SERVERS: ' 127.0.0.1:5353, 10.0.0.2 ,[::1]:53,::1' }).dnsServers,
    ).toEqual(['127.0.0.1:5353', '10.0.0.2', '[::1]:53', '::1']);
    expect(loadConfig(base).dnsServers).toEqual([]);
    for (const bad of ['dns.example.com', '127.0.0.1:99999', '127.0.0.1:', '[::1]', '1.2.3'])
      expect(() => loadConfig({ ...base, DNS_SERVERS: bad }), bad).toThrow(ConfigError);
  });
});
