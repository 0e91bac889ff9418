import { generateKeyPairSync } from 'node:crypto';
import type { AuditLogEntry, SsoConnection, SsoSettings } from '@portal/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../scale/until.ts';
import * as schema from '../src/db/schema.ts';
import { scheduleEmailDomainRecheck } from '../src/modules/sso/sso.jobs.ts';
import { auditEntries, storedAuditRows, withAuditEntriesRefused } from './audit-log-support.ts';
import { DnsStandIn, emailDomainOf } from './dns-stand-in.ts';
import { jsonRequest, setUpOrganization, ssoSettingsBody, useTestApp } from './helper.ts';
import { OidcStandIn } from './oidc-stand-in.ts';
import { SamlIdp } from './saml-idp.ts';

/*
 * The Single sign-on page's changes in the organisation's audit log, each in its change's
 * transaction: the connection saved or removed, the settings changed, an email domain verified by
 * the super-admin's Verify or by the scheduled re-check (the portal's own change), or lapsing. No
 * entry holds the client secret, the identity provider's metadata or a domain's token.
 */
const FIRST_SECRET = 'first-client-secret-4a7d9e';
const SECOND_SECRET = 'second-client-secret-b81c02';
const oidc = await OidcStandIn.start({ clientId: 'audited-portal', clientSecret: SECOND_SECRET });
afterAll(() => oidc.stop());
const saml = await SamlIdp.start();
afterAll(() => saml.stop());
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());
const t = useTestApp({
  ...dns.portalEnv,
  SSO_TRUSTED_IDP_ORIGINS: [oidc.origin, new URL(saml.ssoUrl).origin].join(','),
});

const USER_AGENT = 'sso-audit-browser/1.0';
const OWNER_EMAIL = 'owner@sso-audit.io';
const REDACTED = '[redacted]';
const HOUR_MS = 3_600_000;

/** A private key pasted into the metadata by mistake: it is stored with the metadata, never logged. */
const pastedPrivateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const metadataWithPrivateKey = saml.metadataXml.replace(
  /(<\?xml[^>]*\?>)?/,
  `$1<!-- ${pastedPrivateKey} -->`,
);

let owner: string;
let ownerMemberId: string;
let organizationId: string;

beforeAll(async () => {
  owner = await setUpOrganization(t.app, OWNER_EMAIL);
  const me = (await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner))).json() as {
    organizationId: string;
    memberId: string;
  };
  organizationId = me.organizationId;
  ownerMemberId = me.memberId;
});

/** A request as the owner's browser sends it, with a user agent the entries must carry. */
function browserRequest(method: 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const request = jsonRequest(method, url, body, owner);
  return { ...request, headers: { ...request.headers, 'user-agent': USER_AGENT } };
}

async function ownerRequest(method: 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const response = await t.app.inject(browserRequest(method, url, body));
  expect(response.statusCode, response.body).toBe(200);
  return { settings: response.json() as SsoSettings, requestId: response.headers['x-request-id'] };
}

/** The organisation's SSO entries, newest first, as the audit log's API lists them. */
const ssoEntries = () => auditEntries(t.app, owner, '&actionGroup=sso');

async function newestEntry() {
  const [entry] = await ssoEntries();
  return entry!;
}

/** Every stored entry of the organisation, every column, as one text to search. */
const entryRowsText = async () => JSON.stringify(await storedAuditRows(t.database.db, organizationId));

function expectMadeByOwner(entry: AuditLogEntry, requestId: unknown) {
  expect(entry.actor).toEqual({ kind: 'member', memberId: ownerMemberId, email: OWNER_EMAIL });
  expect(entry.userAgent).toBe(USER_AGENT);
  expect(entry.ip).toBe('127.0.0.1');
  expect(entry.requestId).toBe(requestId);
}

function expectMadeByPortal(entry: AuditLogEntry) {
  expect(entry.actor).toEqual({ kind: 'system', memberId: null, email: null });
  expect(entry).toMatchObject({ ip: null, userAgent: null, requestId: null });
}

