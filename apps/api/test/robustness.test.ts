import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_UPDATE } from './access-outcomes.ts';
import {
  INITIAL_SETUP,
  STRONG_PASSWORD,
  TEST_ORIGIN,
  useTestApp,
  expectApiError,
  setUpOrganization,
  signUpVerifiedUser,
} from './helper.ts';

const HUGE = 100_000;

const testApp = useTestApp();
let app: FastifyInstance;
const cookies = { none: '', fresh: '', filled: '' };

beforeAll(async () => {
  app = testApp.app;
  cookies.fresh = await signUpVerifiedUser(app, 'fresh@acme.io');
  cookies.filled = await setUpOrganization(app, 'filled@acme.io');
});

interface BodyEndpoint {
  method: 'POST' | 'PUT';
  url: string;
  session: keyof typeof cookies;
  body: Record<string, unknown>;
}

/** Every endpoint that takes a body, with a body it would accept. */
const bodyEndpoints: BodyEndpoint[] = [
  { method: 'POST', url: '/api/auth/sign-up/email', session: 'none', body: { email: 'robust@acme.io', password: STRONG_PASSWORD, name: 'Robust' } },
  { method: 'POST', url: '/api/auth/sign-in/email', session: 'none', body: { email: 'robust@acme.io', password: STRONG_PASSWORD } },
  { method: 'POST', url: '/api/auth/email-otp/send-verification-otp', session: 'none', body: { email: 'robust@acme.io', type: 'email-verification' } },
  { method: 'POST', url: '/api/auth/email-otp/verify-email', session: 'none', body: { email: 'robust@acme.io', otp: '123456' } },
  { method: 'POST', url: '/api/auth/email-otp/request-password-reset', session: 'none', body: { email: 'robust@acme.io' } },
  { method: 'POST', url: '/api/auth/email-otp/reset-password', session: 'none', body: { email: 'robust@acme.io', otp: '123456', password: STRONG_PASSWORD } },
  { method: 'PUT', url: '/api/v1/accounts', session: 'fresh', body: { ...INITIAL_SETUP } },
  {
    method: 'PUT',
    url: '/api/v1/accounts',
    session: 'filled',
    body: { ...BILLING_UPDATE, vatNumber: '' },
  },
];

type Payload = { contentType?: string; payload: string | Buffer };

const raw = (payload: string | Buffer, contentType = 'application/json'): Payload => ({ contentType, payload });
const json = (value: unknown): Payload => raw(JSON.stringify(value));

/** Bodies no endpoint may accept, whatever its fields. */
const malformedBodies: [string, Payload][] = [
  ['truncated JSON', raw('{"email": ')],
  ['an empty JSON body', raw('')],
  ['invalid UTF-8', raw(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]))],
  ['a prototype-poisoning body', raw('{"__proto__": {"admin": true}, "email": "robust@acme.io"}')],
  ['deeply nested JSON', raw(`${'['.repeat(5000)}${']'.repeat(5000)}`)],
  ['plain text', raw('email=robust@acme.io', 'text/plain')],
  ['a form body', raw('email=robust%40acme.io&password=x', 'application/x-www-form-urlencoded')],
  ['multipart', raw('--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nrobust@acme.io\r\n--b--\r\n', 'multipart/form-data; boundary=b')],
  ['XML', raw('<email>robust@acme.io</email>', 'application/xml')],
  ['a body without a content type', { payload: '{"email":"robust@acme.io"}' }],
  ['an empty array', json([])],
  ['null', json(null)],
  ['a string', json('robust@acme.io')],
  ['a number', json(42)],
  ['true', json(true)],
  ['a body over the size limit', json({ email: 'x'.repeat(300 * 1024) })],
];

/** Bodies built from the endpoint's valid body by spoiling one part. */
function spoiledBodies(body: Record<string, unknown>): [string, Payload][] {
  const spoiled: [string, Payload][] = [['the valid body inside an array', json([body])]];
  for (const [field, value] of Object.entries(body)) {
    if (typeof value !== 'string') continue;
    const huge = field === 'email' ? `${'a'.repeat(HUGE)}@acme.io` : 'x'.repeat(HUGE);
    spoiled.push(
      [`a huge ${field}`, json({ ...body, [field]: huge })],
      [`${field} as a number`, json({ ...body, [field]: 12345 })],
      [`${field} as an array`, json({ ...body, [field]: [value] })],
      [`${field} as an operator object`, json({ ...body, [field]: { $ne: '' } })],
      [`${field} as null`, json({ ...body, [field]: null })],
    );
  }
  return spoiled;
}

