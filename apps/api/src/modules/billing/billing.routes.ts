import {
  ContractsResponseSchema,
  ListTransactionsQuerySchema,
  ListTransactionsResponseSchema,
  PaymentSummarySchema,
  SearchTransactionsRequestSchema,
  SearchTransactionsResponseSchema,
  TransactionDetailParamsSchema,
  TransactionDetailResponseSchema,
  TransactionIdParamsSchema,
  TransactionSchema,
  UsagesResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { billingService } from './billing.service.ts';

function serviceOf(app: FastifyInstance) {
  return billingService({ db: app.database.db, productName: app.config.productName });
}

/** /api/v1/transactions: the organisation's ledger, its invoices and what they come to (VIEW_BILLING). */
export async function transactionsRoutes(app: FastifyInstance) {
  const service = serviceOf(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before body validation: a caller without a session learns 401, not what a valid body looks like.
  r.addHook('onRequest', app.authenticate);

  r.get(
    '/',
    {
      schema: { querystring: ListTransactionsQuerySchema, response: { 200: ListTransactionsResponseSchema } },
    },
    async (request) => service.list(requireSessionUser(request), request.query),
  );

  r.post(
    '/search',
    {
      schema: { body: SearchTransactionsRequestSchema, response: { 200: SearchTransactionsResponseSchema } },
    },
    async (request) => service.search(requireSessionUser(request), request.body),
  );

  r.get(
    '/:id',
    { schema: { params: TransactionIdParamsSchema, response: { 200: TransactionSchema } } },
    async (request) => service.get(requireSessionUser(request), request.params.id),
  );

  r.get(
    '/:id/details/:invoiceType',
    { schema: { params: TransactionDetailParamsSchema, response: { 200: TransactionDetailResponseSchema } } },
    async (request) =>
      service.detail(requireSessionUser(request), request.params.id, request.params.invoiceType),
  );

  r.get(
    '/:id/payment-summary',
    { schema: { params: TransactionIdParamsSchema, response: { 200: PaymentSummarySchema } } },
    async (request) => service.paymentSummary(requireSessionUser(request), request.params.id),
  );
}

/** /api/v1/accounts/usages and /contracts: the plan and licence usage page (VIEW_PLAN_DETAIL). */
export async function planUsageRoutes(app: FastifyInstance) {
  const service = serviceOf(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);

  r.get('/usages', { schema: { response: { 200: UsagesResponseSchema } } }, async (request) =>
    service.usages(requireSessionUser(request)),
  );

  r.get('/contracts', { schema: { response: { 200: ContractsResponseSchema } } }, async (request) =>
    service.contracts(requireSessionUser(request)),
  );
}
