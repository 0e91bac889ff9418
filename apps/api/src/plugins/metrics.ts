import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { withinMs } from '../http/deadline.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's Prometheus metrics (docs/operations.md lists each), served at /metrics. */
    metrics: PortalMetrics;
  }
}

/** Every metric's name starts with this, the process's default ones included. */
const PREFIX = 'portal_';
/** A scrape waits this long for the job queue's figures; past it they are left out of that scrape. */
const COLLECT_TIMEOUT_MS = 3000;
/** Label of the requests no route matched (the web app's pages, unknown paths): never the raw URL. */
const UNMATCHED_ROUTE = 'unmatched';

/** How a billing run ended: its organisations by result, or none when the run itself failed. */
export interface BillingRunCounts {
  billed: number;
  failed: number;
  alreadyBilled: number;
}

export type PaymentOutcome = 'succeeded' | 'refused';

export interface PortalMetrics {
  /** One registry per server, so that several servers in one process (the tests) keep theirs apart. */
  readonly registry: Registry;
  /** A password sign-in refused for a wrong address or password. */
  signInFailed(): void;
  billingRunFinished(counts: BillingRunCounts | undefined, durationSeconds: number): void;
  /** A card payment attempt settled with the gateway's outcome. */
  paymentAttemptSettled(purpose: string, outcome: PaymentOutcome): void;
  /** A card charge the gateway did not answer: the attempt stays pending for the reconciliation. */
  paymentAttemptUnconfirmed(purpose: string): void;
}

/** The 429 answer's error code, read from its JSON body. */
function errorCodeOf(payload: unknown): string {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return 'unknown';
  try {
    const { code } = JSON.parse(payload.toString()) as { code?: unknown };
    return typeof code === 'string' ? code : 'unknown';
  } catch {
    return 'unknown';
  }
}

function httpMetrics(app: FastifyInstance, registry: Registry) {
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route template and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from a request arriving to its answer sent, by method, route template and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: `${PREFIX}http_rate_limited_total`,
    help: 'Requests refused with 429, by route template and error code',
    labelNames: ['route', 'code'],
    registers: [registry],
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 429) {
      rateLimited.inc({ route: request.routeOptions.url ?? UNMATCHED_ROUTE, code: errorCodeOf(payload) });
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED_ROUTE,
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
}

function databaseMetrics(app: FastifyInstance, registry: Registry) {
  const { pool } = app.database;
  // The embedded database is one connection that takes statements in turn: nothing to report but that.
  new Gauge({
    name: `${PREFIX}db_pool_max_connections`,
    help: 'Connections the database pool may open (1: the embedded database)',
    registers: [registry],
    collect() {
      this.set(pool ? (pool.options.max ?? 10) : 1);
    },
  });
  if (!pool) return;
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Open connections of the PostgreSQL pool, by state (in_use, idle)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_waiting_clients`,
    help: 'Queries waiting for a free connection of the PostgreSQL pool',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

function jobQueueMetrics(app: FastifyInstance, registry: Registry) {
  const { jobQueue } = app;
  /** Each queue's jobs waiting (new or to be retried) and being worked on. */
  const readSizes = async () => {
    const sizes: { queue: string; waiting: number; active: number }[] = [];
    // One queue after another: a scrape takes one pool connection, never the requests' share.
    for (const { name } of await jobQueue.boss.getQueues()) {
      const waiting = await jobQueue.boss.getQueueSize(name);
      const unfinished = await jobQueue.boss.getQueueSize(name, { before: 'completed' });
      sizes.push({ queue: name, waiting, active: unfinished - waiting });
    }
    return sizes;
  };
  new Gauge({
    name: `${PREFIX}job_queue_jobs`,
    help: 'Jobs by queue and state: waiting for a worker (the queue depth) or active (being worked on)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      // Left out, not stale, when the database does not answer in time.
      this.reset();
      const sizes = await withinMs(readSizes(), COLLECT_TIMEOUT_MS).catch((error: unknown) => {
        app.log.warn({ err: error }, 'job queue sizes not read for the metrics');
        return undefined;
      });
      for (const { queue, waiting, active } of sizes ?? []) {
        this.set({ queue, state: 'waiting' }, waiting);
        this.set({ queue, state: 'active' }, active);
      }
    },
  });
  new Counter({
    name: `${PREFIX}job_failures_total`,
    help: "Job runs this server's workers failed (each failed try of a job), by queue",
    labelNames: ['queue'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [queue, failures] of jobQueue.failures) this.inc({ queue }, failures);
    },
  });
}

function sessionCacheMetrics(app: FastifyInstance, registry: Registry) {
  const { lookups } = app.sessions.cache;
  new Counter({
    name: `${PREFIX}session_cache_lookups_total`,
    help: 'Session checks answered from memory (hit) or from the database (miss)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: 'hit' }, lookups.hits);
      this.inc({ result: 'miss' }, lookups.misses);
    },
  });
}

/**
 * The server's metrics on a registry of its own: HTTP answers, the database pool, the job queue,
 * billing runs, card payments, sign-in failures, the session cache, and the process's own (CPU,
 * memory, event loop). The modules report their events through the decorator.
 */
export const metricsPlugin = fp(
  async (app) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: PREFIX });
    httpMetrics(app, registry);
    databaseMetrics(app, registry);
    jobQueueMetrics(app, registry);
    sessionCacheMetrics(app, registry);

    const signInFailures = new Counter({
      name: `${PREFIX}sign_in_failures_total`,
      help: 'Password sign-ins refused for a wrong address or password',
      registers: [registry],
    });
    const billingRuns = new Counter({
      name: `${PREFIX}billing_runs_total`,
      help: 'Billing runs ended: completed (every organisation billed), partial (some failed) or error',
      labelNames: ['outcome'],
      registers: [registry],
    });
    const billingOrganizations = new Counter({
      name: `${PREFIX}billing_organizations_total`,
      help: 'Organisations billing runs went through, by result (billed, failed, already_billed)',
      labelNames: ['result'],
      registers: [registry],
    });
    const billingDuration = new Histogram({
      name: `${PREFIX}billing_run_duration_seconds`,
      help: 'How long billing runs took',
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers: [registry],
    });
    const paymentAttempts = new Counter({
      name: `${PREFIX}payment_attempts_total`,
      help: 'Card payment attempts settled, by purpose (topup, invoice) and outcome (succeeded, refused)',
      labelNames: ['purpose', 'outcome'],
      registers: [registry],
    });
    const unconfirmedPayments = new Counter({
      name: `${PREFIX}payment_attempts_unconfirmed_total`,
      help: 'Card charges the gateway did not answer (left pending for the reconciliation), by purpose',
      labelNames: ['purpose'],
      registers: [registry],
    });

    app.decorate('metrics', {
      registry,
      signInFailed: () => signInFailures.inc(),
      billingRunFinished(counts, durationSeconds) {
        billingDuration.observe(durationSeconds);
        billingRuns.inc({ outcome: !counts ? 'error' : counts.failed > 0 ? 'partial' : 'completed' });
        if (!counts) return;
        billingOrganizations.inc({ result: 'billed' }, counts.billed);
        billingOrganizations.inc({ result: 'failed' }, counts.failed);
        billingOrganizations.inc({ result: 'already_billed' }, counts.alreadyBilled);
      },
      paymentAttemptSettled: (purpose, outcome) => paymentAttempts.inc({ purpose, outcome }),
      paymentAttemptUnconfirmed: (purpose) => unconfirmedPayments.inc({ purpose }),
    } satisfies PortalMetrics);
  },
  { name: 'metrics', dependencies: ['database', 'job-queue', 'authenticate'] },
);
