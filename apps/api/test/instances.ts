import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { testConfig } from './fixtures.ts';
import { createScratchDatabase } from './scratch-database.ts';

export interface PortalInstance {
  app: FastifyInstance;
  config: Config;
  database: Database;
}

/**
 * Several portal instances on one new PostgreSQL database (TEST_DATABASE_URL), as a deployment
 * behind a load balancer runs them: each with its own connection pool and its own data dir (as on
 * its own machine), all with the same environment (`adjust` changes what the environment cannot
 * express, such as leaving the test auth secret unset). Built before the file's first test and closed
 * (the database dropped) after its last; `env` is read then, so it may be a function.
 */
export function usePortalInstances(
  count: number,
  env: () => Record<string, string> = () => ({}),
  adjust: (config: Config) => Config = (config) => config,
) {
  const instances: PortalInstance[] = [];
  let drop: (() => Promise<void>) | undefined;
  const dataDirs: string[] = [];
  beforeAll(async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'portal_instances');
    drop = scratch.drop;
    const shared = env();
    // All at once, as a deployment starts them: the migrations and the job queue's schema are
    // installed by one while the others wait (startup-lock.ts).
    const built = await Promise.all(
      Array.from({ length: count }, async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-instance-'));
        dataDirs.push(dataDir);
        const config = adjust(testConfig(dataDir, { ...shared, DATABASE_URL: scratch.url }));
        const database = await openDatabase({ databaseUrl: scratch.url, dataDir });
        return { app: await buildApp({ config, database }), config, database };
      }),
    );
    instances.push(...built);
    // Listening starts the job queues and their schedules; ready() does the same without a port.
    await Promise.all(instances.map((instance) => instance.app.ready()));
  });
  afterAll(async () => {
    for (const instance of instances) {
      await instance.app.close();
      await instance.database.close();
    }
    await drop?.();
    for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return instances;
}
