import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Application } from '@portal/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsStandIn, emailDomainOf, proveEmailDomain, verifyEmailDomain } from './dns-stand-in.ts';
import { SamlIdp } from './saml-idp.ts';
import {
  TEST_ORIGIN,
  expectApiError,
  jsonRequest,
  sessionCookieOf,
  setUpOrganization,
  useTestApp,
} from './helper.ts';

/*
 * What the access matrix cannot say of organisation single sign-on: /api/v1/sso has no organisation
 * in its path, so "another organisation" is a super-admin of organisation B whose changes must never
 * reach organisation A; the SSO plugin's endpoints the portal does not enable; the identity
 * provider's ways back, which refuse with a redirect and never a 500; the one cross-origin post; and
 * the identity providers the portal must not fetch.
 */
const idp = await SamlIdp.start();
afterAll(() => idp.stop());
const dns = await DnsStandIn.start();
afterAll(() => dns.stop());
const t = useTestApp({ ...idp.portalEnv, ...dns.portalEnv });

interface Organization {
  cookie: string;
  providerId: string;
  applicationId: string;
}

const a = {} as Organization;
const b = {} as Organization;

const settingsOfA = (applicationId: string) => ({
  domain: 'org-a',
  emailDomains: ['org-a.io'],
  allowedEmails: ['guest@partner-a.io'],
  defaultRoleId: 'portal.analyst',
  defaultApplicationScopes: [applicationId],
  enforced: false,
});
const settingsOfB = {
  domain: 'org-b',
  emailDomains: ['org-b.io'],
  allowedEmails: [],
  defaultRoleId: 'portal.developer',
  defaultApplicationScopes: null,
  enforced: false,
};
const SAML_CONNECTION = () => ({ protocol: 'saml', metadataXml: idp.metadataXml });

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json() as unknown;
}

async function organization(email: string): Promise<Organization> {
  const cookie = await setUpOrganization(t.app, email);
  const settings = ok(await t.app.inject(jsonRequest('GET', '/api/v1/sso', undefined, cookie))) as {
    providerId: string;
  };
  const [application] = ok(
    await t.app.inject(
      jsonRequest(
        'POST',
        '/api/v1/applications',
        { name: `App of ${email}`, plan: 'basic', region: 'SG' },
        cookie,
      ),
    ),
  ) as Application[];
  return { cookie, providerId: settings.providerId, applicationId: application!.applicationId };
}

const ssoSettings = (org: Organization) =>
  t.app.inject(jsonRequest('GET', '/api/v1/sso', undefined, org.cookie));
const putSettings = (org: Organization, body: unknown) =>
  t.app.inject(jsonRequest('PUT', '/api/v1/sso/settings', body, org.cookie));

beforeAll(async () => {
  Object.assign(a, await organization('owner@org-a.io'));
  Object.assign(b, await organization('owner@org-b.io'));
  ok(await t.app.inject(jsonRequest('PUT', '/api/v1/sso/connection', SAML_CONNECTION(), a.cookie)));
  ok(await putSettings(a, settingsOfA(a.applicationId)));
  await proveEmailDomain(t.app, a.cookie, dns, 'org-a.io');
}, 120_000);

