import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { operatorToken } from '../src/modules/operators/operator-token.ts';
import {
  REQUEST_ID_HEADER,
  requestIdGenerator,
  requestIdLogging,
  requestIdPlugin,
} from '../src/plugins/request-id.ts';
import { newApplicationWithUsage, newOrganization } from './billing-fixtures.ts';
import { sandboxCardToken } from './card-fixtures.ts';
import {
  STRONG_PASSWORD,
  buildTestApp,
  expectApiError,
  jsonRequest,
  setUpOrganization,
  signInRequest,
  useTestApp,
} from './helper.ts';
import { operatorApi } from './operator-fixtures.ts';

/*
 * What operators see: liveness and readiness for the load balancer, Prometheus metrics behind a
 * token or loopback, and a request id on every answer, every log line of the request and every 5xx
 * body. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const METRICS_TOKEN = 'metrics-token-of-the-observability-test';
/** A client on another machine, as inject names its address. */
const ELSEWHERE = '203.0.113.7';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const t = useTestApp({ METRICS_TOKEN });
const behindProxy = useTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_MAX_PER_IP: '2' });

/** One sample of the exposition text: its labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, name = '', labelText = '', value = ''] = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line) ?? [];
      const labels = Object.fromEntries(
        [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, label]) => [key!, label!]),
      );
      return { name, labels, value: Number(value) };
    });
}

/** The value of the one sample of `name` whose labels include `labels`, undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

async function scrape(app: FastifyInstance): Promise<Sample[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(String(response.headers['content-type'])).toMatch(/^text\/plain; version=0\.0\.4/);
  return samplesOf(response.body);
}

/** Scrapes until `name` with `labels` reaches `atLeast`: what a job does is counted when it ends. */
async function untilValue(
  app: FastifyInstance,
  name: string,
  labels: Record<string, string>,
  atLeast: number,
) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = valueOf(await scrape(app), name, labels) ?? 0;
    if (value >= atLeast) return value;
    if (Date.now() > deadline) throw new Error(`${name} ${JSON.stringify(labels)} stayed at ${value}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('liveness and readiness', () => {
  it.each(['/healthz', '/api/health'])('%s answers 200 ok without a session, as JSON', async (url) => {
    const response = await t.app.inject({ method: 'GET', url, remoteAddress: ELSEWHERE });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 while the database and the job queue answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz', remoteAddress: ELSEWHERE });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 503 naming the job queue while its tables are gone, and 200 once they are back', async () => {
    await t.database.db.execute(sql`alter schema pgboss rename to pgboss_away`);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      const body = expectApiError(response, 503, 'NOT_READY');
      expect(body.message).toBe('job queue unreachable');
      expect((body as { requestId?: string }).requestId).toBe(response.headers[REQUEST_ID_HEADER]);
    } finally {
      await t.database.db.execute(sql`alter schema pgboss_away rename to pgboss`);
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  // readiness.postgres.test.ts: the database refusing connections, which the embedded one cannot do.
});

describe('request ids', () => {
  const proxied = (
    app: FastifyInstance,
    remoteAddress: string,
  ): Promise<Awaited<ReturnType<FastifyInstance['inject']>>> =>
    app.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress,
      headers: { [REQUEST_ID_HEADER]: 'proxy-id-42' },
    });

  it('answers a new UUID in X-Request-Id, and ignores the header of a peer TRUST_PROXY does not name', async () => {
    const first = await proxied(t.app, '127.0.0.1');
    const second = await proxied(t.app, '127.0.0.1');
    expect(first.headers[REQUEST_ID_HEADER]).toMatch(UUID);
    expect(second.headers[REQUEST_ID_HEADER]).toMatch(UUID);
    expect(first.headers[REQUEST_ID_HEADER]).not.toBe(second.headers[REQUEST_ID_HEADER]);
    expect((await proxied(behindProxy.app, ELSEWHERE)).headers[REQUEST_ID_HEADER]).toMatch(UUID);
  });

  it("takes a trusted proxy's X-Request-Id, unless it could break a log line or a header", async () => {
    expect((await proxied(behindProxy.app, '127.0.0.1')).headers[REQUEST_ID_HEADER]).toBe('proxy-id-42');
    const odd = await behindProxy.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { [REQUEST_ID_HEADER]: 'has spaces "and quotes"' },
    });
    expect(odd.headers[REQUEST_ID_HEADER]).toMatch(UUID);
  });

  it.each([
    ['loopback', '::ffff:127.0.0.1', true],
    ['10.0.0.0/8, 192.168.1.10', '10.1.2.3', true],
    ['10.0.0.0/8, 192.168.1.10', '192.168.1.10', true],
    ['10.0.0.0/8, 192.168.1.10', '192.168.1.11', false],
    ['10.0.0.0/255.0.0.0', '10.200.0.1', true],
    ['uniquelocal', '172.20.0.1', true],
    ['true', ELSEWHERE, true],
    ['false', '127.0.0.1', false],
  ])('TRUST_PROXY=%s: a peer at %s is trusted: %s', (trustProxy, address, trusted) => {
    const generate = requestIdGenerator(
      trustProxy === 'true' ? true : trustProxy === 'false' ? false : trustProxy,
    );
    const id = generate({
      headers: { [REQUEST_ID_HEADER]: 'from-proxy' },
      socket: { remoteAddress: address },
    } as never);
    expect(id === 'from-proxy').toBe(trusted);
  });

  it('puts the id on every log line of the request, those written through the app logger too', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(
          ...chunk
            .toString()
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Record<string, unknown>),
        );
        done();
      },
    });
    const app = Fastify({
      logger: { level: 'info', stream, mixin: requestIdLogging.mixin },
      childLoggerFactory: requestIdLogging.childLoggerFactory,
      genReqId: requestIdGenerator(false),
    });
    await app.register(requestIdPlugin);
    app.post('/work', async (request) => {
      request.log.info('on the request logger');
      // After the body was read: the handler runs on from the body stream's events.
      await new Promise((resolve) => setImmediate(resolve));
      app.log.info('on the app logger');
      return { ok: true };
    });
    app.get('/fail', async () => {
      throw new Error('a bug');
    });
    try {
      const request: InjectOptions = { method: 'POST', url: '/work', payload: { a: 1 } };
      const answered = await app.inject(request);
      const id = answered.headers[REQUEST_ID_HEADER];
      const messages = lines.map((line) => [line.msg, line.reqId]);
      expect(messages).toEqual([
        ['incoming request', id],
        ['on the request logger', id],
        ['on the app logger', id],
        ['request completed', id],
      ]);
      // One reqId field a line, not one from Fastify and one from the app logger's mixin.
      expect(lines.every((line) => JSON.stringify(line).split('"reqId"').length === 2)).toBe(true);

      lines.length = 0;
      app.log.info('outside any request');
      expect(lines[0]?.reqId).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('puts the id in the body of a 5xx answer, for a user to quote', async () => {
    const testApp = await buildTestApp({});
    try {
      testApp.app.get('/fails-for-the-test', async () => {
        throw new Error('a bug');
      });
      const response = await testApp.app.inject({ method: 'GET', url: '/fails-for-the-test' });
      const body = expectApiError(response, 500, 'INTERNAL_ERROR') as { requestId?: string };
      expect(body.requestId).toMatch(UUID);
      expect(body.requestId).toBe(response.headers[REQUEST_ID_HEADER]);
      // A 4xx carries none: the caller has the answer's code to go by.
      const missing = await testApp.app.inject({ method: 'GET', url: '/api/v1/nope' });
      expect(expectApiError(missing, 404)).not.toHaveProperty('requestId');
    } finally {
      await testApp.close();
    }
  }, 60_000);
});

describe('who may read /metrics', () => {
  const metricsRequest = (remoteAddress: string, headers: Record<string, string> = {}): InjectOptions => ({
    method: 'GET',
    url: '/metrics',
    remoteAddress,
    headers,
  });

  it('answers the token from anywhere, and nothing else from another machine', async () => {
    const withToken = await t.app.inject(
      metricsRequest(ELSEWHERE, { authorization: `Bearer ${METRICS_TOKEN}` }),
    );
    expect(withToken.statusCode).toBe(200);
    expectApiError(await t.app.inject(metricsRequest(ELSEWHERE)), 401, 'UNAUTHORIZED');
    expectApiError(
      await t.app.inject(metricsRequest(ELSEWHERE, { authorization: `Bearer ${METRICS_TOKEN}x` })),
      401,
      'UNAUTHORIZED',
    );
    // The operator token and a portal session open other things, not this.
    const operator = await t.app.inject(
      metricsRequest(ELSEWHERE, { authorization: `Bearer ${operatorToken(t.config)}` }),
    );
    expectApiError(operator, 401, 'UNAUTHORIZED');
  });

  it('answers this machine without a token, unless a proxy forwarded the request', async () => {
    expect((await t.app.inject(metricsRequest('127.0.0.1'))).statusCode).toBe(200);
    expect((await t.app.inject(metricsRequest('::1'))).statusCode).toBe(200);
    expectApiError(await t.app.inject(metricsRequest('127.0.0.1', { 'x-forwarded-for': ELSEWHERE })), 401);
  });

  it('without METRICS_TOKEN, refuses every other machine with 403, also behind the trusted proxy', async () => {
    expectApiError(await behindProxy.app.inject(metricsRequest(ELSEWHERE)), 403, 'FORBIDDEN');
    // The proxy on this machine names the client: the client is not on this machine.
    expectApiError(
      await behindProxy.app.inject(metricsRequest('127.0.0.1', { 'x-forwarded-for': ELSEWHERE })),
      403,
      'FORBIDDEN',
    );
    expect((await behindProxy.app.inject(metricsRequest('127.0.0.1'))).statusCode).toBe(200);
  });
});

describe('the metrics', () => {
  let cookie = '';
  const email = 'metrics-owner@acme.io';
  beforeAll(async () => {
    cookie = await setUpOrganization(t.app, email);
  }, 60_000);

  it('count HTTP answers by route template and status, never by the raw URL', async () => {
    const url = '/api/v1/applications/an-application-id-in-the-url';
    await t.app.inject(jsonRequest('GET', url));
    const response = await scrape(t.app);
    const labels = { method: 'GET', route: '/api/v1/applications/:applicationId', status_code: '401' };
    expect(valueOf(response, 'portal_http_requests_total', labels)).toBe(1);
    expect(valueOf(response, 'portal_http_request_duration_seconds_count', labels)).toBe(1);
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).not.toContain('an-application-id-in-the-url');
    // An API path no route matches: a page path would be the SPA's when the web build is present.
    await t.app.inject({ method: 'GET', url: '/api/v1/no/such/route' });
    expect(
      valueOf(await scrape(t.app), 'portal_http_requests_total', { route: 'unmatched', status_code: '404' }),
    ).toBe(1);
  });

  it('count sign-in failures', async () => {
    const before = valueOf(await scrape(t.app), 'portal_sign_in_failures_total') ?? 0;
    expect((await signInRequest(t.app, email, `${STRONG_PASSWORD}-wrong`)).statusCode).toBe(401);
    expect((await signInRequest(t.app, 'nobody@acme.io')).statusCode).toBe(401);
    expect(valueOf(await scrape(t.app), 'portal_sign_in_failures_total')).toBe(before + 2);
  });

  it('count 429 answers by route and code', async () => {
    const signIns = Array.from({ length: 3 }, () =>
      behindProxy.app.inject(
        jsonRequest('POST', '/api/auth/sign-in/email', { email: 'x@acme.io', password: 'wrong' }),
      ),
    );
    const statuses = [];
    for (const signIn of signIns) statuses.push((await signIn).statusCode);
    expect(statuses).toContain(429);
    const response = await behindProxy.app.inject({ method: 'GET', url: '/metrics' });
    const limited = valueOf(samplesOf(response.body), 'portal_http_rate_limited_total', {
      route: '/api/auth/*',
      code: 'RATE_LIMITED',
    });
    expect(limited).toBe(statuses.filter((status) => status === 429).length);
  });

  it('count session checks answered from memory and from the database', async () => {
    const before = await scrape(t.app);
    for (let call = 0; call < 3; call += 1) {
      expect(
        (await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie))).statusCode,
      ).toBe(200);
    }
    const after = await scrape(t.app);
    const lookups = (samples: Sample[], result: string) =>
      valueOf(samples, 'portal_session_cache_lookups_total', { result }) ?? 0;
    expect(
      lookups(after, 'hit') + lookups(after, 'miss') - lookups(before, 'hit') - lookups(before, 'miss'),
    ).toBe(3);
    expect(lookups(after, 'hit')).toBeGreaterThan(lookups(before, 'hit'));
  });

  it('report the database pool', async () => {
    const samples = await scrape(t.app);
    if (t.database.kind === 'pglite') {
      expect(valueOf(samples, 'portal_db_pool_max_connections')).toBe(1);
      expect(valueOf(samples, 'portal_db_pool_waiting_clients')).toBeUndefined();
      return;
    }
    expect(valueOf(samples, 'portal_db_pool_max_connections')).toBe(10);
    expect(valueOf(samples, 'portal_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'portal_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(samples, 'portal_db_pool_waiting_clients')).toBe(0);
  });

  it('report each queue’s waiting jobs and the failed runs of jobs', async () => {
    const { jobQueue } = t.app;
    await jobQueue.boss.createQueue('metrics-waiting');
    await jobQueue.boss.send('metrics-waiting', {});
    await jobQueue.boss.send('metrics-waiting', {});
    const samples = await scrape(t.app);
    expect(valueOf(samples, 'portal_job_queue_jobs', { queue: 'metrics-waiting', state: 'waiting' })).toBe(2);
    expect(valueOf(samples, 'portal_job_queue_jobs', { queue: 'metrics-waiting', state: 'active' })).toBe(0);
    // The portal's own queues are listed too.
    expect(valueOf(samples, 'portal_job_queue_jobs', { queue: 'bill-month', state: 'waiting' })).toBe(0);

    await jobQueue.boss.createQueue('metrics-failing', { name: 'metrics-failing', retryLimit: 0 });
    await jobQueue.work('metrics-failing', {}, async () => {
      throw new Error('fails on purpose');
    });
    await jobQueue.send('metrics-failing', {}, {});
    expect(await untilValue(t.app, 'portal_job_failures_total', { queue: 'metrics-failing' }, 1)).toBe(1);
  }, 90_000);

  it('count billing runs, the organisations they billed, and their duration', async () => {
    const organizationId = await newOrganization(t.database.db, { balanceCents: 10_000 });
    await newApplicationWithUsage(t.database.db, organizationId, {
      plan: 'advance',
      billingCycle: '2025-03',
      mau: 100,
    });
    const operator = operatorApi(t, operatorToken(t.config));
    for (let run = 0; run < 2; run += 1) {
      const response = await operator('POST', '/billing-runs', {
        month: '2025-03',
        organization: organizationId,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const samples = await scrape(t.app);
    expect(valueOf(samples, 'portal_billing_runs_total', { outcome: 'completed' })).toBe(2);
    expect(valueOf(samples, 'portal_billing_organizations_total', { result: 'billed' })).toBe(1);
    expect(valueOf(samples, 'portal_billing_organizations_total', { result: 'already_billed' })).toBe(1);
    expect(valueOf(samples, 'portal_billing_organizations_total', { result: 'failed' })).toBe(0);
    expect(valueOf(samples, 'portal_billing_run_duration_seconds_count')).toBe(2);
  }, 60_000);

  it('count card payment attempts by outcome', async () => {
    for (const [number, status] of [
      ['4242424242424242', 201],
      ['4000000000000002', 402],
    ] as const) {
      const token = await sandboxCardToken(t.app, cookie, number);
      const topUp = await t.app.inject(
        jsonRequest('POST', '/api/v1/accounts/topup', { amount: 100, token }, cookie),
      );
      expect(topUp.statusCode, topUp.body).toBe(status);
    }
    const samples = await scrape(t.app);
    expect(
      valueOf(samples, 'portal_payment_attempts_total', { purpose: 'topup', outcome: 'succeeded' }),
    ).toBe(1);
    expect(valueOf(samples, 'portal_payment_attempts_total', { purpose: 'topup', outcome: 'refused' })).toBe(
      1,
    );
  }, 60_000);

  it('include the process’s own, prefixed', async () => {
    const samples = await scrape(t.app);
    expect(valueOf(samples, 'portal_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.every((sample) => sample.name.startsWith('portal_'))).toBe(true);
  });
});