async function storedProvider() {
  const [provider] = await t.database.db
    .select()
    .from(schema.ssoProvider)
    .where(eq(schema.ssoProvider.organizationId, organizationId));
  return provider;
}

/** The connection of the OIDC stand-in with this client id, and a new client secret or none (the saved one kept). */
const oidcConnection = (clientId: string, clientSecret?: string) => ({
  protocol: 'oidc',
  issuer: oidc.issuer,
  clientId,
  ...(clientSecret === undefined ? {} : { clientSecret }),
});

const settingsBody = (changes: Record<string, unknown> = {}) =>
  ssoSettingsBody('sso-audit', 'sso-audit.io', changes);

describe('the connection', () => {
  let connectionId: string;

  it('records a new OIDC connection with its fields, showing the client secret as set, never its value', async () => {
    const { requestId } = await ownerRequest(
      'PUT',
      '/api/v1/sso/connection',
      oidcConnection('first-portal', FIRST_SECRET),
    );
    connectionId = (await storedProvider())!.id;
    const saved = await newestEntry();
    expect(saved).toMatchObject({
      action: 'sso.connection_saved',
      actionGroup: 'sso',
      target: { type: 'sso_connection', id: connectionId, name: oidc.issuer },
    });
    expect(saved.changes).toEqual({
      protocol: { before: null, after: 'oidc' },
      issuer: { before: null, after: oidc.issuer },
      clientId: { before: null, after: 'first-portal' },
      clientSecret: { after: REDACTED },
    });
    expectMadeByOwner(saved, requestId);
  });

  it('records nothing for a save that changes nothing (the secret left empty is kept)', async () => {
    const before = (await ssoEntries()).length;
    await ownerRequest('PUT', '/api/v1/sso/connection', oidcConnection('first-portal'));
    expect((await ssoEntries()).length).toBe(before);
  });

  it('keeps no connection whose entry could not be written', async () => {
    await withAuditEntriesRefused(t.database.db, `action = 'sso.connection_saved'`, async () => {
      const refused = await t.app.inject(
        browserRequest('PUT', '/api/v1/sso/connection', oidcConnection('never-saved', SECOND_SECRET)),
      );
      expect(refused.statusCode).toBe(500);
    });
    const oidcConfig = JSON.parse((await storedProvider())!.oidcConfig!) as {
      clientId: string;
      clientSecret: string;
    };
    expect(oidcConfig).toMatchObject({ clientId: 'first-portal', clientSecret: FIRST_SECRET });
  });

  it('records a new client id and secret: only what changed, the secret as changed', async () => {
    const { requestId } = await ownerRequest(
      'PUT',
      '/api/v1/sso/connection',
      oidcConnection('audited-portal', SECOND_SECRET),
    );
    const saved = await newestEntry();
    expect(saved).toMatchObject({ action: 'sso.connection_saved', target: { id: connectionId } });
    expect(saved.changes).toEqual({
      clientId: { before: 'first-portal', after: 'audited-portal' },
      clientSecret: { before: REDACTED, after: REDACTED },
    });
    expectMadeByOwner(saved, requestId);
  });

  it('records the move to SAML: the OIDC fields gone, the SAML ones and the metadata set', async () => {
    const { settings, requestId } = await ownerRequest('PUT', '/api/v1/sso/connection', {
      protocol: 'saml',
      metadataXml: metadataWithPrivateKey,
    });
    const connection = settings.connection as Extract<SsoConnection, { protocol: 'saml' }>;
    const saved = await newestEntry();
    expect(saved).toMatchObject({
      action: 'sso.connection_saved',
      target: { type: 'sso_connection', id: connectionId, name: saml.entityId },
    });
    expect(saved.changes).toEqual({
      protocol: { before: 'oidc', after: 'saml' },
      issuer: { before: oidc.issuer, after: null },
      clientId: { before: 'audited-portal', after: null },
      entityId: { before: null, after: saml.entityId },
      entryPoint: { before: null, after: saml.ssoUrl },
      certificateFingerprint: { before: null, after: connection.certificateFingerprint },
      certificateExpiresAt: { before: null, after: connection.certificateExpiresAt },
      clientSecret: { before: REDACTED },
      metadataXml: { after: REDACTED },
    });
    expectMadeByOwner(saved, requestId);
  });

  it('records the removal, with SSO no longer required', async () => {
    await ownerRequest('PUT', '/api/v1/sso/settings', settingsBody({ enforced: true }));
    const { requestId } = await ownerRequest('DELETE', '/api/v1/sso/connection');
    const removed = await newestEntry();
    expect(removed).toMatchObject({
      action: 'sso.connection_removed',
      target: { type: 'sso_connection', id: connectionId, name: saml.entityId },
      changes: {
        protocol: { before: 'saml', after: null },
        entityId: { before: saml.entityId, after: null },
        metadataXml: { before: REDACTED },
        enforced: { before: true, after: false },
      },
    });
    expectMadeByOwner(removed, requestId);

    const before = (await ssoEntries()).length;
    await ownerRequest('DELETE', '/api/v1/sso/connection');
    expect((await ssoEntries()).length).toBe(before);
  });

  it('left no secret and no private key in any entry', async () => {
    const rows = await entryRowsText();
    expect(rows).toContain('sso.connection_removed');
    for (const secret of [FIRST_SECRET, SECOND_SECRET, 'PRIVATE KEY', pastedPrivateKey.split('\n')[5]!])
      expect(rows).not.toContain(secret);
  });
});