describe("another organisation's super-admin", () => {
  it("has a provider id of their own, not organisation A's", () => {
    expect(a.providerId).toMatch(/^sso-/);
    expect(b.providerId).toMatch(/^sso-/);
    expect(b.providerId).not.toBe(a.providerId);
  });

  it("cannot take organisation A's SSO domain, in any case, and changes nothing by trying", async () => {
    const before = ok(await ssoSettings(b));
    for (const domain of ['org-a', 'ORG-A', ' Org-A ']) {
      const body = expectApiError(await putSettings(b, { ...settingsOfB, domain }), 409, 'SSO_DOMAIN_TAKEN');
      expect(body.field).toBe('domain');
    }
    expect(ok(await ssoSettings(b))).toEqual(before);
  });

  it('cannot list the email domain organisation A verified, alone or among its own', async () => {
    const before = ok(await ssoSettings(b));
    for (const emailDomains of [['org-a.io'], ['org-b.io', 'ORG-A.io']]) {
      const response = await putSettings(b, { ...settingsOfB, emailDomains });
      expect(expectApiError(response, 409, 'SSO_EMAIL_DOMAIN_TAKEN').field).toBe('emailDomains');
    }
    expect(ok(await ssoSettings(b))).toEqual(before);
  });

  it('may list a domain organisation A only claimed, which blocks nobody and stays pending for both until one proves it', async () => {
    ok(
      await putSettings(a, {
        ...settingsOfA(a.applicationId),
        emailDomains: ['org-a.io', 'shared-claim.io'],
      }),
    );
    const listed = ok(
      await putSettings(b, { ...settingsOfB, emailDomains: ['org-b.io', 'shared-claim.io'] }),
    ) as {
      emailDomains: { domain: string; status: string }[];
    };
    expect(listed.emailDomains).toEqual([
      expect.objectContaining({ domain: 'org-b.io', status: 'pending' }),
      expect.objectContaining({ domain: 'shared-claim.io', status: 'pending' }),
    ]);
    // Each claim has its own token: B's record does not prove A's claim.
    const ofA = await emailDomainOf(t.app, a.cookie, 'shared-claim.io');
    const ofB = await emailDomainOf(t.app, b.cookie, 'shared-claim.io');
    expect(ofA.record.value).not.toBe(ofB.record.value);
    await proveEmailDomain(t.app, b.cookie, dns, 'shared-claim.io');
    const checkedByA = ok(await verifyEmailDomain(t.app, a.cookie, 'shared-claim.io')) as {
      emailDomains: { domain: string; status: string; checkError: string | null }[];
    };
    expect(checkedByA.emailDomains.find((entry) => entry.domain === 'shared-claim.io')).toMatchObject({
      status: 'pending',
      checkError: 'verified_elsewhere',
    });
    ok(await putSettings(a, settingsOfA(a.applicationId)));
    ok(await putSettings(b, settingsOfB));
  });

  it('cannot verify, or learn anything of, a domain only organisation A lists', async () => {
    const response = await verifyEmailDomain(t.app, b.cookie, 'org-a.io');
    expectApiError(response, 404, 'SSO_EMAIL_DOMAIN_NOT_FOUND');
    expect(response.body).not.toContain((await emailDomainOf(t.app, a.cookie, 'org-a.io')).record.value);
  });

  it("cannot name organisation A's applications as its default applications", async () => {
    for (const scopes of [[a.applicationId], [b.applicationId, a.applicationId]]) {
      const response = await putSettings(b, { ...settingsOfB, defaultApplicationScopes: scopes });
      expect(expectApiError(response, 400, 'SSO_APPLICATION_NOT_FOUND').field).toBe(
        'defaultApplicationScopes',
      );
    }
  });

  it("saves, tests and removes only its own organisation's SSO: organisation A's stays as it was", async () => {
    const before = ok(await ssoSettings(a)) as { connection: unknown; domain: string };
    expect(before.connection).toMatchObject({ protocol: 'saml', entityId: idp.entityId });
    expect(before.domain).toBe('org-a');

    ok(await t.app.inject(jsonRequest('POST', '/api/v1/sso/connection/test', SAML_CONNECTION(), b.cookie)));
    const connected = ok(
      await t.app.inject(jsonRequest('PUT', '/api/v1/sso/connection', SAML_CONNECTION(), b.cookie)),
    ) as { providerId: string; serviceProvider: { samlAcsUrl: string } };
    expect(connected.providerId).toBe(b.providerId);
    expect(connected.serviceProvider.samlAcsUrl).toContain(b.providerId);
    const saved = ok(
      await putSettings(b, { ...settingsOfB, defaultApplicationScopes: [b.applicationId], enforced: true }),
    ) as { domain: string; enforced: boolean };
    expect(saved).toMatchObject({ domain: 'org-b', enforced: true });
    const removed = ok(
      await t.app.inject(jsonRequest('DELETE', '/api/v1/sso/connection', undefined, b.cookie)),
    );
    expect(removed).toMatchObject({ connection: null, enforced: false });

    expect(ok(await ssoSettings(a))).toEqual(before);
    const signIn = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/sso', signInBody('org-a')));
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect((signIn.json() as { url: string }).url.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
  });
});

/** What /sign-in-sso sends (apps/web's SSO sign-in). */
const signInBody = (organizationSlug: string) => ({
  organizationSlug,
  callbackURL: '/',
  errorCallbackURL: '/sign-in-sso',
});

describe('starting single sign-on', () => {
  it('is open to anyone, by the SSO domain of an organisation with an identity provider', async () => {
    const started = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/sso', signInBody('ORG-A')));
    expect(started.statusCode, started.body).toBe(200);
  });

  it('answers an unknown SSO domain, or one without an identity provider, with SSO_ORGANIZATION_NOT_FOUND', async () => {
    ok(await putSettings(b, settingsOfB));
    for (const domain of ['no-such-org', 'org-b']) {
      const response = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/sso', signInBody(domain)));
      expectApiError(response, 404, 'SSO_ORGANIZATION_NOT_FOUND');
    }
  });

  it('asks for the SSO domain when it is missing or blank', async () => {
    for (const body of [
      { callbackURL: '/' },
      signInBody('   '),
      { ...signInBody('org-a'), organizationSlug: 42 },
    ]) {
      const response = await t.app.inject(jsonRequest('POST', '/api/auth/sign-in/sso', body));
      expect(expectApiError(response, 400, 'VALIDATION_ERROR').field).toBe('organizationSlug');
    }
  });

  it('does not let the caller name the provider id instead of the SSO domain', async () => {
    const response = await t.app.inject(
      jsonRequest('POST', '/api/auth/sign-in/sso', {
        ...signInBody('no-such-org'),
        providerId: a.providerId,
      }),
    );
    expectApiError(response, 404, 'SSO_ORGANIZATION_NOT_FOUND');
  });

  it('still refuses a start from another origin: only the assertion consumer service is exempt', async () => {
    const request = jsonRequest('POST', '/api/auth/sign-in/sso', signInBody('org-a'));
    const response = await t.app.inject({
      ...request,
      headers: { ...request.headers, origin: 'https://evil.example' },
    });
    expectApiError(response, 403, 'CROSS_ORIGIN_REQUEST');
  });
});

/** A refusal of an identity provider's way back: a redirect to a page of the portal with the error, no session. */
function expectRefusedReturn(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(302);
  const location = new URL(String(response.headers.location), TEST_ORIGIN);
  expect(location.origin).toBe(TEST_ORIGIN);
  expect(location.searchParams.get('error')).toBeTruthy();
  expect(location.searchParams.get('error_description')).toBeTruthy();
  expect(sessionCookieOf(response.headers['set-cookie'])).toBeUndefined();
  return location;
}

/** The IdP's page posting a form to the portal's assertion consumer service, from the IdP's origin. */
function postToAcs(providerId: string, form: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/auth/sso/saml2/sp/acs/${providerId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(idp.ssoUrl).origin },
    payload: new URLSearchParams(form).toString(),
  });
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe("the identity provider's ways back", () => {
  it('refuse an OpenID callback the portal did not start with a redirect, for known and unknown providers', async () => {
    for (const url of [
      `/api/auth/sso/callback/${a.providerId}`,
      `/api/auth/sso/callback/${a.providerId}?code=stolen&state=made-up`,
      `/api/auth/sso/callback/${a.providerId}?error=access_denied&error_description=no`,
      '/api/auth/sso/callback/sso-no-such-provider?code=x&state=y',
    ]) {
      expectRefusedReturn(await t.app.inject({ method: 'GET', url, headers: { cookie: a.cookie } }));
    }
  });

  it('refuse SAML answers that are missing, not SAML, hostile XML or for no provider, posted from another origin', async () => {
    const hostile = [
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&e;</samlp:Response>',
    ].join('');
    const answers: Record<string, string>[] = [
      {},
      { SAMLResponse: '' },
      { SAMLResponse: 'not base64 at all %%%' },
      { SAMLResponse: base64('plain text') },
      { SAMLResponse: base64(hostile) },
      {
        SAMLResponse: base64('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>'),
        RelayState: 'x',
      },
      { SAMLResponse: base64(`<a>${'<b>'.repeat(5_000)}${'</b>'.repeat(5_000)}</a>`) },
    ];
    for (const form of answers) {
      const location = expectRefusedReturn(await postToAcs(a.providerId, form));
      expect(location.search, JSON.stringify(form)).not.toContain('root:');
    }
    const unknown = expectRefusedReturn(
      await postToAcs('sso-no-such-provider', { SAMLResponse: base64('<x/>') }),
    );
    expect(unknown.pathname).toBe('/sign-in-sso');
  });

  it('publish the SAML service-provider metadata of a provider that exists, and nothing else', async () => {
    const metadata = await t.app.inject({
      method: 'GET',
      url: `/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(a.providerId)}`,
    });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toMatch(/xml/);
    expect(metadata.body).toContain(`/api/auth/sso/saml2/sp/acs/${a.providerId}`);
    expect(metadata.body).not.toContain('PRIVATE KEY');
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sso/saml2/sp/metadata?providerId=sso-none',
    });
    expectApiError(unknown, 404);
    expectApiError(await t.app.inject({ method: 'GET', url: '/api/auth/sso/saml2/sp/metadata' }), 400);
  });
});

