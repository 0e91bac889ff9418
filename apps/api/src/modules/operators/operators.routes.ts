import {
  CreateMiscellaneousChargeRequestSchema,
  CreateMiscellaneousChargeResponseSchema,
  GrantCreditRequestSchema,
  GrantCreditResponseSchema,
  ImportUsageRequestSchema,
  ImportUsageResponseSchema,
  ListOperatorOrganizationsQuerySchema,
  ListOperatorOrganizationsResponseSchema,
  OperatorChargeParamsSchema,
  OperatorOrganizationParamsSchema,
  OperatorOrganizationSchema,
  ResetTwoFactorRequestSchema,
  ResetTwoFactorResponseSchema,
  RunBillingRequestSchema,
  RunBillingResponseSchema,
  SetBillingCountryRequestSchema,
  SetContractRequestSchema,
  SetFreeCreditRequestSchema,
  SetLimitsRequestSchema,
  SetStatusRequestSchema,
  VoidMiscellaneousChargeRequestSchema,
  VoidMiscellaneousChargeResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isSameSecret } from '../../auth/secret.ts';
import { AppError } from '../../errors.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { operatorToken } from './operator-token.ts';
import { operatorsService } from './operators.service.ts';

/**
 * /api/operator/v1: running the business (organisations' contracts, limits, status, billing country,
 * credit, miscellaneous charges raised and voided, the usage import, the monthly billing, a person's
 * lost second factor) for the operator CLI. The credential is the operator token as a bearer, never
 * a member's session: no role of an organisation reaches these routes.
 */
export async function operatorsRoutes(app: FastifyInstance) {
  const service = operatorsService({
    db: app.database.db,
    regions: app.regions,
    jobQueue: app.jobQueue,
    ledger: app.ledger,
    monthlyRun: app.billing.monthlyRun,
    afterUsageImport: (cycle, organizationIds) => app.usageAlerts.afterUsageImport(cycle, organizationIds),
  });
  const token = operatorToken(app.config);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before body validation: a caller without the token learns 401, not what a valid body looks like.
  r.addHook('onRequest', async (request) => {
    const presented = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    if (!presented || !isSameSecret(presented, token)) {
      throw new AppError('UNAUTHORIZED', { message: 'The operator token is missing or wrong.' });
    }
  });

  const params = OperatorOrganizationParamsSchema;
  const organization = { 200: OperatorOrganizationSchema };

  r.get(
    '/organizations',
    {
      schema: {
        querystring: ListOperatorOrganizationsQuerySchema,
        response: { 200: ListOperatorOrganizationsResponseSchema },
      },
    },
    async (request) => service.list(request.query),
  );

  r.get('/organizations/:organization', { schema: { params, response: organization } }, async (request) =>
    service.get(request.params.organization),
  );

  r.put(
    '/organizations/:organization/contract',
    { schema: { params, body: SetContractRequestSchema, response: organization } },
    async (request) => service.setContract(request.params.organization, request.body, requestOrigin(request)),
  );

  r.put(
    '/organizations/:organization/limits',
    { schema: { params, body: SetLimitsRequestSchema, response: organization } },
    async (request) => service.setLimits(request.params.organization, request.body, requestOrigin(request)),
  );

  r.put(
    '/organizations/:organization/status',
    { schema: { params, body: SetStatusRequestSchema, response: organization } },
    async (request) => service.setStatus(request.params.organization, request.body, requestOrigin(request)),
  );

  r.put(
    '/organizations/:organization/billing-country',
    { schema: { params, body: SetBillingCountryRequestSchema, response: organization } },
    async (request) =>
      service.setBillingCountry(request.params.organization, request.body, requestOrigin(request)),
  );

  r.put(
    '/organizations/:organization/free-credit',
    { schema: { params, body: SetFreeCreditRequestSchema, response: organization } },
    async (request) =>
      service.setFreeCredit(request.params.organization, request.body, requestOrigin(request)),
  );

  r.post(
    '/organizations/:organization/credits',
    {
      schema: {
        params,
        body: GrantCreditRequestSchema,
        response: { 200: GrantCreditResponseSchema, 201: GrantCreditResponseSchema },
      },
    },
    async (request, reply) => {
      const grant = await service.grantCredit(
        request.params.organization,
        request.body,
        requestOrigin(request),
      );
      // A repeat with the same idempotency key created nothing.
      return reply.status(grant.alreadyGranted ? 200 : 201).send(grant);
    },
  );

  r.post(
    '/organizations/:organization/charges',
    {
      schema: {
        params,
        body: CreateMiscellaneousChargeRequestSchema,
        response: {
          200: CreateMiscellaneousChargeResponseSchema,
          201: CreateMiscellaneousChargeResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const charge = await service.createMiscellaneousCharge(
        request.params.organization,
        request.body,
        requestOrigin(request),
      );
      // A repeat with the same idempotency key created nothing.
      return reply.status(charge.alreadyCreated ? 200 : 201).send(charge);
    },
  );

  r.post(
    '/organizations/:organization/charges/:transactionId/void',
    {
      schema: {
        params: OperatorChargeParamsSchema,
        body: VoidMiscellaneousChargeRequestSchema,
        response: { 200: VoidMiscellaneousChargeResponseSchema },
      },
    },
    async (request) =>
      service.voidMiscellaneousCharge(
        request.params.organization,
        request.params.transactionId,
        request.body,
        requestOrigin(request),
      ),
  );

  r.post(
    '/usage-imports',
    { schema: { body: ImportUsageRequestSchema, response: { 200: ImportUsageResponseSchema } } },
    async (request) => service.importUsage(request.body),
  );

  r.post(
    '/billing-runs',
    { schema: { body: RunBillingRequestSchema, response: { 200: RunBillingResponseSchema } } },
    async (request) => service.runBilling(request.body),
  );

  r.post(
    '/two-factor-resets',
    {
      schema: { body: ResetTwoFactorRequestSchema, response: { 200: ResetTwoFactorResponseSchema } },
    },
    async (request) => {
      const reset = await service.resetTwoFactor(request.body, requestOrigin(request));
      // Kept in the log: no member sees this action in the portal.
      request.log.info(
        { email: reset.email, organizationId: reset.organizationId, hadSecondFactor: reset.hadSecondFactor },
        'operator removed the second factor and ended the sessions of a user',
      );
      return reset;
    },
  );
}
