import type { Application } from '@portal/contracts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENABLED_AUTH_ENDPOINTS } from '../src/auth/auth.routes.ts';
import { TEST_ORIGIN, invite, jsonRequest, setUpOrganization, useTestApp } from '../test/helper.ts';
import {
  BAD_PATH_IDS,
  BAD_QUERY_VALUES,
  BAD_VALUES,
  RAW_BODIES,
  keyPaths,
  sampleOf,
  withField,
  type JsonSchema,
} from './bad-inputs.ts';
import { seededRandom, type Random } from './random.ts';

/*
 * Seeded fuzzing of every route: malformed bodies, queries and path ids, as anonymous and as a
 * signed-in super-admin, against an in-process portal. Any 5xx, or any 4xx that is not JSON
 * `{code, message}`, fails; the failure names the seed and the request, so FUZZ_SEED replays it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES_PER_OPERATION = Number(process.env.FUZZ_CASES ?? 60);
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Operation {
  method: string;
  /** The path template with `{name}` placeholders, as in the OpenAPI document. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body?: JsonSchema;
  /** Signed in, it would end the caller's session for the cases after it. */
  anonymousOnly?: boolean;
  /** A page for people, not an API answer: only the status is checked. */
  answersHtml?: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

const t = useTestApp();
const known: Record<string, string> = { portal: 'portal' };
let owner = '';

beforeAll(async () => {
  owner = await setUpOrganization(t.app, 'fuzz-owner@acme.io');
  const created = await t.app.inject(jsonRequest('POST', '/api/v1/applications', { name: 'Fuzzed', plan: 'advance', region: 'EU' }, owner));
  const [app] = created.json() as Application[];
  known.applicationId = app!.applicationId;
  known.networkId = app!.networkId ?? 'no-network-yet';
  known.memberId = ((await t.app.inject(jsonRequest('GET', '/api/v1/members/me', undefined, owner))).json() as { id: string }).id;
  const invited = await invite(t.app, owner, ['fuzz-invitee@acme.io'], 'portal.developer');
  known.invitationId = (invited.json() as { results: { id: string }[] }).results[0]!.id;
  const mails = (await t.app.inject({ method: 'GET', url: '/dev/mailbox/messages?to=fuzz-owner%40acme.io' })).json() as { id: string }[];
  known.id = mails[0]?.id ?? 'no-mail';
});

/** Every route of the OpenAPI document, the identity endpoints behind its wildcard, and a few regional ones. */
function operations(): Operation[] {
  const document = t.app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const fromDocument = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(() => path !== '/api/auth/{*}')
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        query: (operation.parameters ?? []).filter((p) => p.in === 'query').map(({ name, schema }) => ({ name, schema })),
        body: operation.requestBody?.content?.['application/json']?.schema,
      })),
  );
  const emailBody: JsonSchema = { type: 'object', properties: { email: { type: 'string', format: 'email' } } };
  const identity = Object.entries(ENABLED_AUTH_ENDPOINTS).map(([path, endpoint]) => ({
    method: endpoint.method,
    path: `/api/auth${path}`,
    pathParams: [],
    query: [],
    body: endpoint.method === 'POST' ? emailBody : undefined,
    anonymousOnly: path === '/sign-out',
  }));
  const unused = ['/api/auth/update-user', '/api/auth/change-password', '/api/auth/sign-in/email-otp'].map((path) => ({
    method: 'POST',
    path,
    pathParams: [],
    query: [],
    body: { type: 'object', properties: { name: { type: 'string' } } } as JsonSchema,
  }));
  const regional: Operation[] = [
    { method: 'GET', path: '/regions/eu/admin/v1/networks/{networkId}', pathParams: ['networkId'], query: [] },
    { method: 'POST', path: '/regions/eu/admin/v1/networks', pathParams: [], query: [], body: { type: 'object', properties: { name: { type: 'string' } } } },
    { method: 'GET', path: '/regions/eu/admin/v1/usage', pathParams: [], query: [{ name: 'month', schema: { type: 'string' } }] },
    { method: 'POST', path: '/regions/eu/api/v2/sso/{portal}', pathParams: ['portal'], query: [{ name: 'applicationId', schema: { type: 'string' } }] },
    { method: 'GET', path: '/regions/eu/network/first-activity', pathParams: [], query: [{ name: 'networkId', schema: { type: 'string' } }] },
    { method: 'POST', path: '/regions/eu/sdk/v1/sessions', pathParams: [], query: [], body: { type: 'object', properties: { userId: { type: 'string' } } } },
    { method: 'GET', path: '/regions/eu/console/{networkId}', pathParams: ['networkId'], query: [], answersHtml: true },
  ];
  return [...fromDocument, ...identity, ...unused, ...regional];
}