/** A request sent over a socket as it is written: inject would resolve the dot segments first. */
async function rawPost(path: string, headers: Record<string, string>, body: string) {
  const address = t.app.server.address() as AddressInfo | null;
  const port = address?.port ?? new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port;
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('the assertion consumer service as the one cross-origin post', () => {
  it('lets only the service itself past the same-origin and JSON checks, not a path that resolves elsewhere', async () => {
    const headers = { origin: 'https://evil.example', cookie: a.cookie };
    const service = await rawPost(
      `/api/auth/sso/saml2/sp/acs/${a.providerId}`,
      { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      'SAMLResponse=x',
    );
    expect(service.status).toBe(302);
    for (const path of [
      `/api/auth/sso/saml2/sp/acs/%2e%2e/%2e%2e/%2e%2e/%2e%2e/sign-out`,
      `/api/auth/sso/saml2/sp/acs/${a.providerId}/%2E%2E/%2E%2E/%2E%2E/%2E%2E/%2E%2E/sign-out`,
      `/api/auth/sso/saml2/sp/acs/${a.providerId}/../../../../../sign-out`,
      `/api/auth/sso/saml2/sp/acs/x/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/sign-in/sso`,
    ]) {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
        const response = await rawPost(path, { ...headers, 'content-type': contentType }, '{}');
        expect(response.status, `${path} (${contentType}): ${response.body}`).toBe(403);
        expect(JSON.parse(response.body)).toMatchObject({ code: 'CROSS_ORIGIN_REQUEST' });
      }
    }
    // The session the cross-origin posts aimed at is still there.
    expect((await ssoSettings(a)).statusCode).toBe(200);
  });
});

describe("the SSO plugin's other endpoints", () => {
  const closed: [method: 'GET' | 'POST', path: string][] = [
    ['POST', '/sso/register'],
    ['GET', '/sso/providers'],
    ['POST', '/sso/update-provider'],
    ['POST', '/sso/delete-provider'],
    ['GET', '/sso/get-provider'],
    ['POST', '/sso/verify-domain'],
    ['POST', '/sso/request-domain-verification'],
    ['GET', '/sso/callback'],
    ['POST', '/sso/callback'],
    ['GET', '/sso/saml2/sp/slo/{providerId}'],
    ['POST', '/sso/saml2/sp/slo/{providerId}'],
    ['GET', '/sso/saml2/logout/{providerId}'],
    ['POST', '/sso/saml2/logout/{providerId}'],
    // The enabled endpoints, by another method than their own.
    ['GET', '/sso/saml2/sp/acs/{providerId}'],
    ['POST', '/sso/callback/{providerId}'],
    ['POST', '/sso/saml2/sp/metadata'],
    ['GET', '/sign-in/sso'],
  ];

  it('answer 404 to anyone, signed in as a super-admin or not, and change nothing', async () => {
    const before = ok(await ssoSettings(a));
    for (const [method, template] of closed) {
      const path = `/api/auth${template.replace('{providerId}', a.providerId)}`;
      for (const cookie of [undefined, a.cookie]) {
        const url = method === 'GET' ? `${path}?providerId=${a.providerId}` : path;
        const body =
          method === 'POST'
            ? { providerId: a.providerId, issuer: 'https://evil.example', domain: 'org-a.io' }
            : undefined;
        const response = await t.app.inject(jsonRequest(method, url, body, cookie));
        expectApiError(response, 404, 'NOT_FOUND');
      }
    }
    expect(ok(await ssoSettings(a))).toEqual(before);
  });
});

/** A web server that counts the requests it gets, standing for a host the portal must not call. */
async function countingServer() {
  let hits = 0;
  const server = http.createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('identity providers the portal must not fetch', () => {
  it('refuses plain http, loopback, private and link-local hosts at once, without a request', async () => {
    const neighbour = await countingServer();
    try {
      const connections = [
        { protocol: 'oidc', issuer: `http://127.0.0.1:${neighbour.port}`, clientId: 'c', clientSecret: 's' },
        { protocol: 'oidc', issuer: `https://127.0.0.1:${neighbour.port}`, clientId: 'c', clientSecret: 's' },
        { protocol: 'oidc', issuer: `https://localhost:${neighbour.port}`, clientId: 'c', clientSecret: 's' },
        { protocol: 'oidc', issuer: `https://[::1]:${neighbour.port}`, clientId: 'c', clientSecret: 's' },
        { protocol: 'oidc', issuer: 'https://169.254.169.254/latest', clientId: 'c', clientSecret: 's' },
        { protocol: 'oidc', issuer: 'https://10.0.0.1', clientId: 'c', clientSecret: 's' },
        { protocol: 'oidc', issuer: 'http://idp.example.com', clientId: 'c', clientSecret: 's' },
        {
          protocol: 'saml',
          entryPoint: `https://127.0.0.1:${neighbour.port}/sso`,
          entityId: 'https://idp.example.com',
          certificate: idp.certificatePem,
        },
      ];
      for (const url of ['/api/v1/sso/connection/test', '/api/v1/sso/connection']) {
        for (const connection of connections) {
          const method = url.endsWith('/test') ? 'POST' : 'PUT';
          const response = await t.app.inject(jsonRequest(method, url, connection, b.cookie));
          expectApiError(response, 422, 'SSO_CONNECTION_FAILED');
          // Refused by the address check, which runs before any request: a host the portal had tried
          // (10.0.0.1 and 169.254.169.254 do not answer here) would fail as unreachable instead.
          expect((response.json() as { message: string }).message, JSON.stringify(connection)).toMatch(
            /is on a private network|must be reached over https/,
          );
        }
      }
      expect(neighbour.hits()).toBe(0);
      expect((ok(await ssoSettings(b)) as { connection: unknown }).connection).toBeNull();
    } finally {
      await neighbour.stop();
    }
  });
});
