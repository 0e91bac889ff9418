import type { Application } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENABLED_AUTH_ENDPOINTS,
  GOOGLE_ENDPOINTS,
  SSO_ENDPOINTS,
} from '../src/modules/identity/identity.routes.ts';
import * as schema from '../src/db/schema.ts';
import { documentPath } from '../src/docs/api-reference.ts';
import { monthlyRunService } from '../src/modules/billing/monthly-run.service.ts';
import { SYSTEM_AUDIT_CONTEXT } from '../src/modules/audit-log/audit-context.ts';
import { operatorToken } from '../src/modules/operators/operator-token.ts';
import {
  BILLING_UPDATE,
  CREATED,
  FORBIDDEN,
  NOT_FOUND,
  NO_CONTENT,
  OK,
  UNAUTHORIZED,
  type Outcome,
} from './access-outcomes.ts';
import { newApplicationWithUsage } from './billing-fixtures.ts';
import { DnsStandIn } from './dns-stand-in.ts';
import { GoogleStandIn } from './google-stand-in.ts';
import { SamlIdp } from './saml-idp.ts';
import {
  STRONG_PASSWORD,
  TEST_ORIGIN,
  invitationCodeFromMail,
  invite,
  joinByInvitation,
  jsonRequest,
  latestMail,
  setUpOrganization,
  signIn,
  useTestApp,
} from './helper.ts';

/*
 * The whole API: every route of the OpenAPI document (the identity endpoints among them) and the
 * API reference, called by every kind of caller, with the answer the architecture's role table and
 * tenancy rules give. The expected answers are written here from those rules, not read from the
 * code under test; a route in the document without a row here fails the first test.
 */
// Google sign-in is configured, so its endpoints are in the document too; the portal reads the
// stand-in's discovery when it starts. Organisations connect a local SAML identity provider, whose
// loopback origin the operator trusts.
const google = await GoogleStandIn.start();
afterAll(() => google.stop());
const samlIdp = await SamlIdp.start();
afterAll(() => samlIdp.stop());
// Email domain proofs ask this local DNS server, which has no records: the check answers, pending.
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());
const t = useTestApp({ ...google.portalEnv, ...samlIdp.portalEnv, ...dns.portalEnv });

const CALLERS = [
  'anonymous',
  'super-admin',
  'admin',
  'moderator',
  'analyst',
  'developer',
  'scoped developer',
  'other organisation',
] as const;
type Caller = (typeof CALLERS)[number];
type SignedIn = Exclude<Caller, 'anonymous'>;

const BAD_REQUEST: Outcome = { status: 400 };

/*
 * Who holds each permission, copied from the architecture's role table. The scoped developer is a
 * developer limited to one application; the target applications below are outside that scope.
 */
const ROLE_OF: Record<Exclude<SignedIn, 'other organisation'>, string> = {
  'super-admin': 'portal.super-admin',
  admin: 'portal.admin',
  moderator: 'portal.moderator',
  analyst: 'portal.analyst',
  developer: 'portal.developer',
  'scoped developer': 'portal.developer',
};
type OwnCaller = keyof typeof ROLE_OF;
const HOLDERS = {
  VIEW_APPLICATION: ['portal.super-admin', 'portal.admin', 'portal.moderator', 'portal.developer'],
  EDIT_APPLICATION: ['portal.super-admin', 'portal.admin', 'portal.moderator', 'portal.developer'],
  CREATE_APPLICATION: ['portal.super-admin', 'portal.admin', 'portal.developer'],
  VIEW_BILLING: ['portal.super-admin'],
  VIEW_PLAN_DETAIL: ['portal.super-admin', 'portal.admin'],
  VIEW_MEMBER: ['portal.super-admin', 'portal.admin', 'portal.moderator'],
  MANAGE_MEMBER: ['portal.super-admin', 'portal.admin'],
  MANAGE_SECURITY: ['portal.super-admin'],
  MANAGE_SSO: ['portal.super-admin'],
  VIEW_AUDIT_LOG: ['portal.super-admin', 'portal.admin'],
  MANAGE_USAGE_ALERTS: ['portal.super-admin'],
  NOBODY: [],
} as const;

/** The same answer for everyone: public routes, and routes that ignore the portal session. */
function everyone(outcome: Outcome): Record<Caller, Outcome> {
  return Object.fromEntries(CALLERS.map((caller) => [caller, outcome])) as Record<Caller, Outcome>;
}

/** Any signed-in caller gets `outcome`; nobody without a session. */
function signedIn(outcome: Outcome): Record<Caller, Outcome> {
  return { ...everyone(outcome), anonymous: UNAUTHORIZED };
}

/**
 * A permission's answers: `allowed` to holders, 403 to the other roles, 401 without a session, and
 * for another organisation's member `otherOrganisation` (a holder there: 404 for our objects, or the
 * allowed answer on their own organisation's collection). `scoped` is the scoped developer's answer
 * when the call names an application outside their scope.
 */
function permission(
  holders: readonly string[],
  allowed: Outcome,
  otherOrganisation: Outcome,
  scoped?: Outcome,
): Record<Caller, Outcome> {
  const answers = { anonymous: UNAUTHORIZED, 'other organisation': otherOrganisation } as Record<
    Caller,
    Outcome
  >;
  for (const caller of Object.keys(ROLE_OF) as OwnCaller[]) {
    answers[caller] = holders.includes(ROLE_OF[caller]) ? allowed : FORBIDDEN;
  }
  if (scoped && holders.includes('portal.developer')) answers['scoped developer'] = scoped;
  return answers;
}

interface Person {
  cookie: string;
  memberId: string;
  email: string;
}

