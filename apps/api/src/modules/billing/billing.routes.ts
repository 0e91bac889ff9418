import {
  InvoiceLinkQuerySchema,
  ContractsResponseSchema,
  ListTransactionsQuerySchema,
  ListTransactionsResponseSchema,
  MonthlyUsagesResponseSchema,
  PaymentSummarySchema,
  SearchTransactionsRequestSchema,
  SearchTransactionsResponseSchema,
  TransactionDetailParamsSchema,
  TransactionDetailResponseSchema,
  TransactionIdParamsSchema,
  TransactionReportResponseSchema,
  TransactionSchema,
  UsagesResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { invoiceLinkRefusal } from './invoice-links.ts';

const InvoicePdfSchema = z
  .custom<Buffer>((value) => Buffer.isBuffer(value))
  .meta({ type: 'string', format: 'binary', description: 'The invoice PDF' });
const RefusalPageSchema = z.string().describe('A page saying the link is not valid or has expired');

/** /api/v1/transactions: the organisation's transactions, their invoices and what they come to (VIEW_BILLING). */
export async function transactionsRoutes(app: FastifyInstance) {
  const service = app.billing.transactions;
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

  r.get(
    '/:id/report',
    { schema: { params: TransactionIdParamsSchema, response: { 200: TransactionReportResponseSchema } } },
    async (request) => service.report(requireSessionUser(request), request.params.id),
  );
}

/**
 * /api/v1/invoices/{id}.pdf: the invoice PDF behind a signed link from the report endpoint, opened
 * in a new tab without a session; a refused link answers a page for the person who opened it.
 */
export async function invoicesRoutes(app: FastifyInstance) {
  const service = app.billing.invoices;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/:id.pdf',
    {
      schema: {
        params: TransactionIdParamsSchema,
        querystring: InvoiceLinkQuerySchema,
        response: {
          200: { content: { 'application/pdf': { schema: InvoicePdfSchema } } },
          403: { content: { 'text/html': { schema: RefusalPageSchema } } },
          410: { content: { 'text/html': { schema: RefusalPageSchema } } },
        },
      },
      // A link cut short or edited by hand is refused with the same page as a wrong signature.
      attachValidation: true,
    },
    async (request, reply) => {
      const download = request.validationError
        ? { refused: 'invalid' as const }
        : await service.invoicePdf(request.params.id, request.query);
      if ('refused' in download) {
        const { status, page } = invoiceLinkRefusal(download.refused);
        return reply
          .status(status)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(page);
      }
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${download.fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(download.pdf);
    },
  );
}

/**
 * /api/v1/accounts/usages, /usages/monthly and /contracts: the plan and licence usage page
 * (VIEW_PLAN_DETAIL).
 */
export async function planUsageRoutes(app: FastifyInstance) {
  const service = app.billing.planUsage;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);

  r.get('/usages', { schema: { response: { 200: UsagesResponseSchema } } }, async (request) =>
    service.usages(requireSessionUser(request)),
  );

  r.get('/contracts', { schema: { response: { 200: ContractsResponseSchema } } }, async (request) =>
    service.contracts(requireSessionUser(request)),
  );

  r.get('/usages/monthly', { schema: { response: { 200: MonthlyUsagesResponseSchema } } }, async (request) =>
    service.monthlyUsages(requireSessionUser(request)),
  );
}
