import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';

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

export function createBoss(database: Database, onError: (error: Error) => void): PgBoss {
  const boss = new PgBoss({
    db: executorFor(database),
    // The portal schedules nothing by cron yet; maintenance (archiving, expiry) stays on.
    schedule: false,
    // Maintenance fails (and so retries) jobs past their expiry, which is how a job held by a
    // server that died comes back; every 15 s instead of 2 min keeps that recovery short.
    maintenanceIntervalSeconds: 15,
  });
  boss.on('error', onError);
  return boss;
}
