import fp from 'fastify-plugin';
import { ledgerService, type LedgerService } from './ledger.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ledger: LedgerService;
  }
}

/** `app.ledger`: the ledger's service, built once for the routes, jobs and operator API above it. */
export const ledgerPlugin = fp(
  async (app) => {
    app.decorate('ledger', ledgerService({ db: app.database.db, jobQueue: app.jobQueue }));
  },
  { name: 'ledger', dependencies: ['database', 'job-queue'] },
);
