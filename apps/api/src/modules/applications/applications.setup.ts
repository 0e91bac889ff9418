import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createBoss } from '../../jobs/job-queue.ts';
import { ProvisioningQueue } from '../../jobs/provision-application.ts';
import { portalFetch, regionAdminToken } from '../../regions/embedded-regions.ts';
import { RegionClient } from '../../regions/region-client.ts';
import { applicationsRoutes } from './applications.routes.ts';

/**
 * Mounts /api/v1/applications and runs the provisioning worker with the server: the job queue
 * starts when the server is ready and stops before the database closes.
 */
export async function registerApplications(
  app: FastifyInstance,
  deps: {
    config: Config;
    database: Database;
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  },
) {
  const { config, database } = deps;
  const { db } = database;
  const regions = new RegionClient({
    baseUrls: config.regionUrls,
    adminToken: regionAdminToken(config),
    fetch: portalFetch(app, config.publicUrl),
  });
  const boss = createBoss(database, (error) => app.log.error({ err: error }, 'job queue error'));
  const provisioning = new ProvisioningQueue(boss, {
    db,
    regions,
    pollMs: config.regionProvisioningPollMs,
    retryDelaySeconds: config.provisioningRetryDelaySeconds,
    retryLimit: config.provisioningRetryLimit,
    // Only one process can open an embedded database (data-dir-lock), so it works the queue alone.
    soleWorker: database.kind === 'pglite',
    log: app.log,
  });
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await boss.start();
    await provisioning.start();
    sweep = setInterval(() => {
      provisioning.requeueStalled().catch((error: unknown) => {
        app.log.error({ err: error }, 'provisioning sweep failed; the next one retries');
      });
    }, config.provisioningSweepSeconds * 1000);
    sweep.unref();
  });
  // Running attempts finish (bounded by the poll time); the rest wait in the queue for the next start.
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await boss.stop({ graceful: true, wait: true, timeout: config.regionProvisioningPollMs + 15_000 });
  });
  const routes = applicationsRoutes({
    db,
    regions,
    productName: config.productName,
    authenticate: deps.authenticate,
    // The app row is already stored: a failed enqueue is logged, and the sweep (at start and every
    // PROVISIONING_SWEEP_SECONDS) enqueues applications left initializing without a job.
    enqueueProvisioning: (applicationId: string) =>
      provisioning.enqueue(applicationId).catch((error: unknown) => {
        app.log.error({ err: error, applicationId }, 'could not enqueue provisioning');
      }),
  });
  await app.register(routes, { prefix: '/api/v1/applications' });
}
