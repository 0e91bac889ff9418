import crypto from 'node:crypto';
import { setImmediate, setTimeout } from 'node:timers/promises';
import fp from 'fastify-plugin';
import PgBoss from 'pg-boss';
import { isDatabaseUnavailable, type Database } from '../db/client.ts';
import { withStartupLock } from '../db/startup-lock.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobQueue: JobQueue;
  }
}

/** What a module runs on the queue (`<module>.jobs.ts`), started and stopped with the server. */
/**
 * A job id from what the job is about (pg-boss ids are UUIDs), so the same work sent twice is one
 * job while that job is kept.
 */
export function jobIdOf(...parts: string[]): string {
  const hex = crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface JobWorkers {
  /** Runs once pg-boss has started, when the server is ready: creates the module's queues and works them. */
  start(): Promise<void>;
  /** Runs when the server closes, after the schedules end and before pg-boss stops; closing waits for what it answers. */
  stop?(): void | Promise<void>;
  /** How long closing waits for the module's running jobs; jobs not yet started wait for the next start. */
  finishWithinMs: number;
}

export interface JobQueue {
  /** pg-boss itself, for what workers do with their queues besides working and sending. */
  readonly boss: PgBoss;
  addWorkers(workers: JobWorkers): void;
  /**
   * Creates a queue with these settings, or brings an existing one to them: pg-boss's createQueue
   * keeps an existing queue's settings, so a version that changes them would not take effect.
   */
  defineQueue(queue: PgBoss.Queue): Promise<void>;
  /** One worker on a queue (pg-boss 10 gives it one job at a time); several calls run several. */
  work<T>(queue: string, options: PgBoss.WorkOptions, handler: PgBoss.WorkHandler<T>): Promise<void>;
  /** Sends a job and wakes this server's workers of its queue at once, instead of at their next poll. */
  send(queue: string, data: object, options: PgBoss.SendOptions): Promise<void>;
  /**
   * Sends a job unless one with its id is queued, running or archived (pg-boss keeps archived jobs
   * for 7 days, longer than the schedules' windows), so it is sent once however often this is asked.
   */
  sendOnce(queue: string, data: object, id: string): Promise<void>;
  /**
   * Runs `work` every `everyMs` on this server until it closes, without keeping the process alive: a
   * round that fails is logged under the schedule's name, and the next round retries.
   */
  schedule(name: string, everyMs: number, work: () => Promise<unknown>): void;
  /** Runs of jobs this server's handlers failed since it started, by queue (the metrics). */
  readonly failures: ReadonlyMap<string, number>;
}

/**
 * What pg-boss gets for a write dropped after the queue closed: no rows, which its job fetch reads
 * as no job and its complete/fail as nothing affected.
 */
const DROPPED_WRITE = {} as { rows: unknown[] };

/**
 * The statements with which pg-boss 10 records a job's end, which it sends without awaiting them
 * (Manager.work's complete and fail by id).
 */
const RECORDS_JOB_END = [
  /UPDATE \S+\.job\s+SET completed_on = now\(\),\s+state = 'completed'/,
  /WHERE name = \$1 AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\) AND state < 'completed'/,
];

/**
 * pg-boss runs on the portal's own database. On PGlite it goes through the `db` executor:
 * statements with parameters go to `query`, parameterless scripts (pg-boss's migrations and
 * locking blocks hold several statements) must go to `exec`, which answers one result per
 * statement; the last one carries the rows pg-boss reads. On PostgreSQL it shares the pool.
 */