const people = {} as Record<SignedIn, Person>;
/** Applications of the owner's organisation, each outside the scoped developer's scope. */
let target: Application;
let inScope: Application;
/** The application whose API keys the key rows use, outside the scoped developer's scope too. */
let keysTarget: Application;
const activePool: Application[] = [];
const deactivatedPool: Application[] = [];
let targetMember: Person;
/** The owner's organisation's invoice of March 2025 (MAU-based), by its padded id. */
let invoiceId = '';
let ownerOrganizationId = '';
let pendingInvitationId = '';
let verifiableCode = '';
/** The identity provider of an organisation of its own that signs in with SSO, under SSO_DOMAIN. */
let ssoProviderId = '';
const SSO_DOMAIN = 'matrix-sso';
let emailCounter = 0;
const freshEmail = (label: string) => `${label}-${(emailCounter += 1)}@matrix.io`;

async function json(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as unknown;
}

async function createApplication(name: string): Promise<Application> {
  const [app] = (await json(
    await t.app.inject(
      jsonRequest(
        'POST',
        '/api/v1/applications',
        { name, plan: 'advance', region: 'EU' },
        people['super-admin'].cookie,
      ),
    ),
  )) as Application[];
  return app!;
}

async function waitUntilActive(apps: Application[]) {
  const deadline = Date.now() + 60_000;
  for (const app of apps) {
    for (;;) {
      const read = (await json(
        await t.app.inject(
          jsonRequest(
            'GET',
            `/api/v1/applications/${app.applicationId}`,
            undefined,
            people['super-admin'].cookie,
          ),
        ),
      )) as Application;
      if (read.state === 'active') break;
      if (Date.now() > deadline) throw new Error(`${app.name} stayed ${read.state}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function pendingInvitation(): Promise<{ id: string; code: string; email: string }> {
  const email = freshEmail('invitee');
  const response = await invite(t.app, people['super-admin'].cookie, [email], 'portal.developer');
  const { results } = (await json(response)) as { results: { id: string }[] };
  const code = invitationCodeFromMail((await latestMail(t.app, email))!.text);
  return { id: results[0]!.id, code, email };
}

beforeAll(async () => {
  const ownerEmail = 'owner@matrix.io';
  const ownerCookie = await setUpOrganization(t.app, ownerEmail);
  const me = (await json(
    await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, ownerCookie)),
  )) as {
    organizationId: string;
    memberId: string;
  };
  // Room for every application and member the cases create, and a balance that pays the invoice
  // billed below, so the account stays active.
  await t.database.db
    .update(schema.organization)
    .set({ applicationLimit: 200, memberLimit: 200, balanceCents: 100_000 })
    .where(eq(schema.organization.id, me.organizationId));
  people['super-admin'] = { cookie: ownerCookie, memberId: me.memberId, email: ownerEmail };
  ownerOrganizationId = me.organizationId;
  // The owner's organisation lists the email domain its settings below save (which keep it listed).
  await t.database.db
    .insert(schema.ssoEmailDomain)
    .values({ organizationId: ownerOrganizationId, domain: 'matrix.io', verificationToken: 'matrix-token' });
  await newApplicationWithUsage(t.database.db, me.organizationId, {
    plan: 'basic',
    billingCycle: '2025-03',
    mau: 500,
  });
  const run = await monthlyRunService({ db: t.database.db, productName: 'Social' }).runMonthlyBilling({
    cycle: '2025-03',
    organizationId: me.organizationId,
  });
  invoiceId = String(run.billed[0]!.transactionId).padStart(9, '0');

  target = await createApplication('Target');
  inScope = await createApplication('In scope');
  keysTarget = await createApplication('Keys');
  // One application per caller to deactivate, and one per caller to reactivate.
  for (let index = 0; index < 2 * CALLERS.length; index += 1)
    activePool.push(await createApplication(`Pool ${index}`));
  await waitUntilActive([target, inScope, keysTarget, ...activePool]);
  for (const app of activePool.splice(CALLERS.length)) {
    await json(
      await t.app.inject(
        jsonRequest(
          'POST',
          `/api/v1/applications/${app.applicationId}/deactivate`,
          { confirmName: app.name },
          ownerCookie,
        ),
      ),
    );
    deactivatedPool.push(app);
  }

  for (const caller of ['admin', 'moderator', 'analyst', 'developer'] as const) {
    const email = freshEmail(caller);
    people[caller] = { ...(await joinByInvitation(t.app, ownerCookie, email, ROLE_OF[caller])), email };
  }
  const scopedEmail = freshEmail('scoped');
  people['scoped developer'] = {
    ...(await joinByInvitation(t.app, ownerCookie, scopedEmail, 'portal.developer', [inScope.applicationId])),
    email: scopedEmail,
  };
  const strangerEmail = 'stranger@elsewhere.io';
  const strangerCookie = await setUpOrganization(t.app, strangerEmail);
  const stranger = (await json(
    await t.app.inject(jsonRequest('GET', '/api/v1/members/me', undefined, strangerCookie)),
  )) as { id: string };
  people['other organisation'] = { cookie: strangerCookie, memberId: stranger.id, email: strangerEmail };

  const targetEmail = freshEmail('target');
  targetMember = {
    ...(await joinByInvitation(t.app, ownerCookie, targetEmail, 'portal.developer')),
    email: targetEmail,
  };
  pendingInvitationId = (await pendingInvitation()).id;
  verifiableCode = (await pendingInvitation()).code;

  const ssoOwnerCookie = await setUpOrganization(t.app, 'owner@sso-matrix.io');
  const connected = (await json(
    await t.app.inject(jsonRequest('PUT', '/api/v1/sso/connection', samlConnection(), ssoOwnerCookie)),
  )) as { providerId: string };
  ssoProviderId = connected.providerId;
  await json(
    await t.app.inject(
      jsonRequest(
        'PUT',
        '/api/v1/sso/settings',
        { ...ssoSettings(null), domain: SSO_DOMAIN, emailDomains: ['sso-matrix.io'] },
        ssoOwnerCookie,
      ),
    ),
  );
}, 180_000);

/** The local SAML identity provider as its metadata is pasted on the Single sign-on page. */
const samlConnection = () => ({ protocol: 'saml', metadataXml: samlIdp.metadataXml });

/** The Single sign-on page's settings, never enforced here (that would end the members' sessions). */
const ssoSettings = (defaultApplicationScopes: string[] | null) => ({
  domain: 'matrix',
  emailDomains: ['matrix.io'],
  allowedEmails: ['guest@partner.io'],
  defaultRoleId: 'portal.developer',
  defaultApplicationScopes,
  enforced: false,
});

/** A card token from the sandbox gateway's tokeniser, as the card form gets one, for a card that succeeds. */
async function cardToken(): Promise<string> {
  const owner = people['super-admin'].cookie;
  const configuration = (await json(
    await t.app.inject(jsonRequest('GET', '/api/v1/accounts/payment-gateway', undefined, owner)),
  )) as { publicKey: string; tokenizeUrl: string };
  const tokenized = await t.app.inject({
    method: 'POST',
    url: new URL(configuration.tokenizeUrl, TEST_ORIGIN).pathname,
    headers: { authorization: `Bearer ${configuration.publicKey}`, 'content-type': 'application/json' },
    payload: {
      number: '4242424242424242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: '123',
    },
  });
  return ((await json(tokenized)) as { id: string }).id;
}

/** A card the owner saves, for a call that removes it or makes it the default. */
async function ownerCard(): Promise<string> {
  const owner = people['super-admin'].cookie;
  const added = await t.app.inject(
    jsonRequest('POST', '/api/v1/accounts/payment-profiles', { token: await cardToken() }, owner),
  );
  return ((await json(added)) as { id: string }).id;
}

/** An open invoice of the owner's organisation, for a call that pays it. */
async function openOwnerInvoice(): Promise<number> {
  const [invoice] = await t.database.db
    .insert(schema.ledgerTransaction)
    .values({
      organizationId: ownerOrganizationId,
      type: 'service_charge',
      status: 'open',
      invoiceType: 'mau_based',
      amountCents: 500,
    })
    .returning({ id: schema.ledgerTransaction.id });
  return invoice!.id;
}

const apiKeysUrl = (suffix = '') => `/api/v1/applications/${keysTarget.applicationId}/api-keys${suffix}`;

/** Revokes the key application's working keys as the owner: at most 5 work at once. */
async function roomForApiKeys() {
  const owner = people['super-admin'].cookie;
  const { results } = (await json(
    await t.app.inject(jsonRequest('GET', apiKeysUrl(), undefined, owner)),
  )) as {
    results: { id: string; status: string }[];
  };
  for (const key of results.filter(({ status }) => status === 'active' || status === 'expiring'))
    await json(await t.app.inject(jsonRequest('POST', apiKeysUrl(`/${key.id}/revoke`), undefined, owner)));
}

/** A working key of the key application, made by the owner, for a call that rotates or revokes it. */
async function ownerApiKey(): Promise<string> {
  await roomForApiKeys();
  const created = await t.app.inject(
    jsonRequest('POST', apiKeysUrl(), { name: 'Matrix key' }, people['super-admin'].cookie),
  );
  return ((await json(created)) as { id: string }).id;
}

/** One call as it is made for a given caller; objects a successful call consumes are made fresh. */
type Prepare = (
  caller: Caller,
) => Promise<{ method: InjectOptions['method']; url: string; body?: unknown; remoteAddress?: string }>;

interface Row {
  expected: Record<Caller, Outcome>;
  prepare: Prepare;
}

const call =
  (
    method: InjectOptions['method'],
    url: string | (() => string),
    body?: unknown | (() => unknown),
  ): Prepare =>
  async () => ({
    method,
    url: typeof url === 'function' ? url() : url,
    body: typeof body === 'function' ? (body as () => unknown)() : body,
  });

/**
 * The operator API: no portal session of any role reaches it, only the operator token, which gets
 * `withOperatorToken`. The calls leave the owner's organisation as the other rows need it: active,
 * PAYG, with room for what they create, and March 2025 already billed.
 */
const ownOrganization =
  (suffix = '') =>
  () =>
    `/api/operator/v1/organizations/${ownerOrganizationId}${suffix}`;
/** Whom the operator's two-factor reset names: a person of their own, since it ends their sessions. */
const TWO_FACTOR_RESET_EMAIL = 'two-factor-reset@matrix.io';
let twoFactorResetPerson: Promise<string> | undefined;

const OPERATOR_ROWS: Record<string, Pick<Row, 'prepare'> & { withOperatorToken: Outcome }> = {
  'POST /api/operator/v1/two-factor-resets': {
    withOperatorToken: OK,
    prepare: async () => {
      await (twoFactorResetPerson ??= setUpOrganization(t.app, TWO_FACTOR_RESET_EMAIL));
      return {
        method: 'POST',
        url: '/api/operator/v1/two-factor-resets',
        body: { email: TWO_FACTOR_RESET_EMAIL },
      };
    },
  },
  'GET /api/operator/v1/organizations': {
    withOperatorToken: OK,
    prepare: call('GET', '/api/operator/v1/organizations?page=1'),
  },
  'GET /api/operator/v1/organizations/{organization}': {
    withOperatorToken: OK,
    prepare: call('GET', ownOrganization()),
  },
  'PUT /api/operator/v1/organizations/{organization}/contract': {
    withOperatorToken: OK,
    prepare: call('PUT', ownOrganization('/contract'), { type: 'payg' }),
  },
  'PUT /api/operator/v1/organizations/{organization}/limits': {
    withOperatorToken: OK,
    prepare: call('PUT', ownOrganization('/limits'), { applications: 200, members: 200 }),
  },
  'PUT /api/operator/v1/organizations/{organization}/status': {
    withOperatorToken: OK,
    prepare: call('PUT', ownOrganization('/status'), { status: 'active' }),
  },
  // The owner's own country: the billing form's rows below send it.
  'PUT /api/operator/v1/organizations/{organization}/billing-country': {
    withOperatorToken: OK,
    prepare: call('PUT', ownOrganization('/billing-country'), { country: BILLING_UPDATE.billingCountry }),
  },
  'PUT /api/operator/v1/organizations/{organization}/free-credit': {
    withOperatorToken: OK,
    prepare: call('PUT', ownOrganization('/free-credit'), { enabled: true }),
  },
  'POST /api/operator/v1/organizations/{organization}/credits': {
    withOperatorToken: CREATED,
    prepare: call('POST', ownOrganization('/credits'), { amount: '1.00', note: 'Access matrix' }),
  },
  'POST /api/operator/v1/organizations/{organization}/charges': {
    withOperatorToken: CREATED,
    prepare: call('POST', ownOrganization('/charges'), { amount: '1.00', notes: 'Access matrix' }),
  },
  // Each call voids a charge of its own, opened here through the ledger as raising one does.
  'POST /api/operator/v1/organizations/{organization}/charges/{transactionId}/void': {
    withOperatorToken: OK,
    prepare: async () => {
      const { transaction } = await t.app.ledger.openMiscellaneousCharge(
        ownerOrganizationId,
        { amountCents: 100, taxAmountCents: 0, taxRatePercent: '0', notes: 'Access matrix' },
        { context: SYSTEM_AUDIT_CONTEXT },
      );
      return {
        method: 'POST',
        url: ownOrganization(`/charges/${transaction.id}/void`)(),
        body: { reason: 'Access matrix' },
      };
    },
  },
  'POST /api/operator/v1/usage-imports': {
    withOperatorToken: OK,
    prepare: call('POST', '/api/operator/v1/usage-imports', { month: '2025-03' }),
  },
  'POST /api/operator/v1/billing-runs': {
    withOperatorToken: OK,
    prepare: call('POST', '/api/operator/v1/billing-runs', () => ({
      month: '2025-03',
      organization: ownerOrganizationId,
    })),
  },
};

/** Rows by the route's key in the OpenAPI document: `METHOD path`. */
const ROWS: Record<string, Row> = {
  ...Object.fromEntries(
    Object.entries(OPERATOR_ROWS).map(([key, { prepare }]) => [
      key,
      { expected: everyone(UNAUTHORIZED), prepare },
    ]),
  ),
  'GET /api/health': { expected: everyone(OK), prepare: call('GET', '/api/health') },
  'GET /healthz': { expected: everyone(OK), prepare: call('GET', '/healthz') },
  'GET /readyz': { expected: everyone(OK), prepare: call('GET', '/readyz') },
  'GET /api/v1/config/': { expected: everyone(OK), prepare: call('GET', '/api/v1/config') },
  'GET /api/v1/utils/countries': { expected: everyone(OK), prepare: call('GET', '/api/v1/utils/countries') },
  'GET /api/v1/utils/subdivisions': {
    expected: everyone(OK),
    prepare: call('GET', '/api/v1/utils/subdivisions?countryCode=SG'),
  },

  'GET /api/v1/accounts/me': { expected: signedIn(OK), prepare: call('GET', '/api/v1/accounts/me') },
  // How the caller ended the guided tour: every member's own, whatever their role.
  'PUT /api/v1/accounts/me/tour': {
    expected: signedIn(OK),
    prepare: call('PUT', '/api/v1/accounts/me/tour', { outcome: 'skipped' }),
  },
  // After setup the update is the billing form: VIEW_BILLING, on the caller's own organisation.
  'PUT /api/v1/accounts/': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, OK),
    prepare: call('PUT', '/api/v1/accounts', BILLING_UPDATE),
  },
  'GET /api/v1/accounts/billing-country': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, OK),
    prepare: call('GET', '/api/v1/accounts/billing-country'),
  },
  // The organisation's requirement of a second factor (MANAGE_SECURITY; turned off here, which needs
  // no second factor of the caller's own).
  'PUT /api/v1/accounts/security': {
    expected: permission(HOLDERS.MANAGE_SECURITY, OK, OK),
    prepare: call('PUT', '/api/v1/accounts/security', { requireTwoFactor: false }),
  },
  // The organisation's audit log (VIEW_AUDIT_LOG), each organisation its own (the path names none).
  'GET /api/v1/audit-log/': {
    expected: permission(HOLDERS.VIEW_AUDIT_LOG, OK, OK),
    prepare: call('GET', '/api/v1/audit-log?limit=50'),
  },
  // The same entries as CSV; another organisation's super-admin downloads their own (the file of
  // the owner's organisation is never theirs: the last test below reads what they get).
  'GET /api/v1/audit-log/export': {
    expected: permission(HOLDERS.VIEW_AUDIT_LOG, OK, OK),
    prepare: call('GET', '/api/v1/audit-log/export?actionGroup=member'),
  },
  // Organisation single sign-on (MANAGE_SSO), each organisation its own (the path names none). The
  // connection is the local SAML identity provider's metadata, tested before it is stored.
  'GET /api/v1/sso/': {
    expected: permission(HOLDERS.MANAGE_SSO, OK, OK),
    prepare: call('GET', '/api/v1/sso'),
  },
  'POST /api/v1/sso/connection/test': {
    expected: permission(HOLDERS.MANAGE_SSO, OK, OK),
    prepare: call('POST', '/api/v1/sso/connection/test', samlConnection),
  },
  'PUT /api/v1/sso/connection': {
    expected: permission(HOLDERS.MANAGE_SSO, OK, OK),
    prepare: call('PUT', '/api/v1/sso/connection', samlConnection),
  },
  // The owner's settings, with an application of theirs; another organisation's super-admin sending
  // the same is refused, as the SSO domain is the owner's (sso-access.test.ts has the other cases).
  'PUT /api/v1/sso/settings': {
    expected: permission(HOLDERS.MANAGE_SSO, OK, { status: 409, code: 'SSO_DOMAIN_TAKEN' }),
    prepare: call('PUT', '/api/v1/sso/settings', () => ssoSettings([target.applicationId])),
  },
  'DELETE /api/v1/sso/connection': {
    expected: permission(HOLDERS.MANAGE_SSO, OK, OK),
    prepare: call('DELETE', '/api/v1/sso/connection'),
  },
  // The owner's listed domain: another organisation does not list it, so it is not found there.
  'POST /api/v1/sso/email-domains/{domain}/verify': {
    expected: permission(HOLDERS.MANAGE_SSO, OK, { status: 404, code: 'SSO_EMAIL_DOMAIN_NOT_FOUND' }),
    prepare: call('POST', '/api/v1/sso/email-domains/matrix.io/verify'),
  },
  // The platform's tax table and free-credit tiers: product-wide reference data, no organisation's own.
  'GET /api/v1/accounts/tax': { expected: signedIn(OK), prepare: call('GET', '/api/v1/accounts/tax') },
  'GET /api/v1/accounts/freecredits': {
    expected: signedIn(OK),
    prepare: call('GET', '/api/v1/accounts/freecredits'),
  },
  // Plan and licence usage: each organisation its own.
  'GET /api/v1/accounts/usages': {
    expected: permission(HOLDERS.VIEW_PLAN_DETAIL, OK, OK),
    prepare: call('GET', '/api/v1/accounts/usages'),
  },
  'GET /api/v1/accounts/contracts': {
    expected: permission(HOLDERS.VIEW_PLAN_DETAIL, OK, OK),
    prepare: call('GET', '/api/v1/accounts/contracts'),
  },
  'GET /api/v1/accounts/usages/monthly': {
    expected: permission(HOLDERS.VIEW_PLAN_DETAIL, OK, OK),
    prepare: call('GET', '/api/v1/accounts/usages/monthly'),
  },
  // Usage alerts, each organisation its own (the path names none): read with the plan, saved by the
  // super-admin alone (MANAGE_USAGE_ALERTS); the notices are the application list's banner.
  'GET /api/v1/usage-alerts/': {
    expected: permission(HOLDERS.VIEW_PLAN_DETAIL, OK, OK),
    prepare: call('GET', '/api/v1/usage-alerts'),
  },
  'PUT /api/v1/usage-alerts/': {
    expected: permission(HOLDERS.MANAGE_USAGE_ALERTS, OK, OK),
    prepare: call('PUT', '/api/v1/usage-alerts', {
      alerts: [{ kind: 'mau', value: 5000 }],
      recipients: ['finance@access-matrix.example.com'],
    }),
  },
  'GET /api/v1/usage-alerts/notices': {
    expected: permission(HOLDERS.VIEW_PLAN_DETAIL, OK, OK),
    prepare: call('GET', '/api/v1/usage-alerts/notices'),
  },

  'GET /api/v1/transactions/': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, OK),
    prepare: call('GET', '/api/v1/transactions?page=1&sortBy=firstCreated'),
  },
  'POST /api/v1/transactions/search': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, OK),
    prepare: call('POST', '/api/v1/transactions/search', () => ({ term: invoiceId })),
  },
  'GET /api/v1/transactions/{id}': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, NOT_FOUND),
    prepare: call('GET', () => `/api/v1/transactions/${invoiceId}`),
  },
  'GET /api/v1/transactions/{id}/details/{invoiceType}': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, NOT_FOUND),
    prepare: call('GET', () => `/api/v1/transactions/${invoiceId}/details/mau_based`),
  },
  'GET /api/v1/transactions/{id}/payment-summary': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, NOT_FOUND),
    prepare: call('GET', () => `/api/v1/transactions/${invoiceId}/payment-summary`),
  },
  'GET /api/v1/transactions/{id}/report': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, NOT_FOUND),
    prepare: call('GET', () => `/api/v1/transactions/${invoiceId}/report`),
  },
  // The signed link is the credential: whoever holds one the owner was given gets the PDF.
  'GET /api/v1/invoices/{id}.pdf': {
    expected: everyone(OK),
    prepare: async () => {
      const reportUrl = `/api/v1/transactions/${invoiceId}/report`;
      const owner = people['super-admin'].cookie;
      const report = (await json(await t.app.inject(jsonRequest('GET', reportUrl, undefined, owner)))) as {
        signedUrl: string;
      };
      const url = new URL(report.signedUrl);
      return { method: 'GET', url: `${url.pathname}${url.search}` };
    },
  },

  // Cards, top-ups and card payments (VIEW_BILLING), each organisation its own; every call gets a
  // fresh token from the sandbox gateway's tokeniser, as the card form makes one.
  'GET /api/v1/accounts/payment-gateway': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, OK),
    prepare: call('GET', '/api/v1/accounts/payment-gateway'),
  },
  'GET /api/v1/accounts/payment-profiles': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, OK),
    prepare: call('GET', '/api/v1/accounts/payment-profiles'),
  },
  'POST /api/v1/accounts/payment-profiles': {
    expected: permission(HOLDERS.VIEW_BILLING, CREATED, CREATED),
    prepare: async () => ({
      method: 'POST',
      url: '/api/v1/accounts/payment-profiles',
      body: { token: await cardToken() },
    }),
  },
  'DELETE /api/v1/accounts/payment-profiles/{id}': {
    expected: permission(HOLDERS.VIEW_BILLING, NO_CONTENT, NOT_FOUND),
    prepare: async () => ({
      method: 'DELETE',
      url: `/api/v1/accounts/payment-profiles/${await ownerCard()}`,
    }),
  },
  'PUT /api/v1/accounts/payment-profiles/{profileId}/default': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, NOT_FOUND),
    prepare: async () => ({
      method: 'PUT',
      url: `/api/v1/accounts/payment-profiles/${await ownerCard()}/default`,
    }),
  },
  'POST /api/v1/accounts/topup': {
    expected: permission(HOLDERS.VIEW_BILLING, CREATED, CREATED),
    prepare: async () => ({
      method: 'POST',
      url: '/api/v1/accounts/topup',
      body: { amount: 5, token: await cardToken() },
    }),
  },
  'POST /api/v1/transactions/{id}/pay': {
    expected: permission(HOLDERS.VIEW_BILLING, OK, NOT_FOUND),
    prepare: async () => ({
      method: 'POST',
      url: `/api/v1/transactions/${await openOwnerInvoice()}/pay`,
      body: { token: await cardToken() },
    }),
  },

  'GET /api/v1/applications/': {
    expected: permission(HOLDERS.VIEW_APPLICATION, OK, OK),
    prepare: call('GET', '/api/v1/applications'),
  },
  'POST /api/v1/applications/': {
    expected: permission(HOLDERS.CREATE_APPLICATION, CREATED, CREATED),
    prepare: call('POST', '/api/v1/applications', () => ({
      name: freshEmail('app').split('@')[0],
      plan: 'basic',
      region: 'SG',
    })),
  },
  'GET /api/v1/applications/{applicationId}': {
    expected: permission(HOLDERS.VIEW_APPLICATION, OK, NOT_FOUND, NOT_FOUND),
    prepare: call('GET', () => `/api/v1/applications/${target.applicationId}`),
  },
  'PUT /api/v1/applications/{applicationId}': {
    expected: permission(HOLDERS.EDIT_APPLICATION, OK, NOT_FOUND, NOT_FOUND),
    prepare: call('PUT', () => `/api/v1/applications/${target.applicationId}`, { name: 'Target' }),
  },
  'POST /api/v1/applications/{applicationId}/deactivate': {
    expected: permission(HOLDERS.EDIT_APPLICATION, OK, NOT_FOUND, NOT_FOUND),
    // An active application of its own for each caller (the pool holds one per caller).
    prepare: async () => {
      const app = activePool.pop()!;
      return {
        method: 'POST',
        url: `/api/v1/applications/${app.applicationId}/deactivate`,
        body: { confirmName: app.name },
      };
    },
  },
  'POST /api/v1/applications/{applicationId}/reactivate': {
    expected: permission(HOLDERS.EDIT_APPLICATION, OK, NOT_FOUND, NOT_FOUND),
    prepare: async () => ({
      method: 'POST',
      url: `/api/v1/applications/${deactivatedPool.pop()!.applicationId}/reactivate`,
      body: {},
    }),
  },

  // An application's API keys, kept by its region (decision 043): reading them is seeing the
  // application, the writes are editing it; every write works on room or a key made for it.
  'GET /api/v1/applications/{applicationId}/api-keys': {
    expected: permission(HOLDERS.VIEW_APPLICATION, OK, NOT_FOUND, NOT_FOUND),
    prepare: call('GET', () => apiKeysUrl()),
  },
  'POST /api/v1/applications/{applicationId}/api-keys': {
    expected: permission(HOLDERS.EDIT_APPLICATION, CREATED, NOT_FOUND, NOT_FOUND),
    prepare: async () => {
      await roomForApiKeys();
      return { method: 'POST', url: apiKeysUrl(), body: { name: 'Matrix key' } };
    },
  },
  'POST /api/v1/applications/{applicationId}/api-keys/{keyId}/rotate': {
    expected: permission(HOLDERS.EDIT_APPLICATION, CREATED, NOT_FOUND, NOT_FOUND),
    prepare: async () => ({
      method: 'POST',
      url: apiKeysUrl(`/${await ownerApiKey()}/rotate`),
      body: { overlap: '1h' },
    }),
  },
  'POST /api/v1/applications/{applicationId}/api-keys/{keyId}/revoke': {
    expected: permission(HOLDERS.EDIT_APPLICATION, OK, NOT_FOUND, NOT_FOUND),
    prepare: async () => ({ method: 'POST', url: apiKeysUrl(`/${await ownerApiKey()}/revoke`) }),
  },

  'GET /api/v1/members/': {
    expected: permission(HOLDERS.VIEW_MEMBER, OK, OK),
    prepare: call('GET', '/api/v1/members?limit=200'),
  },
  'GET /api/v1/members/me': { expected: signedIn(OK), prepare: call('GET', '/api/v1/members/me') },
  'GET /api/v1/members/{memberId}': {
    expected: permission(HOLDERS.VIEW_MEMBER, OK, NOT_FOUND),
    prepare: call('GET', () => `/api/v1/members/${targetMember.memberId}`),
  },
  'PUT /api/v1/members/{memberId}': {
    expected: permission(HOLDERS.MANAGE_MEMBER, OK, NOT_FOUND),
    prepare: call('PUT', () => `/api/v1/members/${targetMember.memberId}`, {
      displayName: 'Target',
      roleIds: ['portal.developer'],
      applicationScopes: null,
    }),
  },
  'DELETE /api/v1/members/{memberId}': {
    expected: permission(HOLDERS.MANAGE_MEMBER, NO_CONTENT, NOT_FOUND),
    prepare: async () => {
      const doomed = await joinByInvitation(
        t.app,
        people['super-admin'].cookie,
        freshEmail('doomed'),
        'portal.developer',
      );
      return { method: 'DELETE', url: `/api/v1/members/${doomed.memberId}` };
    },
  },
  // Only one's own password: no role changes another member's (here the target developer's).
  'PUT /api/v1/members/{memberId}/password': {
    expected: permission(HOLDERS.NOBODY, NO_CONTENT, NOT_FOUND),
    prepare: call('PUT', () => `/api/v1/members/${targetMember.memberId}/password`, {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'N3w!Passw0rd-matrix',
      confirmPassword: 'N3w!Passw0rd-matrix',
    }),
  },
  'GET /api/v1/roles/': { expected: signedIn(OK), prepare: call('GET', '/api/v1/roles?limit=50') },

  'GET /api/v1/invitations/': {
    expected: permission(HOLDERS.VIEW_MEMBER, OK, OK),
    prepare: call('GET', '/api/v1/invitations?limit=50'),
  },
  'POST /api/v1/invitations/': {
    expected: permission(HOLDERS.MANAGE_MEMBER, CREATED, CREATED),
    prepare: call('POST', '/api/v1/invitations', () => ({
      emails: [freshEmail('invited')],
      roleIds: ['portal.developer'],
      applicationScopes: null,
    })),
  },
  'DELETE /api/v1/invitations/{invitationId}': {
    expected: permission(HOLDERS.MANAGE_MEMBER, NO_CONTENT, NOT_FOUND),
    prepare: async () => ({ method: 'DELETE', url: `/api/v1/invitations/${(await pendingInvitation()).id}` }),
  },
  'POST /api/v1/invitations/{invitationId}/resend': {
    expected: permission(HOLDERS.MANAGE_MEMBER, OK, NOT_FOUND),
    prepare: call('POST', () => `/api/v1/invitations/${pendingInvitationId}/resend`),
  },
  // The invitee's side: the mailed code is the credential, whoever else the caller is.
  'POST /api/invitations/verify': {
    expected: everyone(OK),
    prepare: call('POST', '/api/invitations/verify', () => ({ code: verifiableCode })),
  },
  'POST /api/invitations/{invitationId}/confirm': {
    expected: everyone(CREATED),
    prepare: async () => {
      const invitation = await pendingInvitation();
      return {
        method: 'POST',
        url: `/api/invitations/${invitation.id}/confirm`,
        body: {
          displayName: 'Joiner',
          password: STRONG_PASSWORD,
          confirmPassword: STRONG_PASSWORD,
          code: invitation.code,
        },
      };
    },
  },
  // Server to server: only the regions' admin token, never a member's session.
  'POST /api/internal/v1/regional-sessions/check': {
    expected: everyone(UNAUTHORIZED),
    prepare: call('POST', '/api/internal/v1/regional-sessions/check', () => ({
      sessionId: 'any',
      applicationId: target.applicationId,
    })),
  },

  // The development outbox: mounted only on loopback outside production, open to whoever reaches it.
  'GET /dev/mailbox/': { expected: everyone(OK), prepare: call('GET', '/dev/mailbox/') },
  'GET /dev/mailbox/messages': {
    expected: everyone(OK),
    prepare: call('GET', '/dev/mailbox/messages?to=owner%40matrix.io'),
  },
  'GET /dev/mailbox/messages/{id}': {
    expected: everyone(OK),
    prepare: async () => {
      const [message] = (await json(
        await t.app.inject({ method: 'GET', url: '/dev/mailbox/messages?to=owner%40matrix.io' }),
      )) as { id: string }[];
      return { method: 'GET', url: `/dev/mailbox/messages/${message!.id}` };
    },
  },
};

/** The identity endpoints under `/api/auth`: none depends on who else the caller is, but the token. */
const IDENTITY_ROWS: Record<string, Row> = {
  'POST /sign-up/email': {
    expected: everyone(OK),
    prepare: call('POST', '/api/auth/sign-up/email', () => ({
      email: freshEmail('signup'),
      password: STRONG_PASSWORD,
      name: 'New',
    })),
  },
  'POST /sign-in/email': {
    expected: everyone({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD' }),
    prepare: call('POST', '/api/auth/sign-in/email', {
      email: 'owner@matrix.io',
      password: 'Wr0ng!Password-x',
    }),
  },
  'POST /sign-out': { expected: everyone(OK), prepare: call('POST', '/api/auth/sign-out', {}) },
  'POST /email-otp/send-verification-otp': {
    expected: everyone(OK),
    prepare: call('POST', '/api/auth/email-otp/send-verification-otp', () => ({
      email: freshEmail('resend'),
      type: 'email-verification',
    })),
  },
  'POST /email-otp/verify-email': {
    expected: everyone(BAD_REQUEST),
    prepare: call('POST', '/api/auth/email-otp/verify-email', () => ({
      email: freshEmail('verify'),
      otp: '000000',
    })),
  },
  'POST /email-otp/request-password-reset': {
    expected: everyone(OK),
    prepare: call('POST', '/api/auth/email-otp/request-password-reset', () => ({
      email: freshEmail('reset'),
    })),
  },
  'POST /email-otp/reset-password': {
    expected: everyone(BAD_REQUEST),
    prepare: call('POST', '/api/auth/email-otp/reset-password', () => ({
      email: freshEmail('renew'),
      otp: '000000',
      password: STRONG_PASSWORD,
    })),
  },
  // Two-factor authentication: one's own, on a session (a wrong password changes nothing), and the
  // codes either confirm one's own enrolment or finish a sign-in that asked for them (two-factor.test.ts).
  'POST /two-factor/enable': {
    expected: signedIn({ status: 400, code: 'INVALID_PASSWORD' }),
    prepare: call('POST', '/api/auth/two-factor/enable', { password: 'Wr0ng!Password-x' }),
  },
  'POST /two-factor/disable': {
    expected: signedIn({ status: 400, code: 'INVALID_PASSWORD' }),
    prepare: call('POST', '/api/auth/two-factor/disable', { password: 'Wr0ng!Password-x' }),
  },
  'POST /two-factor/verify-totp': {
    expected: {
      ...everyone({ status: 400, code: 'TOTP_NOT_ENABLED' }),
      anonymous: { status: 401, code: 'INVALID_TWO_FACTOR_COOKIE' },
    },
    prepare: call('POST', '/api/auth/two-factor/verify-totp', { code: '000000' }),
  },
  'POST /two-factor/verify-backup-code': {
    expected: {
      ...everyone({ status: 400, code: 'BACKUP_CODES_NOT_ENABLED' }),
      anonymous: { status: 401, code: 'INVALID_TWO_FACTOR_COOKIE' },
    },
    prepare: call('POST', '/api/auth/two-factor/verify-backup-code', { code: 'AAAAA-AAAAA' }),
  },
  'GET /token': { expected: signedIn(OK), prepare: call('GET', '/api/auth/token') },
  'GET /jwks': { expected: everyone(OK), prepare: call('GET', '/api/auth/jwks') },
  // Google sign-in: anyone may start it (a signed-in caller too); the callback without a state the
  // portal issued sends every caller to the error page (google-sign-in.test.ts drives the flow).
  'POST /sign-in/social': {
    expected: everyone(OK),
    prepare: call('POST', '/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: '/',
      errorCallbackURL: '/',
    }),
  },
  'GET /callback/google': {
    expected: everyone({ status: 302 }),
    prepare: call('GET', '/api/auth/callback/google?code=x'),
  },
};

/**
 * Organisation single sign-on under `/api/auth`: anyone may start it by an SSO
 * domain, and the identity provider's ways back refuse what the portal did not ask for with a
 * redirect to a page of the portal, whoever the caller is (sso-access.test.ts checks where to).
 */
const SSO_IDENTITY_ROWS: Record<string, Row> = {
  'POST /sign-in/sso': {
    expected: everyone(OK),
    prepare: call('POST', '/api/auth/sign-in/sso', {
      organizationSlug: SSO_DOMAIN,
      callbackURL: '/',
      errorCallbackURL: '/sign-in-sso',
    }),
  },
  'GET /sso/callback/:providerId': {
    expected: everyone({ status: 302 }),
    prepare: call('GET', () => `/api/auth/sso/callback/${ssoProviderId}?code=x&state=made-up`),
  },
  'POST /sso/saml2/sp/acs/:providerId': {
    expected: everyone({ status: 302 }),
    prepare: call('POST', () => `/api/auth/sso/saml2/sp/acs/${ssoProviderId}`, {
      SAMLResponse: Buffer.from('<unasked/>').toString('base64'),
    }),
  },
  'GET /sso/saml2/sp/metadata': {
    expected: everyone(OK),
    prepare: call('GET', () => `/api/auth/sso/saml2/sp/metadata?providerId=${ssoProviderId}`),
  },
};

/** The API reference for people and its document: public, and not routes of the document itself. */
const REFERENCE_ROWS: Record<string, Row> = {
  'GET /api/docs': { expected: everyone(OK), prepare: call('GET', '/api/docs') },
  'GET /api/docs/json': { expected: everyone(OK), prepare: call('GET', '/api/docs/json') },
  'GET /api/openapi.json': { expected: everyone(OK), prepare: call('GET', '/api/openapi.json') },
};

/**
 * The metrics, not in the document (their answer is text), scraped from another machine: no portal
 * session opens them, whatever its role; only METRICS_TOKEN does (unset here), or being on the server.
 */
const METRICS_ROWS: Record<string, Row> = {
  'GET /metrics': {
    expected: everyone(FORBIDDEN),
    prepare: async () => ({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' }),
  },
};

/**
 * The caller's session for one case. Sign-out ends the session it is given, so it gets a session
 * of its own; every other call uses the caller's standing session.
 */
async function cookieFor(caller: Caller, key: string) {
  if (caller === 'anonymous') return undefined;
  return key === 'POST /sign-out' ? signIn(t.app, people[caller].email) : people[caller].cookie;
}

async function runCase(key: string, row: Row, caller: Caller) {
  const prepared = await row.prepare(caller);
  const request = jsonRequest(prepared.method, prepared.url, prepared.body, await cookieFor(caller, key));
  const response = await t.app.inject({ ...request, remoteAddress: prepared.remoteAddress });
  const expected = row.expected[caller];
  const context = `${key} as ${caller}: ${response.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBe(expected.status);
  if (expected.code) expect((response.json() as { code?: string }).code, context).toBe(expected.code);
}

describe('the whole API × every kind of caller', () => {
  it('has a row for every route of the OpenAPI document', () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const isIdentity = (route: string) => route.includes(' /api/auth/');
    const identity = routes.filter(isIdentity).map((route) => route.replace(' /api/auth/', ' /'));
    expect(identity.sort(), 'identity endpoints without an expected row').toEqual(
      [...Object.keys(IDENTITY_ROWS), ...Object.keys(SSO_IDENTITY_ROWS).map(documentPath)].sort(),
    );
    const missing = routes.filter((route) => !isIdentity(route) && !(route in ROWS));
    expect(missing, 'routes without an expected row').toEqual([]);
    const stale = Object.keys(ROWS).filter((route) => !routes.includes(route));
    expect(stale, 'rows for routes that no longer exist').toEqual([]);
    const enabled = Object.entries({ ...ENABLED_AUTH_ENDPOINTS, ...GOOGLE_ENDPOINTS }).map(
      ([path, endpoint]) => `${endpoint.method} ${path}`,
    );
    expect(Object.keys(IDENTITY_ROWS).sort(), 'identity endpoints without an expected row').toEqual(
      enabled.sort(),
    );
    const sso = Object.entries(SSO_ENDPOINTS).map(([path, endpoint]) => `${endpoint.method} ${path}`);
    expect(Object.keys(SSO_IDENTITY_ROWS).sort(), 'SSO endpoints without an expected row').toEqual(
      sso.sort(),
    );
  });

  for (const [key, row] of Object.entries({
    ...ROWS,
    ...IDENTITY_ROWS,
    ...SSO_IDENTITY_ROWS,
    ...REFERENCE_ROWS,
    ...METRICS_ROWS,
  })) {
    it(key, async () => {
      for (const caller of CALLERS) await runCase(key, row, caller);
    });
  }

  it('lets the operator token through every operator route, and no portal session', async () => {
    const token = operatorToken(t.config);
    for (const [key, { prepare, withOperatorToken }] of Object.entries(OPERATOR_ROWS)) {
      const prepared = await prepare('anonymous');
      const request = jsonRequest(prepared.method, prepared.url, prepared.body);
      const response = await t.app.inject({
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${token}` },
      });
      expect(response.statusCode, `${key}: ${response.body.slice(0, 300)}`).toBe(withOperatorToken.status);
    }
  });

  it("gives another organisation's member an audit log export of their organisation's entries only", async () => {
    const download = async (caller: SignedIn) => {
      const response = await t.app.inject(
        jsonRequest('GET', '/api/v1/audit-log/export', undefined, people[caller].cookie),
      );
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      return response.body;
    };
    const ours = await download('super-admin');
    expect(ours).toContain(people.developer.email);
    const theirs = await download('other organisation');
    for (const caller of CALLERS.filter((c) => c !== 'anonymous' && c !== 'other organisation'))
      expect(theirs).not.toContain(people[caller].email);
    expect(theirs).not.toContain(ownerOrganizationId);
  });

  it('lets the scoped developer reach the application in their scope, so the 404s above are the scope', async () => {
    const response = await t.app.inject(
      jsonRequest(
        'GET',
        `/api/v1/applications/${inScope.applicationId}`,
        undefined,
        people['scoped developer'].cookie,
      ),
    );
    expect(response.statusCode).toBe(200);
  });
});
