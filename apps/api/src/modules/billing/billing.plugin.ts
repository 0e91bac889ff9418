import fp from 'fastify-plugin';
import { resolveAuthSecret } from '../../auth/secret.ts';
import { invoiceLinkKey, invoiceLinks } from './invoice-links.ts';
import { invoicesService } from './invoices.service.ts';
import { billingRunMetrics, monthlyRunService } from './monthly-run.service.ts';
import { planUsageService } from './plan-usage.service.ts';
import { transactionsService } from './transactions.service.ts';

/** Billing's services, one per job: the members' reads, the invoice PDF, plan usage and the monthly run. */
export interface Billing {
  transactions: ReturnType<typeof transactionsService>;
  invoices: ReturnType<typeof invoicesService>;
  planUsage: ReturnType<typeof planUsageService>;
  monthlyRun: ReturnType<typeof monthlyRunService>;
}

declare module 'fastify' {
  interface FastifyInstance {
    billing: Billing;
  }
}

/** `app.billing`: billing's services, built once for its routes, its jobs and the operator API. */
export const billingPlugin = fp(
  async (app) => {
    const { config } = app;
    const db = app.database.db;
    const links = invoiceLinks({
      key: invoiceLinkKey(resolveAuthSecret(config.authSecret, config.dataDir)),
      publicUrl: config.publicUrl,
    });
    app.decorate('billing', {
      transactions: transactionsService({ db, invoiceLinks: links }),
      invoices: invoicesService({
        db,
        productName: config.productName,
        links,
        sellerAddressLines: config.sellerAddressLines,
      }),
      planUsage: planUsageService({ db }),
      monthlyRun: monthlyRunService({
        db,
        productName: config.productName,
        onRunFinished: billingRunMetrics(app.metrics),
      }),
    } satisfies Billing);
  },
  { name: 'billing', dependencies: ['config', 'database', 'metrics', 'ledger'] },
);
