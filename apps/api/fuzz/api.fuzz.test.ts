import { PORTAL_SSO_IDENTIFIER, type Application } from '@portal/contracts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { operatorToken } from '../src/modules/operators/operator-token.ts';
import { regionAdminToken } from '../src/regions/embedded-regions.ts';
import { BILLING_UPDATE } from '../test/access-outcomes.ts';
import { DnsStandIn } from '../test/dns-stand-in.ts';
import { GoogleStandIn } from '../test/google-stand-in.ts';
import { SamlIdp } from '../test/saml-idp.ts';
import {
  STRONG_PASSWORD,
  TEST_ORIGIN,
  connectSso,
  cookieHeader,
  invite,
  joinOrganization,
  jsonRequest,
  setUpOrganization,
  ssoSettingsBody,
  useTestApp,
} from '../test/helper.ts';
import {
  BAD_PATH_IDS,
  BAD_QUERY_VALUES,
  OTHER_CONTENT_TYPES,
  RAW_BODIES,
  badQueryKeys,
  sampleOf,
  spoilBody,
} from './bad-inputs.ts';
import { operations, type Operation } from './operations.ts';
import { seededRandom, type Random } from './random.ts';

/*
 * Seeded fuzzing of every route: malformed bodies, queries and path ids, without credentials and
 * as a signed-in super-admin, against an in-process portal. Any 5xx, or any 4xx that is not JSON
 * `{code, message}`, fails; the failure names the seed and the request, so FUZZ_SEED replays it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES_PER_OPERATION = Number(process.env.FUZZ_CASES ?? 60);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Bearer values that are neither the region admin token nor the operator token. */
const WRONG_BEARERS = [
  'Bearer not-the-admin-token',
  'Bearer ',
  'Basic YTpi',
  'bearer',
  `Bearer ${'x'.repeat(10_000)}`,
];

type Caller = 'anonymous' | 'super-admin';
type CaseKind = 'valid' | 'body' | 'raw body' | 'content type' | 'query' | 'path id';

// Google sign-in is configured (its endpoints are fuzzed too); the portal reads the stand-in's
// discovery when it starts. A local SAML identity provider, whose origin the operator trusts, is
// connected by an organisation whose SSO sign-in and ways back are fuzzed.
const google = await GoogleStandIn.start();
afterAll(() => google.stop());
const samlIdp = await SamlIdp.start();
afterAll(() => samlIdp.stop());
// Email domain proofs ask a local DNS server (no records), never the network.
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());
const t = useTestApp({ ...google.portalEnv, ...samlIdp.portalEnv, ...dns.portalEnv });
/** Ids that exist, by path parameter name, so only the parameter under test is wrong. */
const known: Record<string, string> = { portal: PORTAL_SSO_IDENTIFIER };
/** Values by field name that a schema alone cannot produce: existing ids, codes a pattern describes. */
const fieldSamples: Record<string, unknown> = {
  ...BILLING_UPDATE,
  countryCode: 'SG',
  month: '2026-11',
  password: STRONG_PASSWORD,
  // Identity providers the connection test refuses without a request: a private host for OpenID, and
  // plain http for a SAML sign-in URL (reached when the fuzzed body drops the metadata). The metadata
  // itself is the trusted local provider's, so an unspoiled SAML connection is saved.
  issuer: 'https://127.0.0.1:9/fuzz-idp',
  entryPoint: 'http://idp.fuzz.example/sso',
  // Settings that save; enforcing SSO would end the fuzzed member's session mid-run.
  domain: 'fuzz-org',
  emailDomains: ['fuzz-corp.io'],
  allowedEmails: ['guest@fuzz-partner.io'],
  enforced: false,
  // Where SSO and Google sign-in send the browser back: pages of the portal, so unspoiled starts succeed.
  callbackURL: '/',
  errorCallbackURL: '/sign-in-sso',
};
const credentials = {
  session: '',
  accessToken: '',
  regionAdminToken: '',
  operatorToken: '',
  regionSession: '',
};

