import pg from 'pg';
import { expect, it } from 'vitest';
import { expectApiError, useTestApp } from './helper.ts';

/*
 * /readyz while PostgreSQL refuses the portal's connections (as during a restart), and once it takes
 * them again: the load balancer stops and resumes sending traffic without the server restarting.
 */
const t = useTestApp();

/** Runs statements on the test server's maintenance database, outside the portal's pool. */
async function onServer(statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await client.query(statement, values);
  } finally {
    await client.end();
  }
}

it('answers 503 naming the database while it refuses connections, and 200 once it takes them again', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  const name = new URL(t.database.pool!.options.connectionString!).pathname.slice(1);
  await onServer(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  try {
    await onServer('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(expectApiError(response, 503, 'NOT_READY').message).toBe('database unreachable');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  } finally {
    await onServer(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
  }
  expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
}, 60_000);