type CaseKind = 'valid' | 'body field' | 'raw body' | 'content type' | 'query' | 'path id';

function kindsFor(operation: Operation): CaseKind[] {
  const kinds: CaseKind[] = ['valid', 'query'];
  if (operation.body) kinds.push('body field', 'body field', 'body field');
  if (STATE_CHANGING.has(operation.method)) kinds.push('raw body', 'content type');
  if (operation.pathParams.length > 0) kinds.push('path id', 'path id');
  return kinds;
}

function buildRequest(operation: Operation, kind: CaseKind, random: Random, cookie: string): InjectOptions {
  const badPathParam = kind === 'path id' ? random.pick(operation.pathParams) : undefined;
  const url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === badPathParam ? random.pick(BAD_PATH_IDS) : encodeURIComponent(known[name] ?? 'unknown'),
  );
  const query: string[] = operation.query.map(({ name, schema }) => `${name}=${encodeURIComponent(String(sampleOf(schema, random)))}`);
  if (kind === 'query') {
    const name = operation.query.length > 0 && random.chance(0.8) ? random.pick(operation.query).name : 'unexpected';
    query.push(`${name}=${random.pick(BAD_QUERY_VALUES)}`);
    if (random.chance(0.3)) query.push(`${name}=${random.pick(BAD_QUERY_VALUES)}`);
  }
  const headers: Record<string, string> = { ...(cookie ? { cookie } : {}) };
  if (STATE_CHANGING.has(operation.method)) headers.origin = TEST_ORIGIN;
  let payload: string | undefined;
  if (operation.body || STATE_CHANGING.has(operation.method)) {
    let body = sampleOf(operation.body ?? { type: 'object' }, random);
    if (kind === 'body field') {
      const paths = keyPaths(body);
      const replacement = random.chance(0.15) ? undefined : random.pick(BAD_VALUES);
      body = paths.length > 0 && random.chance(0.85) ? withField(body, random.pick(paths), replacement) : random.pick(BAD_VALUES);
    }
    payload = kind === 'raw body' ? random.pick(RAW_BODIES) : JSON.stringify(body);
    headers['content-type'] = 'application/json';
    if (kind === 'content type') {
      headers['content-type'] = random.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/xml', '', 'multipart/form-data; boundary=x']);
    }
  }
  return {
    method: operation.method as InjectOptions['method'],
    url: query.length > 0 ? `${url}?${query.join('&')}` : url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}

/** What is wrong with an answer, or undefined when it is a success or a well-formed refusal. */
function problemWith(response: LightMyRequestResponse, operation: Operation): string | undefined {
  if (response.statusCode >= 500) return `answered ${response.statusCode}`;
  if (response.statusCode < 400 || operation.answersHtml) return undefined;
  if (!String(response.headers['content-type']).startsWith('application/json')) return `a ${response.statusCode} that is not JSON`;
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

describe(`fuzzing every route (seed ${SEED}, ${CASES_PER_OPERATION} cases per route and caller)`, () => {
  it('answers malformed requests with a 4xx {code, message}, never a 5xx', async () => {
    const random = seededRandom(SEED);
    const failures: string[] = [];
    let sent = 0;
    for (const operation of operations()) {
      for (const caller of operation.anonymousOnly ? ['anonymous'] : ['anonymous', 'super-admin']) {
        for (let index = 0; index < CASES_PER_OPERATION; index += 1) {
          const kind = random.pick(kindsFor(operation));
          const request = buildRequest(operation, kind, random, caller === 'anonymous' ? '' : owner);
          const response = await t.app.inject(request);
          sent += 1;
          const problem = problemWith(response, operation);
          if (problem) {
            const payload = typeof request.payload === 'string' ? request.payload.slice(0, 200) : '';
            failures.push(
              `${problem}: ${request.method} ${String(request.url).slice(0, 200)} as ${caller} (${kind}) body ${payload} -> ${response.body.slice(0, 200)}`,
            );
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures, `seed ${SEED}: ${failures.length} of ${sent} requests failed\n${failures.slice(0, 30).join('\n')}`).toEqual([]);
  });
});