function request(endpoint: BodyEndpoint, { contentType, payload }: Payload): InjectOptions {
  const cookie = cookies[endpoint.session];
  return {
    method: endpoint.method,
    url: endpoint.url,
    headers: { origin: TEST_ORIGIN, ...(contentType ? { 'content-type': contentType } : {}), ...(cookie ? { cookie } : {}) },
    payload,
  };
}

function expectClientError(response: Awaited<ReturnType<FastifyInstance['inject']>>) {
  expect(response.statusCode, response.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
  expectApiError(response, response.statusCode);
}

describe.each(bodyEndpoints)('$method $url ($session session)', (endpoint) => {
  it.each([...malformedBodies, ...spoiledBodies(endpoint.body)])('answers %s with a JSON 4xx', async (_label, payload) => {
    expectClientError(await app.inject(request(endpoint, payload)));
  });
});

describe('query strings and headers', () => {
  it.each([
    ['/api/v1/utils/subdivisions?countryCode=' + 'S'.repeat(HUGE)],
    ['/api/v1/utils/subdivisions?countryCode[]=SG'],
    ['/api/v1/utils/subdivisions?countryCode=%ZZ'],
    ['/api/v1/utils/subdivisions?countryCode[a]=SG'],
    ['/dev/mailbox/messages/0'],
    ['/dev/mailbox/messages/abc'],
    ['/dev/mailbox/messages/99999999999999999999'],
  ])('GET %s answers a JSON 4xx', async (url) => {
    expectClientError(await app.inject({ method: 'GET', url }));
  });

  it.each([
    ['a huge bearer token', { authorization: `Bearer ${'x'.repeat(HUGE)}` }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['a huge cookie', { cookie: `portal.session_token=${'x'.repeat(HUGE)}` }],
    ['a cookie without a value', { cookie: 'portal.session_token' }],
    ['a badly encoded cookie', { cookie: 'portal.session_token=%E0%A4%A' }],
  ])('GET /api/v1/accounts/me with %s answers 401', async (_label, headers) => {
    expectApiError(await app.inject({ method: 'GET', url: '/api/v1/accounts/me', headers }), 401, 'UNAUTHORIZED');
  });
});

describe('endpoints without a body', () => {
  const endpoints: [string, keyof typeof cookies][] = [
    ['/api/health', 'none'],
    ['/api/v1/config', 'none'],
    ['/api/v1/utils/countries', 'none'],
    ['/api/v1/utils/subdivisions?countryCode=SG', 'none'],
    ['/api/auth/jwks', 'none'],
    ['/api/auth/token', 'filled'],
    ['/api/v1/accounts/me', 'filled'],
    ['/api/v1/accounts/tax', 'filled'],
    ['/api/v1/accounts/freecredits', 'filled'],
    ['/dev/mailbox/messages', 'none'],
  ];
  const oddities: [string, (url: string) => InjectOptions][] = [
    ['a malformed JSON body', (url) => ({ method: 'GET', url, headers: { 'content-type': 'application/json' }, payload: '{"a' })],
    ['a huge query string', (url) => ({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}x=${'x'.repeat(HUGE)}` })],
    ['bracketed query keys', (url) => ({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}a[]=1&a[b]=2&__proto__[x]=1` })],
  ];

  describe.each(endpoints)('GET %s', (url, session) => {
    it.each(oddities)('answers %s with JSON and no server error', async (_label, build) => {
      const options = build(url);
      const cookie = cookies[session];
      const response = await app.inject({ ...options, headers: { ...options.headers, ...(cookie ? { cookie } : {}) } });
      expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
      expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
      if (response.statusCode >= 400) expectApiError(response, response.statusCode);
    });
  });
});

describe('unknown paths under /api', () => {
  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/v1/nope'],
    ['GET', '/api/v1/accounts/nope'],
    ['DELETE', '/api/v1/accounts'],
    ['GET', '/api/auth/nope'],
    ['POST', '/api/auth/nope'],
    ['GET', '/api/auth/sign-in/email'],
    ['PATCH', '/api/auth/sign-in/email'],
    ['GET', '/dev/nope'],
  ] as const)('%s %s answers 404 NOT_FOUND', async (method, url) => {
    expectApiError(await app.inject({ method, url, headers: { origin: TEST_ORIGIN } }), 404, 'NOT_FOUND');
  });
});