beforeAll(async () => {
  const { app } = t;
  credentials.session = await setUpOrganization(app, 'fuzz-owner@acme.io');
  credentials.regionAdminToken = regionAdminToken(t.config);
  credentials.operatorToken = operatorToken(t.config);
  const ownerRequest = (method: InjectOptions['method'], url: string, body?: unknown) =>
    app.inject(jsonRequest(method, url, body, credentials.session));

  const { organizationId } = (await ownerRequest('GET', '/api/v1/accounts/me')).json() as {
    organizationId: string;
  };
  const [application] = (
    await ownerRequest('POST', '/api/v1/applications', { name: 'Fuzzed', plan: 'advance', region: 'EU' })
  ).json() as Application[];
  const applicationId = application!.applicationId;
  // The owner acts on another member: acting on themselves could demote them mid-run.
  const { memberId } = await joinOrganization(t, 'fuzz-member@acme.io', organizationId, 'portal.developer');
  const invited = await invite(app, credentials.session, ['fuzz-invitee@acme.io'], 'portal.developer');
  const invitationId = (invited.json() as { results: { id: string }[] }).results[0]!.id;
  const mails = (
    await app.inject({ method: 'GET', url: '/dev/mailbox/messages?to=fuzz-owner%40acme.io' })
  ).json() as { id: number }[];
  credentials.accessToken = (
    (await ownerRequest('GET', '/api/auth/token')).json() as { token: string }
  ).token;
  const network = await app.inject({
    method: 'POST',
    url: '/regions/eu/admin/v1/networks',
    headers: { authorization: `Bearer ${credentials.regionAdminToken}` },
    payload: { applicationId, organizationId, name: 'Fuzzed' },
  });
  expect(network.statusCode, network.body).toBe(201);
  const { networkId } = network.json() as { networkId: string };
  const sso = await app.inject({
    method: 'POST',
    url: `/regions/eu/api/v2/sso/${PORTAL_SSO_IDENTIFIER}?applicationId=${applicationId}`,
    headers: { authorization: `Bearer ${credentials.accessToken}` },
  });
  expect(sso.statusCode, sso.body).toBe(200);
  credentials.regionSession = cookieHeader(sso.headers['set-cookie']);
  // The console tab's sign-in posts the session itself, so unspoiled posts open the console.
  fieldSamples.session = (sso.json() as { sessionToken: string }).sessionToken;

  // An organisation of its own signs in with SSO (the fuzzed owner's connection changes under the run).
  const ssoOwner = await setUpOrganization(app, 'fuzz-sso-owner@acme-sso.io');
  const { providerId } = await connectSso(
    app,
    ssoOwner,
    { protocol: 'saml', metadataXml: samlIdp.metadataXml },
    ssoSettingsBody('fuzz-sso', 'acme-sso.io'),
  );

  // The owner lists the email domain its fuzzed settings save, so Verify has one to check.
  await t.database.db
    .insert(schema.ssoEmailDomain)
    .values({ organizationId, domain: 'fuzz-corp.io', verificationToken: 'fuzz-token' });

  Object.assign(known, {
    domain: 'fuzz-corp.io',
    providerId,
    applicationId,
    memberId,
    invitationId,
    networkId,
    id: String(mails[0]!.id),
    organization: organizationId,
  });
  Object.assign(fieldSamples, {
    applicationId,
    applicationScopes: [applicationId],
    defaultApplicationScopes: [applicationId],
    metadataXml: samlIdp.metadataXml,
    organizationSlug: 'fuzz-sso',
    providerId,
    organizationId,
    networkId,
    emails: ['fuzz-guest@acme.io'],
  });
});

function kindsFor(operation: Operation): CaseKind[] {
  const kinds: CaseKind[] = ['valid', 'query', 'query'];
  if (operation.body) kinds.push('body', 'body', 'body', 'body');
  if (STATE_CHANGING.has(operation.method)) kinds.push('raw body', 'content type');
  if (operation.pathParams.length > 0) kinds.push('path id', 'path id', 'path id');
  return kinds;
}

function credentialHeaders(operation: Operation, caller: Caller, random: Random): Record<string, string> {
  switch (operation.credential) {
    case 'region admin token':
      return {
        authorization:
          caller === 'anonymous' ? random.pick(WRONG_BEARERS) : `Bearer ${credentials.regionAdminToken}`,
      };
    case 'operator token':
      return {
        authorization:
          caller === 'anonymous' ? random.pick(WRONG_BEARERS) : `Bearer ${credentials.operatorToken}`,
      };
    case 'access token':
      return caller === 'anonymous' ? {} : { authorization: `Bearer ${credentials.accessToken}` };
    case 'region session':
      return caller === 'anonymous' ? {} : { cookie: credentials.regionSession };
    case 'api key':
      // The body is checked before the key is looked up, so any key reaches the body's validation.
      return caller === 'anonymous' ? {} : { 'x-api-key': 'fuzz-key' };
    case 'session':
      return caller === 'anonymous' ? {} : { cookie: credentials.session };
  }
}

interface FuzzCase {
  /** How the case departs from a valid request, for the report. */
  input: string;
  request: InjectOptions;
}

