import {
  AddPaymentProfileRequestSchema,
  AddPaymentProfileResponseSchema,
  DefaultPaymentProfileParamsSchema,
  PayTransactionRequestSchema,
  PayTransactionResponseSchema,
  PaymentGatewayConfigurationSchema,
  PaymentProfileParamsSchema,
  PaymentProfileSchema,
  PaymentProfilesResponseSchema,
  TopUpRequestSchema,
  TopUpResponseSchema,
  TransactionIdParamsSchema,
} from '@portal/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContentSchema } from '../../docs/no-content.ts';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { CardAttemptsLimitedError } from './card-attempts.ts';

/** A refusal by the card-attempt limits says when to try again. */
async function sayWhenToRetry(_request: FastifyRequest, reply: FastifyReply, error: Error) {
  if (error instanceof CardAttemptsLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
}

/**
 * /api/v1/accounts/payment-profiles, /payment-gateway and /topup: saved cards, what the browser needs
 * to collect a card, and topping up the prepaid balance (VIEW_BILLING).
 */
export async function accountPaymentsRoutes(app: FastifyInstance) {
  const service = app.payments;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);
  r.addHook('onError', sayWhenToRetry);

  r.get(
    '/payment-gateway',
    { schema: { response: { 200: PaymentGatewayConfigurationSchema } } },
    async (request) => service.gatewayConfiguration(requireSessionUser(request)),
  );

  r.get(
    '/payment-profiles',
    { schema: { response: { 200: PaymentProfilesResponseSchema } } },
    async (request) => service.listProfiles(requireSessionUser(request)),
  );

  r.post(
    '/payment-profiles',
    { schema: { body: AddPaymentProfileRequestSchema, response: { 201: AddPaymentProfileResponseSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.addProfile(requireSessionUser(request), request.body, requestOrigin(request))),
  );

  r.delete(
    '/payment-profiles/:id',
    { schema: { params: PaymentProfileParamsSchema, response: { 204: NoContentSchema } } },
    async (request, reply) => {
      await service.removeProfile(requireSessionUser(request), requestOrigin(request), request.params.id);
      return reply.status(204).send();
    },
  );

  r.put(
    '/payment-profiles/:profileId/default',
    { schema: { params: DefaultPaymentProfileParamsSchema, response: { 200: PaymentProfileSchema } } },
    async (request) =>
      service.setDefaultProfile(
        requireSessionUser(request),
        requestOrigin(request),
        request.params.profileId,
      ),
  );

  r.post(
    '/topup',
    { schema: { body: TopUpRequestSchema, response: { 201: TopUpResponseSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.topUp(requireSessionUser(request), request.body, requestOrigin(request))),
  );
}

/** POST /api/v1/transactions/{id}/pay: pays an open service charge, its invoice, by card (VIEW_BILLING). */
export async function transactionPaymentsRoutes(app: FastifyInstance) {
  const service = app.payments;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);
  r.addHook('onError', sayWhenToRetry);

  r.post(
    '/:id/pay',
    {
      schema: {
        params: TransactionIdParamsSchema,
        body: PayTransactionRequestSchema,
        response: { 200: PayTransactionResponseSchema },
      },
    },
    async (request) =>
      service.payTransaction(
        requireSessionUser(request),
        request.params.id,
        request.body,
        requestOrigin(request),
      ),
  );
}
