import { setTimeout } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { buildTestApp } from './helper.ts';

const QUEUE = 'shutdown-test';
/**
 * Longer than the longest time the modules' workers say they finish within (15 s with the region
 * poll at 0), after which pg-boss stops waiting for a handler and marks its job failed.
 */
const SLOW_HANDLER_MS = 17_000;

it('a job handler slower than the workers may take ends before the database closes', async () => {
  const testApp = await buildTestApp({ REGION_PROVISIONING_POLL_MS: '0' });
  const { app, database } = testApp;
  await app.ready();
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const outcome: { error?: unknown; finished: boolean } = { finished: false };
  await app.jobQueue.boss.createQueue(QUEUE);
  await app.jobQueue.work(QUEUE, {}, async () => {
    markStarted();
    await setTimeout(SLOW_HANDLER_MS);
    try {
      await database.db.execute(sql`select 1`);
      outcome.finished = true;
    } catch (error) {
      outcome.error = error;
    }
  });
  await app.jobQueue.boss.send(QUEUE, {});
  await started;

  // The server stops and its database closes right after, as at a deploy.
  await testApp.close();
  expect(outcome).toEqual({ finished: true });
}, 60_000);