function buildCase(operation: Operation, kind: CaseKind, caller: Caller, random: Random): FuzzCase {
  let input: string = kind;
  const badPathParam = kind === 'path id' ? random.pick(operation.pathParams) : undefined;
  const url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === badPathParam ? random.pick(BAD_PATH_IDS) : encodeURIComponent(known[name] ?? 'unknown'),
  );
  const query = operation.query.map(
    ({ name, schema }) =>
      `${name}=${encodeURIComponent(String(fieldSamples[name] ?? sampleOf(schema, random, fieldSamples)))}`,
  );
  if (kind === 'query') {
    const name = operation.query.length > 0 ? random.pick(operation.query).name : 'unexpected';
    const key = random.chance(0.25) ? random.pick(badQueryKeys(name)) : name;
    query.push(`${key}=${random.pick(BAD_QUERY_VALUES)}`);
    input = key === name ? 'query value' : 'query key';
    if (random.chance(0.3)) {
      query.push(`${key}=${random.pick(BAD_QUERY_VALUES)}`);
      input = 'repeated query key';
    }
  }
  const headers: Record<string, string> = credentialHeaders(operation, caller, random);
  if (STATE_CHANGING.has(operation.method)) headers.origin = TEST_ORIGIN;
  let payload: string | Buffer | undefined;
  if (operation.body || STATE_CHANGING.has(operation.method)) {
    let body = sampleOf(operation.body ?? { type: 'object' }, random, fieldSamples);
    if (kind === 'body') {
      const spoiled = spoilBody(body, random);
      body = spoiled.body;
      input = spoiled.mutation;
    }
    payload = kind === 'raw body' ? random.pick(RAW_BODIES) : JSON.stringify(body);
    headers['content-type'] = kind === 'content type' ? random.pick(OTHER_CONTENT_TYPES) : 'application/json';
  }
  return {
    input,
    request: {
      method: operation.method as InjectOptions['method'],
      url: query.length > 0 ? `${url}?${query.join('&')}` : url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    },
  };
}

/** What is wrong with an answer, or undefined when it is a success or a well-formed refusal. */
function problemWith(response: LightMyRequestResponse, operation: Operation): string | undefined {
  if (response.statusCode >= 500) return `answered ${response.statusCode}`;
  if (response.statusCode < 400 || operation.answersHtml) return undefined;
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return `a ${response.statusCode} that is not JSON`;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `a ${response.statusCode} whose body does not parse`;
  }
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string' || !code || !message) {
    return `a ${response.statusCode} without {code, message}`;
  }
  return undefined;
}

/** Text for the report: escaped, so control characters show, and cut short. */
function shown(value: string | Buffer | undefined, length = 200): string {
  if (value === undefined) return '(none)';
  if (Buffer.isBuffer(value)) return `bytes ${value.subarray(0, length / 2).toString('hex')}`;
  return JSON.stringify(value.length > length ? `${value.slice(0, length)}…(${value.length} chars)` : value);
}

describe(`fuzzing every route (FUZZ_SEED=${SEED} FUZZ_CASES=${CASES_PER_OPERATION})`, () => {
  it('answers malformed requests with a 4xx {code, message}, never a 5xx', async () => {
    expect(
      Number.isInteger(SEED) && Number.isInteger(CASES_PER_OPERATION) && CASES_PER_OPERATION > 0,
      'FUZZ_SEED and FUZZ_CASES are integers',
    ).toBe(true);
    const random = seededRandom(SEED);
    /** Failures by kind (problem, route, input, caller), with the first request of each. */
    const failures = new Map<string, { count: number; example: string }>();
    let sent = 0;
    for (const operation of operations(t.app.swagger() as Parameters<typeof operations>[0])) {
      const callers: Caller[] = operation.anonymousOnly ? ['anonymous'] : ['anonymous', 'super-admin'];
      for (const caller of callers) {
        for (let index = 0; index < CASES_PER_OPERATION; index += 1) {
          const { input, request } = buildCase(operation, random.pick(kindsFor(operation)), caller, random);
          const response = await t.app.inject(request);
          sent += 1;
          const problem = problemWith(response, operation);
          if (!problem) continue;
          const kind = `${problem}: ${operation.method} ${operation.path}, ${input}, ${caller}`;
          const seen = failures.get(kind);
          if (seen) seen.count += 1;
          else {
            const example = `${request.method} ${shown(String(request.url))} body ${shown(request.payload as string | Buffer | undefined)} -> ${response.statusCode} ${shown(response.body)}`;
            failures.set(kind, { count: 1, example });
          }
        }
      }
    }
    const failed = [...failures.values()].reduce((sum, { count }) => sum + count, 0);
    const report = [...failures]
      .map(([kind, { count, example }]) => `- ${kind} (${count}×)\n    ${example}`)
      .join('\n');
    expect(sent).toBeGreaterThan(1000);
    expect(
      failures.size,
      `FUZZ_SEED=${SEED} FUZZ_CASES=${CASES_PER_OPERATION}: ${failed} of ${sent} requests failed, ${failures.size} kinds\n${report}`,
    ).toBe(0);
  });

  it('kept the super-admin signed in and in role, so their cases ran with the session', async () => {
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, credentials.session));
    expect(me.statusCode).toBe(200);
    expect((me.json() as { roles: { id: string }[] }).roles).toEqual([{ id: 'portal.super-admin' }]);
  });
});