describe('the settings', () => {
  it('records the fields that changed, and nothing for a save that changes nothing or only reorders', async () => {
    await ownerRequest('PUT', '/api/v1/sso/settings', settingsBody());
    const before = (await ssoEntries()).length;
    await ownerRequest('PUT', '/api/v1/sso/settings', settingsBody());
    expect((await ssoEntries()).length).toBe(before);

    const { requestId } = await ownerRequest(
      'PUT',
      '/api/v1/sso/settings',
      settingsBody({
        emailDomains: ['sso-audit.io', 'other-audit.io'],
        allowedEmails: ['b@partner.io', 'a@partner.io'],
        defaultRoleId: 'portal.analyst',
      }),
    );
    const changed = await newestEntry();
    expect(changed).toMatchObject({
      action: 'sso.settings_changed',
      target: { type: 'organization', id: organizationId },
    });
    expect(changed.changes).toEqual({
      emailDomains: { before: ['sso-audit.io'], after: ['other-audit.io', 'sso-audit.io'] },
      allowedEmails: { before: [], after: ['a@partner.io', 'b@partner.io'] },
      defaultRoleId: { before: 'portal.developer', after: 'portal.analyst' },
    });
    expectMadeByOwner(changed, requestId);

    const count = (await ssoEntries()).length;
    await ownerRequest(
      'PUT',
      '/api/v1/sso/settings',
      settingsBody({
        emailDomains: ['other-audit.io', 'sso-audit.io'],
        allowedEmails: ['a@partner.io', 'b@partner.io'],
        defaultRoleId: 'portal.analyst',
      }),
    );
    expect((await ssoEntries()).length).toBe(count);
  });
});

