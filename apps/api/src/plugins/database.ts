import fp from 'fastify-plugin';
import type { Database } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's database: `db` for queries, the driver underneath for the job queue and the regions. */
    database: Database;
  }
}

/**
 * The portal's database, opened by whoever builds the app. It closes it too (server.ts, the tests),
 * after the app: a second app may run on the same database, as a restarted server does in the tests.
 */
export const databasePlugin = fp<{ database: Database }>(
  async (app, { database }) => {
    app.decorate('database', database);
  },
  { name: 'database' },
);
