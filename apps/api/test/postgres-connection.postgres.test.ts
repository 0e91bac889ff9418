import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { createScratchDatabase } from './scratch-database.ts';

// The api project includes this file only when TEST_DATABASE_URL is set (vitest.config.ts).
const serverUrl = process.env.TEST_DATABASE_URL ?? '';

// Only meaningful against a PostgreSQL server; the embedded database has no connections to lose.
describe('the PostgreSQL connection pool', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('survives the server ending its idle connections and reconnects on the next query', async () => {
    const scratch = await createScratchDatabase(serverUrl, 'portal_test');
    cleanups.push(() => scratch.drop());
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
    cleanups.push(() => database.close());
    const pool = database.pool!;
    await pool.query('select 1');
    expect(pool.idleCount).toBeGreaterThan(0);

    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [new URL(scratch.url).pathname.slice(1)],
      );
    } finally {
      await admin.end();
    }
    await vi.waitFor(() => expect(pool.totalCount).toBe(0));

    const { rows } = await pool.query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
  });
});