describe('email domains', () => {
  let scheduledHours = 0;
  /** The re-check of an hour of its own, through the job queue, as the servers' schedule sends it. */
  async function runScheduledRecheckUntil(what: string, recorded: (entry: AuditLogEntry) => boolean) {
    scheduledHours += 1;
    await scheduleEmailDomainRecheck(t.app.jobQueue, new Date(Date.UTC(2035, 0, 1, scheduledHours)));
    let found: AuditLogEntry | undefined;
    await until(what, 60_000, async () => {
      found = (await ssoEntries()).find(recorded);
      return found !== undefined;
    });
    return found!;
  }

  async function publishProof(domain: string) {
    const { record } = await emailDomainOf(t.app, owner, domain);
    dns.publish(record.name, [record.value]);
    return record;
  }

  async function domainRow(domain: string) {
    const [row] = await t.database.db
      .select()
      .from(schema.ssoEmailDomain)
      .where(
        and(
          eq(schema.ssoEmailDomain.organizationId, organizationId),
          eq(schema.ssoEmailDomain.domain, domain),
        ),
      );
    return row!;
  }

  beforeAll(async () => {
    await ownerRequest('PUT', '/api/v1/sso/connection', { protocol: 'saml', metadataXml: saml.metadataXml });
    await ownerRequest(
      'PUT',
      '/api/v1/sso/settings',
      settingsBody({
        emailDomains: ['sso-audit.io', 'verify-audit.io', 'recheck-audit.io', 'refused-audit.io'],
      }),
    );
  });

  it("records a domain Verify proved as the member's change, once, never its token", async () => {
    const record = await publishProof('verify-audit.io');
    const { requestId } = await ownerRequest('POST', '/api/v1/sso/email-domains/verify-audit.io/verify');
    const verified = await newestEntry();
    expect(verified).toMatchObject({
      action: 'sso.domain_verified',
      target: { type: 'email_domain', id: 'verify-audit.io', name: 'verify-audit.io' },
    });
    expect(verified.changes).toEqual({ status: { before: 'pending', after: 'verified' } });
    expectMadeByOwner(verified, requestId);

    const count = (await ssoEntries()).length;
    await ownerRequest('POST', '/api/v1/sso/email-domains/verify-audit.io/verify');
    expect((await ssoEntries()).length).toBe(count);
    expect(await entryRowsText()).not.toContain(record.value.split('=')[1]!);
  });

  it("records a domain the scheduled re-check proved, and one whose proof lapsed, as the portal's changes", async () => {
    await publishProof('recheck-audit.io');
    const verified = await runScheduledRecheckUntil(
      'the re-check verifying recheck-audit.io',
      (entry) => entry.action === 'sso.domain_verified' && entry.target.id === 'recheck-audit.io',
    );
    expect(verified.changes).toEqual({ status: { before: 'pending', after: 'verified' } });
    expectMadeByPortal(verified);

    // The record has been gone since its proof, 73 hours ago: past the grace period.
    dns.remove((await emailDomainOf(t.app, owner, 'verify-audit.io')).record.name);
    await t.database.db
      .update(schema.ssoEmailDomain)
      .set({
        checkedAt: new Date(Date.now() - 25 * HOUR_MS),
        verifiedAt: new Date(Date.now() - 73 * HOUR_MS),
      })
      .where(
        and(
          eq(schema.ssoEmailDomain.organizationId, organizationId),
          eq(schema.ssoEmailDomain.domain, 'verify-audit.io'),
        ),
      );
    const lapsed = await runScheduledRecheckUntil(
      'the re-check withdrawing verify-audit.io',
      (entry) => entry.action === 'sso.domain_verification_lapsed',
    );
    expect(lapsed).toMatchObject({
      target: { type: 'email_domain', id: 'verify-audit.io', name: 'verify-audit.io' },
    });
    expect(lapsed.changes).toEqual({
      status: { before: 'verified', after: 'pending' },
      checkError: { after: 'record_not_found' },
    });
    expectMadeByPortal(lapsed);
    expect((await domainRow('verify-audit.io')).verifiedAt).toBeNull();
  }, 150_000);

  it('leaves a domain pending, its provider linking nothing more, when its entry could not be written', async () => {
    await publishProof('refused-audit.io');
    const linkingBefore = (await storedProvider())!.domain;
    await withAuditEntriesRefused(t.database.db, `action = 'sso.domain_verified'`, async () => {
      const refused = await t.app.inject(
        browserRequest('POST', '/api/v1/sso/email-domains/refused-audit.io/verify'),
      );
      expect(refused.statusCode).toBe(500);
    });
    expect((await domainRow('refused-audit.io')).verifiedAt).toBeNull();
    expect((await storedProvider())!.domain).toBe(linkingBefore);
    expect((await ssoEntries()).some((entry) => entry.target.id === 'refused-audit.io')).toBe(false);
  });
});
