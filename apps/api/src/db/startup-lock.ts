import type pg from 'pg';

/** What instances starting at once on one PostgreSQL database take turns at. */
export type StartupStep = 'migrations' | 'job-queue' | 'embedded-stand-ins';

/**
 * Runs a start-up step (the migrations, installing the job queue's schema, the embedded region and
 * card sandbox tables) while holding a
 * PostgreSQL session lock of that name, so instances starting at once take turns: run together,
 * both would create the same schema objects and one would fail (decision 033). The lock is held by
 * one connection kept for it, while the step runs on any other; it ends with that connection.
 */
export async function withStartupLock<T>(
  pool: pg.Pool,
  step: StartupStep,
  run: () => Promise<T>,
): Promise<T> {
  const key = `portal start-up: ${step}`;
  const holder = await pool.connect();
  try {
    await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    try {
      return await run();
    } finally {
      await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
    }
  } finally {
    holder.release();
  }
}
