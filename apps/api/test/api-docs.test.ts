import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ENABLED_AUTH_ENDPOINTS, SSO_ENDPOINTS } from '../src/modules/identity/identity.routes.ts';
import { API_DOCS_PATH, OPENAPI_DOCUMENT_PATH, documentPath } from '../src/docs/api-reference.ts';
import {
  GOOGLE_IDENTITY_ENDPOINTS,
  IDENTITY_ENDPOINTS,
  SSO_IDENTITY_ENDPOINTS,
} from '../src/docs/identity-endpoints.ts';
import { GoogleStandIn } from './google-stand-in.ts';
import { SamlIdp } from './saml-idp.ts';
import {
  STRONG_PASSWORD,
  TEST_ORIGIN,
  connectSso,
  cookieHeader,
  jsonRequest,
  latestCode,
  setUpOrganization,
  signIn,
  ssoSettingsBody,
  signUpVerifiedUser,
  useTestApp,
  type TestApp,
} from './helper.ts';
import { freshTotp, keyOf } from './totp.ts';

/*
 * The API reference at /api/docs: a page whose every script and style comes from the portal, and
 * an OpenAPI document that lists every route the server registers (and each identity endpoint
 * behind better-auth's wildcard) with what it takes and what it answers.
 */

/** Every route a Fastify instance registers, as an onRoute hook added at its creation sees it. */
const registeredRoutes = vi.hoisted(() => new Map<object, RouteOptions[]>());

vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof import('fastify')>();
  const withRouteLog = ((options?: Parameters<typeof fastify.default>[0]) => {
    const app = fastify.default(options);
    const routes: RouteOptions[] = [];
    registeredRoutes.set(app, routes);
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    return app;
  }) as typeof fastify.default;
  return { ...fastify, default: withRouteLog };
});

/** A built web app of one page and one script, so the server serves the SPA as it does in production. */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-api-docs-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head></html>',
);
fs.writeFileSync(path.join(webDist, 'assets/app.js'), 'export {};');
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

const t = useTestApp({ WEB_DIST_DIR: webDist });
// The portal discovers Google's endpoints when it starts: a local provider stands in for Google.
const google = await GoogleStandIn.start();
afterAll(() => google.stop());
const withGoogle = useTestApp({ WEB_DIST_DIR: webDist, ...google.portalEnv });
// An organisation's SAML identity provider, for the single sign-on endpoints' answers.
const samlIdp = await SamlIdp.start();
afterAll(() => samlIdp.stop());
const withSso = useTestApp({ WEB_DIST_DIR: webDist, ...samlIdp.portalEnv });

interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: { in: string; name: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface OpenApiDocument {
  openapi: string;
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

async function documentOf(app: FastifyInstance): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: OPENAPI_DOCUMENT_PATH });
  expect(response.statusCode).toBe(200);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  return response.json() as OpenApiDocument;
}

