import { ApiErrorSchema } from '@portal/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isSameSecret } from '../../auth/secret.ts';
import { AppError } from '../../errors.ts';
import { withinMs } from '../../http/deadline.ts';

/** How long readiness waits for each part before it calls that part unreachable. */
export const READINESS_TIMEOUT_MS = 3000;

const HealthSchema = z.object({ status: z.literal('ok') });

/** Whether `check` answers within the readiness timeout. */
async function answers(check: () => Promise<unknown>): Promise<boolean> {
  const answered = check().then(
    () => true,
    () => false,
  );
  return (await withinMs(answered, READINESS_TIMEOUT_MS)) ?? false;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * A request from this machine that no proxy forwarded: a proxy on this machine not named in
 * TRUST_PROXY would otherwise make every client it forwards look local.
 */
function isLocal(request: FastifyRequest): boolean {
  const { headers } = request;
  return (
    LOOPBACK.test(request.ip) && headers['x-forwarded-for'] === undefined && headers.forwarded === undefined
  );
}

/**
 * What load balancers and operators ask the server: whether it lives (/healthz, and /api/health as
 * it always answered), whether it can serve (/readyz: the database and the job queue answer), and
 * its metrics (/metrics, Prometheus's text format, to METRICS_TOKEN or from this machine). None needs
 * a session, none is rate limited.
 */
export async function operationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config, database, jobQueue, metrics } = app;

  const alive = async () => ({ status: 'ok' as const });
  r.get('/healthz', { schema: { response: { 200: HealthSchema } } }, alive);
  r.get('/api/health', { schema: { response: { 200: HealthSchema } } }, alive);

  r.get(
    '/readyz',
    { schema: { response: { 200: HealthSchema, 503: ApiErrorSchema } } },
    async (_request, reply) => {
      // The job queue lives in the same database: when the database is down, that is the part to name.
      const unreachable = !(await answers(() => database.query({ name: 'readiness', text: 'select 1' }, [])))
        ? 'database'
        : !(await answers(() => jobQueue.boss.getQueues()))
          ? 'job queue'
          : undefined;
      if (!unreachable) return { status: 'ok' as const };
      reply.header('cache-control', 'no-store');
      throw new AppError('NOT_READY', { message: `${unreachable} unreachable` });
    },
  );

  r.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const presented = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    const tokenAccepted =
      config.metricsToken !== undefined &&
      presented !== undefined &&
      isSameSecret(presented, config.metricsToken);
    if (!tokenAccepted && !isLocal(request)) {
      if (config.metricsToken === undefined) {
        throw new AppError('FORBIDDEN', {
          message:
            'Metrics are served to this machine only; set METRICS_TOKEN to scrape them from elsewhere.',
        });
      }
      throw new AppError('UNAUTHORIZED', { message: 'The metrics token is missing or wrong.' });
    }
    reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store');
    return metrics.registry.metrics();
  });
}