function executorFor(database: Database): PgBoss.Db {
  const { pglite, pool } = database;
  if (pglite) {
    return {
      async executeSql(text: string, values: unknown[] = []) {
        if (values.length === 0) {
          const results = await pglite.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        return pglite.query(text, values);
      },
    };
  }
  if (pool) return { executeSql: (text: string, values: unknown[] = []) => pool.query(text, values) };
  throw new Error('The database has neither a PGlite instance nor a pool for the job queue.');
}

/**
 * The job queue (pg-boss) on the portal's database, so that several servers share the work. It
 * starts when the server is ready, then the modules' workers; it stops before the database closes.
 */
export const jobQueuePlugin = fp(
  async (app) => {
    const executor = executorFor(app.database);
    let closed = false;
    const boss = new PgBoss({
      // pg-boss records a job's end without awaiting it: a handler ending after the queue closed
      // would make that write an unhandled rejection on a closed database. Once closed, its writes
      // are dropped; a job left unrecorded so is retried after its expiry, as after a crash. For the
      // same reason a job's end that the database does not take (it is restarting, or the queue's
      // tables are out of reach) is dropped too, instead of ending the process.
      db: {
        executeSql: (text: string, values: unknown[] = []) => {
          if (closed) return Promise.resolve(DROPPED_WRITE);
          const written = executor.executeSql(text, values);
          if (!RECORDS_JOB_END.some((statement) => statement.test(text))) return written;
          return written.catch((error: unknown) => {
            // An away database is expected during a restart; anything else is worth an operator's look.
            const level = isDatabaseUnavailable(error) ? 'warn' : 'error';
            app.log[level]({ err: error }, "a job's end was not recorded: the job runs again after its expiry");
            return DROPPED_WRITE;
          });
        },
      },
      // The portal schedules nothing by cron yet; maintenance (archiving, expiry) stays on.
      schedule: false,
      // Maintenance fails (and so retries) jobs past their expiry, which is how a job held by a
      // server that died comes back; every 15 s instead of 2 min keeps that recovery short.
      maintenanceIntervalSeconds: 15,
    });
    boss.on('error', (error) => app.log.error({ err: error }, 'job queue error'));
    const modules: JobWorkers[] = [];
    const workerIds = new Map<string, string[]>();
    /** Handlers under way, so the database closes only after they (and pg-boss's record of them) end. */
    const running = new Set<Promise<unknown>>();
    const failures = new Map<string, number>();
    const schedules: NodeJS.Timeout[] = [];

    const send: JobQueue['send'] = async (queue, data, options) => {
      await boss.send(queue, data, options);
      for (const workerId of workerIds.get(queue) ?? []) boss.notifyWorker(workerId);
    };

    app.decorate('jobQueue', {
      boss,
      addWorkers(workers) {
        modules.push(workers);
      },
      async defineQueue(queue) {
        await boss.createQueue(queue.name, queue);
        await boss.updateQueue(queue.name, queue);
      },
      async work<T>(queue: string, options: PgBoss.WorkOptions, handler: PgBoss.WorkHandler<T>) {
        const workerId = await boss.work<T>(queue, options, (jobs) => {
          const run = handler(jobs);
          running.add(run);
          run.then(
            () => running.delete(run),
            () => {
              running.delete(run);
              failures.set(queue, (failures.get(queue) ?? 0) + 1);
            },
          );
          return run;
        });
        workerIds.set(queue, [...(workerIds.get(queue) ?? []), workerId]);
      },
      send,
      async sendOnce(queue, data, id) {
        if (await boss.getJobById(queue, id, { includeArchive: true })) return;
        await send(queue, data, { id });
      },
      schedule(name, everyMs, work) {
        const timer = setInterval(() => {
          work().catch((error: unknown) => {
            app.log.error({ err: error, schedule: name }, `${name} schedule failed; the next round retries`);
          });
        }, everyMs);
        timer.unref();
        schedules.push(timer);
      },
      failures,
    } satisfies JobQueue);

    app.addHook('onReady', async () => {
      // Instances starting at once on one database would create pg-boss's schema and queues (DDL)
      // together, which fails or deadlocks: they take turns.
      const start = async () => {
        await boss.start();
        for (const workers of modules) await workers.start();
      };
      const { pool } = app.database;
      await (pool ? withStartupLock(pool, 'job-queue', start) : start());
    });
    app.addHook('onClose', async () => {
      for (const timer of schedules) clearInterval(timer);
      for (const workers of modules) await workers.stop?.();
      const timeout = Math.max(0, ...modules.map((workers) => workers.finishWithinMs));
      await boss.stop({ graceful: true, wait: true, timeout });
      // A handler slower than that is still running: it is waited for (a job cut off here is retried
      // after its expiry anyway), then pg-boss's record of its end gets a turn before the database
      // closes; otherwise that write hits a closed pool.
      await Promise.race([Promise.allSettled([...running]), setTimeout(timeout)]);
      await setImmediate();
      closed = true;
    });
  },
  { name: 'job-queue', dependencies: ['database'] },
);