/** `METHOD path` of every operation in the document. */
function operationsOf(document: OpenApiDocument): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${route}`,
      operation,
    ]),
  );
}

describe('the reference page', () => {
  it('is an HTML page whose scripts and styles all come from the portal, under the portal CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: API_DOCS_PATH });
    expect(page.statusCode).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);

    // The CSP has no 'unsafe-inline' for scripts, so every script must be a file of its own.
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>/g)].map(([, attributes]) => attributes ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    expect(
      scripts.filter((attributes) => !/\ssrc="/.test(attributes)),
      'inline scripts',
    ).toEqual([]);
    const files = [...page.body.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="([^"]+)"/g)].map(
      ([, url]) => url!,
    );
    expect(files.some((file) => file.endsWith('.css'))).toBe(true);
    for (const file of files) {
      const url = new URL(file, `${TEST_ORIGIN}${API_DOCS_PATH}`);
      expect(url.origin, file).toBe(TEST_ORIGIN);
      const response = await t.app.inject({ method: 'GET', url: url.pathname });
      expect(response.statusCode, file).toBe(200);
    }

    // The same policy as the web app's own page: the reference needs nothing looser.
    const spaPage = await t.app.inject({ method: 'GET', url: '/apps' });
    expect(String(spaPage.headers['content-type'])).toMatch(/^text\/html/);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toBe(spaPage.headers['content-security-policy']);
    expect(policy).toMatch(/(^|;)script-src 'self'(;|$)/);
    expect(policy).toMatch(/(^|;)connect-src 'self'(;|$)/);
  });

  it('shows the document the portal serves, and sends nothing to a validator elsewhere', async () => {
    const initializer = await t.app.inject({
      method: 'GET',
      url: `${API_DOCS_PATH}/static/swagger-initializer.js`,
    });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain("resolveUrl('./json')");
    expect(initializer.body).toContain('validatorUrl: null');
    const shown = await t.app.inject({ method: 'GET', url: `${API_DOCS_PATH}/json` });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(await documentOf(t.app));
  });
});

/** Registered routes that are not the portal's API, each with the reason it is not in the document. */
const NOT_API_ROUTES: Record<string, string> = {
  [OPENAPI_DOCUMENT_PATH]: 'the document itself',
  '/metrics': "Prometheus's scrape endpoint: text, not JSON; docs/operations.md lists its metrics",
  '/api/auth/*': "better-auth's handler: the identity endpoints behind it are checked one by one below",
  '/': "the web app's page",
  '/index.html': "the web app's page",
  '/assets/app.js': "the web app's built files",
};
const NOT_API_PREFIXES: Record<string, string> = {
  [API_DOCS_PATH]: "the reference's page, Swagger UI's files and its copies of the document",
  '/regions/': "the regional platform's APIs, which the portal hosts in development only",
  '/card-sandbox/': "the sandbox payment gateway's API, which the portal hosts when it is the card gateway",
  '/dev/': 'the development outbox, never mounted in production',
};

/** Routes that take no body although their method could carry one. */
const BODYLESS = new Set([
  'POST /api/v1/applications/{applicationId}/reactivate',
  'POST /api/v1/applications/{applicationId}/api-keys/{keyId}/revoke',
  'POST /api/v1/invitations/{invitationId}/resend',
  'PUT /api/v1/accounts/payment-profiles/{profileId}/default',
  'POST /api/v1/sso/email-domains/{domain}/verify',
]);

const isNotApi = (url: string) =>
  url in NOT_API_ROUTES || Object.keys(NOT_API_PREFIXES).some((prefix) => url.startsWith(prefix));

/** What the document lacks for one method of a registered route. */
function gapsOf(route: RouteOptions, method: string, operation: Operation | undefined): string[] {
  const key = `${method} ${documentPath(route.url)}`;
  if (!operation) return [`${key}: not in the document`];
  const gaps: string[] = [];
  const takesBody =
    route.schema?.body !== undefined || (['POST', 'PUT', 'PATCH'].includes(method) && !BODYLESS.has(key));
  if (takesBody && !operation.requestBody?.content?.['application/json']?.schema)
    gaps.push(`${key}: no request body schema`);
  const parameters = operation.parameters ?? [];
  if (
    route.schema?.querystring &&
    !parameters.some((parameter) => parameter.in === 'query' && parameter.schema)
  ) {
    gaps.push(`${key}: no query parameters`);
  }
  for (const [, name] of route.url.matchAll(/:(\w+)/g)) {
    if (
      !parameters.some((parameter) => parameter.in === 'path' && parameter.name === name && parameter.schema)
    ) {
      gaps.push(`${key}: no schema for the path parameter ${name}`);
    }
  }
  const successes = Object.entries(operation.responses).filter(([status]) => /^[23]/.test(status));
  if (successes.length === 0) gaps.push(`${key}: no success answer`);
  for (const [status, answer] of successes) {
    const hasBody = status !== '204' && !status.startsWith('3');
    // JSON for the API; a file (the invoice PDF) in its own type.
    if (hasBody && !Object.values(answer.content ?? {}).some((content) => content.schema))
      gaps.push(`${key}: no schema for its ${status} answer`);
  }
  return gaps;
}

describe('the OpenAPI document', () => {
  it('lists every route the server registers with its method, what it takes and its answer', async () => {
    const document = await documentOf(t.app);
    const routes = registeredRoutes.get(t.app) ?? [];
    expect(routes.length).toBeGreaterThan(0);
    const gaps = routes
      .filter((route) => !isNotApi(route.url))
      .flatMap((route) =>
        [route.method]
          .flat()
          // Fastify answers HEAD for every GET by itself; the document lists the GET.
          .filter((method) => method !== 'HEAD')
          .flatMap((method) =>
            gapsOf(route, method, document.paths[documentPath(route.url)]?.[method.toLowerCase()]),
          ),
      );
    expect(gaps).toEqual([]);

    // The lists above name routes that exist, so a route they stop matching is not silently skipped.
    const urls = routes.map((route) => route.url);
    const unused = [
      ...Object.keys(NOT_API_ROUTES).filter((url) => !urls.includes(url)),
      ...Object.keys(NOT_API_PREFIXES).filter((prefix) => !urls.some((url) => url.startsWith(prefix))),
    ];
    expect(unused, 'exclusions that match no route').toEqual([]);
    const bodyless = [...BODYLESS].filter(
      (key) => !operationsOf(document).some(([documented]) => documented === key),
    );
    expect(bodyless, 'bodyless routes that are not in the document').toEqual([]);
  });

  it.each([
    ['without Google sign-in', t, {}],
    ['with Google sign-in', withGoogle, GOOGLE_IDENTITY_ENDPOINTS],
  ] as const)(
    'lists each identity endpoint the server serves %s, and no other',
    async (_label, testApp, extra) => {
      const documented = operationsOf(await documentOf(testApp.app))
        .map(([key]) => key)
        .filter((key) => key.includes(' /api/auth/'))
        .sort();
      const served = Object.entries({ ...ENABLED_AUTH_ENDPOINTS, ...SSO_ENDPOINTS, ...extra }).map(
        ([endpoint, { method }]) => `${method} /api/auth${documentPath(endpoint)}`,
      );
      expect(documented).toEqual(served.sort());
      for (const key of documented) {
        const [method, path] = key.split(' ') as ['GET' | 'POST', string];
        // A provider id of no organisation still reaches the endpoint, which refuses it.
        const url = path.replace('{providerId}', 'sso-00000000-0000-4000-8000-000000000000');
        const response = await testApp.app.inject(
          jsonRequest(method, url, method === 'POST' ? {} : undefined),
        );
        expect(response.statusCode, `${key}: ${response.body}`).not.toBe(404);
      }
    },
  );

  it('gives every operation a summary and one of the reference groups', async () => {
    const document = await documentOf(withGoogle.app);
    const groups = document.tags.map((tag) => tag.name);
    const untidy = operationsOf(document)
      .filter(
        ([, operation]) =>
          !operation.summary || operation.tags?.length !== 1 || !groups.includes(operation.tags[0]!),
      )
      .map(([key]) => key);
    expect(untidy).toEqual([]);
  });
});

/**
 * Calls an identity endpoint with a body the document accepts, and checks the answer is the
 * documented success, field for field (zod drops fields it does not know, so any undocumented
 * field makes the parsed answer differ).
 */
async function expectDocumentedAnswer(
  testApp: TestApp,
  endpoint: string,
  request: { body?: unknown; cookie?: string; query?: string } = {},
) {
  const documented =
    IDENTITY_ENDPOINTS[endpoint] ?? GOOGLE_IDENTITY_ENDPOINTS[endpoint] ?? SSO_IDENTITY_ENDPOINTS[endpoint]!;
  if (request.body !== undefined)
    expect(documented.body?.safeParse(request.body).success, endpoint).toBe(true);
  const url = `/api/auth${endpoint}${request.query ?? ''}`;
  const response = await testApp.app.inject(
    jsonRequest(documented.method, url, request.body, request.cookie),
  );
  expect(response.statusCode, `${endpoint}: ${response.body}`).toBe(documented.success.status);
  if (documented.success.body) {
    const answer: unknown = response.json();
    expect(documented.success.body.parse(answer), endpoint).toEqual(answer);
  }
  return response;
}

describe('the identity endpoints', () => {
  it('answer as the document says, from sign-up to sign-out', async () => {
    const email = 'reader@docs.io';
    await expectDocumentedAnswer(t, '/sign-up/email', {
      body: { email, password: STRONG_PASSWORD, name: 'reader' },
    });
    await expectDocumentedAnswer(t, '/email-otp/send-verification-otp', {
      body: { email, type: 'email-verification' },
    });
    const otp = await latestCode(t.app, email, 'confirmation_code');
    await expectDocumentedAnswer(t, '/email-otp/verify-email', { body: { email, otp } });
    const signedIn = await expectDocumentedAnswer(t, '/sign-in/email', {
      body: { email, password: STRONG_PASSWORD },
    });
    const cookie = cookieHeader(signedIn.headers['set-cookie']);
    await expectDocumentedAnswer(t, '/token', { cookie });
    await expectDocumentedAnswer(t, '/jwks');

    await expectDocumentedAnswer(t, '/email-otp/request-password-reset', { body: { email } });
    const code = await latestCode(t.app, email, 'code');
    const password = `${STRONG_PASSWORD}-new`;
    await expectDocumentedAnswer(t, '/email-otp/reset-password', { body: { email, otp: code, password } });
    await expectDocumentedAnswer(t, '/sign-out', { body: {}, cookie: await signIn(t.app, email, password) });
  });

  it('answer two-factor authentication as the document says, from enrolment to turning it off', async () => {
    const email = 'second-factor@docs.io';
    const enrolling = await signUpVerifiedUser(t.app, email);
    const started = await expectDocumentedAnswer(t, '/two-factor/enable', {
      body: { password: STRONG_PASSWORD },
      cookie: enrolling,
    });
    const { totpURI, backupCodes } = started.json() as { totpURI: string; backupCodes: string[] };
    const key = keyOf(totpURI);
    const enrolled = await expectDocumentedAnswer(t, '/two-factor/verify-totp', {
      body: { code: await freshTotp(key) },
      cookie: enrolling,
    });

    const challenge = async () => {
      const signedIn = await expectDocumentedAnswer(t, '/sign-in/email', {
        body: { email, password: STRONG_PASSWORD },
      });
      return cookieHeader(signedIn.headers['set-cookie']);
    };
    await expectDocumentedAnswer(t, '/two-factor/verify-totp', {
      body: { code: await freshTotp(key) },
      cookie: await challenge(),
    });
    await expectDocumentedAnswer(t, '/two-factor/verify-backup-code', {
      body: { code: backupCodes[0] },
      cookie: await challenge(),
    });
    await expectDocumentedAnswer(t, '/two-factor/disable', {
      body: { password: STRONG_PASSWORD },
      cookie: cookieHeader(enrolled.headers['set-cookie']),
    });
  });

  it("answer an organisation's single sign-on as the document says", async () => {
    const cookie = await setUpOrganization(withSso.app, 'owner@docs-sso.io');
    const { providerId } = await connectSso(
      withSso.app,
      cookie,
      { protocol: 'saml', metadataXml: samlIdp.metadataXml },
      ssoSettingsBody('docs-sso', 'docs-sso.io'),
    );
    const started = await expectDocumentedAnswer(withSso, '/sign-in/sso', {
      body: { organizationSlug: 'docs-sso', callbackURL: '/', errorCallbackURL: '/sign-in-sso' },
    });
    const metadata = await expectDocumentedAnswer(withSso, '/sso/saml2/sp/metadata', {
      query: `?providerId=${providerId}`,
    });
    expect(metadata.headers['content-type']).toMatch(/xml/);
    const answer = await samlIdp.respondTo((started.json() as { url: string }).url, {
      nameId: 'reader@docs-sso.io',
      email: 'reader@docs-sso.io',
    });
    const landed = await withSso.app.inject({
      method: 'POST',
      url: new URL(answer.acsUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        SAMLResponse: answer.SAMLResponse,
        RelayState: answer.RelayState ?? '',
      }).toString(),
    });
    expect(landed.statusCode).toBe(SSO_IDENTITY_ENDPOINTS['/sso/saml2/sp/acs/{providerId}']!.success.status);
    expect(landed.headers['set-cookie']).toBeDefined();
    const callback = await withSso.app.inject({
      method: 'GET',
      url: `/api/auth/sso/callback/${providerId}?state=unknown&code=x`,
    });
    expect(callback.statusCode).toBe(SSO_IDENTITY_ENDPOINTS['/sso/callback/{providerId}']!.success.status);
    expect(callback.headers.location).toMatch(/error=/);
  });

  it('answer Google sign-in as the document says', async () => {
    await expectDocumentedAnswer(withGoogle, '/sign-in/social', {
      body: { provider: 'google', callbackURL: '/', errorCallbackURL: '/', newUserCallbackURL: '/' },
    });
    // A callback that does not belong to a sign-in under way is sent back with an error, still a redirect.
    const callback = await expectDocumentedAnswer(withGoogle, '/callback/google', {
      query: '?state=unknown&code=x',
    });
    expect(callback.headers.location).toMatch(/error=/);
  });
});
