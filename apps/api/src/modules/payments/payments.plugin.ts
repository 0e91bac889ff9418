import fp from 'fastify-plugin';
import { sendReceipts } from './payments.jobs.ts';
import { paymentsService, type PaymentsService } from './payments.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentsService;
  }
}

/**
 * `app.payments`: the payments service, built once for the card routes, the Stripe webhook and the
 * reconciliation; its successful payments are followed by their receipts.
 */
export const paymentsPlugin = fp(
  async (app) => {
    const db = app.database.db;
    app.decorate(
      'payments',
      paymentsService({
        db,
        gateway: app.paymentGateway,
        ledger: app.ledger,
        cardAttemptLimits: app.config.cardAttemptLimits,
        metrics: app.metrics,
        onPaymentSucceeded: (attempt) => sendReceipts(db, app.jobQueue, attempt),
      }),
    );
  },
  {
    name: 'payments',
    dependencies: ['config', 'database', 'job-queue', 'metrics', 'payment-gateway', 'ledger'],
  },
);
