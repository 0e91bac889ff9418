import { setTimeout } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { jobIdOf } from '../src/plugins/job-queue.ts';
import { buildTestApp } from './helper.ts';

/** Short enough for many rounds in a test, long enough not to busy the machine. */
const EVERY_MS = 25;

it('schedule runs its work each round, logs a failed round and runs the next, and stops when the server closes', async () => {
  const testApp = await buildTestApp({});
  const { app } = testApp;
  await app.ready();
  const logged: unknown[] = [];
  const logError = app.log.error.bind(app.log);
  app.log.error = ((...args: Parameters<typeof logError>) => {
    logged.push(args[0]);
    return logError(...args);
  }) as typeof app.log.error;

  let rounds = 0;
  let reachedFourRounds!: () => void;
  const fourRounds = new Promise<void>((resolve) => (reachedFourRounds = resolve));
  app.jobQueue.schedule('test round', EVERY_MS, async () => {
    rounds += 1;
    if (rounds === 4) reachedFourRounds();
    // The second round fails: the schedule goes on.
    if (rounds === 2) throw new Error('round two failed');
  });
  await fourRounds;
  expect(logged).toContainEqual(expect.objectContaining({ schedule: 'test round' }));

  await testApp.close();
  const roundsAtClose = rounds;
  // Several intervals after closing, no further round has run.
  await setTimeout(EVERY_MS * 8);
  expect(rounds).toBe(roundsAtClose);
}, 60_000);

it('sendOnce sends a job id once, however often it is asked, also after the job has run and been archived', async () => {
  const testApp = await buildTestApp({});
  const { app, database } = testApp;
  await app.ready();
  const queue = 'send-once-test';
  await app.jobQueue.boss.createQueue(queue);
  const worked: unknown[] = [];
  await app.jobQueue.work<{ n: number }>(queue, {}, async ([job]) => {
    worked.push(job!.data);
  });
  const id = jobIdOf(queue, '2026-11');
  await app.jobQueue.sendOnce(queue, { n: 1 }, id);
  await app.jobQueue.sendOnce(queue, { n: 2 }, id);
  await expect
    .poll(async () => (await app.jobQueue.boss.getJobById(queue, id))?.state, { timeout: 30_000 })
    .toBe('completed');

  // pg-boss's maintenance moves a completed job to its archive after a while (12 hours by
  // default), which frees its id in the job table: done here at once, as maintenance does it.
  await database.db.execute(sql`
    with archived as (delete from pgboss.job where name = ${queue} and id = ${id} returning *)
    insert into pgboss.archive (id, name, priority, data, state, retry_limit, retry_count, retry_delay,
      retry_backoff, start_after, started_on, singleton_key, singleton_on, expire_in, created_on,
      completed_on, keep_until, dead_letter, policy, output)
    select id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff,
      start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on,
      keep_until, dead_letter, policy, output from archived`);
  expect(await app.jobQueue.boss.getJobById(queue, id)).toBeNull();

  await app.jobQueue.sendOnce(queue, { n: 3 }, id);
  expect(await app.jobQueue.boss.getJobById(queue, id)).toBeNull();
  expect(worked).toEqual([{ n: 1 }]);
  await testApp.close();
}, 60_000);

it("drops a job's end that the database refuses (the queue's tables out of reach) instead of ending the process, and logs it", async () => {
  const testApp = await buildTestApp({});
  const { app, database } = testApp;
  await app.ready();
  const queue = 'end-refused-test';
  await app.jobQueue.boss.createQueue(queue);
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let letEnd!: () => void;
  const mayEnd = new Promise<void>((resolve) => (letEnd = resolve));
  await app.jobQueue.work(queue, {}, async () => {
    markStarted();
    await mayEnd;
  });
  let markLogged!: (entry: unknown) => void;
  const endNotRecorded = new Promise<unknown>((resolve) => (markLogged = resolve));
  const logError = app.log.error.bind(app.log);
  app.log.error = ((...args: Parameters<typeof logError>) => {
    if (typeof args[1] === 'string' && args[1].startsWith("a job's end was not recorded"))
      markLogged(args[0]);
    return logError(...args);
  }) as typeof app.log.error;

  await app.jobQueue.send(queue, {}, {});
  await started;
  await database.db.execute(sql`alter schema pgboss rename to pgboss_away`);
  try {
    letEnd();
    // Without the drop, this write's rejection is unhandled, which fails the run (and ends a server).
    expect(await endNotRecorded).toMatchObject({ err: expect.anything() });
  } finally {
    await database.db.execute(sql`alter schema pgboss_away rename to pgboss`);
  }
  await testApp.close();
}, 60_000);

it('defineQueue creates a queue, and brings an existing one to the settings of a newer version', async () => {
  const testApp = await buildTestApp({});
  const { app } = testApp;
  await app.ready();
  const name = 'define-queue-test';
  await app.jobQueue.defineQueue({ name, retryLimit: 1, expireInSeconds: 60 });
  expect(await app.jobQueue.boss.getQueue(name)).toMatchObject({ retryLimit: 1, expireInSeconds: 60 });
  await app.jobQueue.defineQueue({ name, retryLimit: 3, expireInSeconds: 120 });
  expect(await app.jobQueue.boss.getQueue(name)).toMatchObject({ retryLimit: 3, expireInSeconds: 120 });
  await testApp.close();
}, 60_000);
