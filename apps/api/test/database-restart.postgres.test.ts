import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import {
  canStartThrowawayCluster,
  startThrowawayCluster,
  type ThrowawayCluster,
} from '../scale/throwaway-postgres.ts';
import { until } from '../scale/until.ts';
import { testConfig } from './fixtures.ts';
import { expectApiError, jsonRequest, setUpOrganization, signInRequest, type TestApp } from './helper.ts';
import { keptSessions } from './session-cache-support.ts';

/*
 * The portal on a PostgreSQL cluster of its own (initdb/pg_ctl in a temporary directory, never the
 * machine's server), which these tests stop, start and restart under it. The api project includes
 * this file only when TEST_DATABASE_URL is set (vitest.config.ts): it is part of the PostgreSQL run.
 */
const RECOVERY_BOUND_MS = 10_000;
const TEST_QUEUE = 'database-restart-test';
/** Jobs that end (done or failed) while the database is away, so pg-boss cannot record their end. */
const ENDS_UNRECORDED_QUEUE = 'database-restart-ends-unrecorded';

let cluster: ThrowawayCluster;
let dataDir: string;
const t = {} as TestApp;
const { me, lookupsDuring, untilKept, userIdOf } = keptSessions(t);
/** The test queue's jobs this server ran, by their data's label. */
const ranJobs = new Set<string>();
/** Runs of the jobs that end while the database is away, by their data's outcome. */
const endedRuns = new Map<string, number>();
/** Lets the runs that end while the database is away end, once it is. */
let letRunsEnd = () => {};
let runsMayEnd = Promise.resolve();
let owner: string;

async function onCluster<T>(use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: cluster.urlOf('portal') });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

const listening = () =>
  onCluster(async (admin) => {
    const { rows } = await admin.query<{ listening: number }>(
      `SELECT count(*)::int AS listening FROM pg_stat_activity WHERE query LIKE 'LISTEN %'`,
    );
    return rows[0]!.listening === 1;
  });

describe.skipIf(!canStartThrowawayCluster())('the portal through a PostgreSQL restart', () => {
  beforeAll(async () => {
    cluster = await startThrowawayCluster();
    const databaseUrl = await cluster.createDatabase('portal');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
    t.config = testConfig(dataDir);
    t.database = await openDatabase({ databaseUrl, dataDir: 'memory://' });
    t.app = await buildApp({ config: t.config, database: t.database });
    const { jobQueue } = t.app;
    jobQueue.addWorkers({
      start: async () => {
        await jobQueue.boss.createQueue(TEST_QUEUE);
        await jobQueue.work<{ label: string }>(TEST_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
          ranJobs.add(job!.data.label);
        });
        await jobQueue.boss.createQueue(ENDS_UNRECORDED_QUEUE);
        for (let worker = 0; worker < 2; worker += 1) {
          await jobQueue.work<{ outcome: string }>(
            ENDS_UNRECORDED_QUEUE,
            { pollingIntervalSeconds: 0.5 },
            async ([job]) => {
              const { outcome } = job!.data;
              const run = (endedRuns.get(outcome) ?? 0) + 1;
              endedRuns.set(outcome, run);
              if (run > 1) return;
              await runsMayEnd;
              if (outcome === 'failed') throw new Error('failed while the database was away');
            },
          );
        }
      },
      finishWithinMs: 1000,
    });
    await t.app.ready();
    owner = await setUpOrganization(t.app, 'owner@restart.example.com');
  }, 120_000);

  afterAll(async () => {
    await t.app?.close();
    await t.database?.close();
    await cluster?.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 SERVICE_UNAVAILABLE while the database is down, and again within 10 s of its return', async () => {
    await untilKept(owner);
    await cluster.stop();
    try {
      // The kept answers went with the listening connection: the session is read, and cannot be.
      expectApiError(await me(owner), 503, 'SERVICE_UNAVAILABLE');
      // A sign-in goes through better-auth, which answers the same.
      expectApiError(await signInRequest(t.app, 'owner@restart.example.com'), 503, 'SERVICE_UNAVAILABLE');
      expect((await me(owner)).headers['retry-after']).toBe('1');
    } finally {
      await cluster.start();
    }
    const recoveryMs = await until(
      'the account answering',
      RECOVERY_BOUND_MS,
      async () => (await me(owner)).statusCode === 200,
    );
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);
  });

  it('answers 503 to a request whose connection a fast shutdown ends under it (57P01)', async () => {
    await onCluster(async (admin) => {
      // The request waits on the lock, in flight, until its connection is ended. The application
      // list reads its table on every request, whereas /me may be answered from kept session
      // answers without a query (decision 027).
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE "application" IN ACCESS EXCLUSIVE MODE');
      const answer = t.app.inject(jsonRequest('GET', '/api/v1/applications?limit=10', undefined, owner));
      await until('the request waiting on the lock', 5000, async () => {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        return (rowCount ?? 0) > 0;
      });
      await admin.query('ROLLBACK');
      expectApiError(await answer, 503, 'SERVICE_UNAVAILABLE');
    });
    expect((await me(owner)).statusCode).toBe(200);
  });

  it('listens again after a restart, having dropped what it kept: a session ended meanwhile is refused', async () => {
    await untilKept(owner);
    const member = await setUpOrganization(t.app, 'member@restart.example.com');
    await untilKept(member);
    await cluster.stop();
    await cluster.start();
    // Ended while this server was not listening: no notice of it will ever come.
    await onCluster((admin) =>
      userIdOf('member@restart.example.com').then((userId) =>
        admin.query(`DELETE FROM "session" WHERE user_id = $1`, [userId]),
      ),
    );
    await until('the session cache listening again', RECOVERY_BOUND_MS, listening);
    expect((await me(member)).statusCode).toBe(401);
    // Answers are kept again, so the notices reach it.
    await untilKept(owner);
    expect(await lookupsDuring(() => me(owner))).toBe(0);
  });

  it('runs the jobs sent before and after a restart', async () => {
    const { jobQueue } = t.app;
    // Due a moment after the database goes away, so it is taken after the restart.
    await jobQueue.send(TEST_QUEUE, { label: 'before' }, { startAfter: 2 });
    await cluster.restart();
    await jobQueue.send(TEST_QUEUE, { label: 'after' }, {});
    await until('both jobs run', 30_000, async () => ranJobs.has('before') && ranJobs.has('after'));
  });

  it('survives jobs ending while the database is away, and runs them again after their expiry', async () => {
    const { jobQueue } = t.app;
    runsMayEnd = new Promise((resolve) => (letRunsEnd = resolve));
    const expiring = { expireInSeconds: 2, retryLimit: 3, retryDelay: 0 };
    await jobQueue.send(ENDS_UNRECORDED_QUEUE, { outcome: 'completed' }, expiring);
    await jobQueue.send(ENDS_UNRECORDED_QUEUE, { outcome: 'failed' }, expiring);
    await until('both jobs running', 10_000, async () => endedRuns.size === 2);
    await cluster.stop();
    // Both end now: pg-boss writes their end without waiting for it, and the write fails.
    letRunsEnd();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.start();
    // Their runs were not recorded, so they count as cut off: maintenance retries them.
    await until('both jobs run again', 60_000, async () =>
      ['completed', 'failed'].every((outcome) => (endedRuns.get(outcome) ?? 0) > 1),
    );
  }, 90_000);
});
