import {
  AccountSchema,
  BillingCountryLockSchema,
  FreeCreditTiersResponseSchema,
  InitialSetupRequestSchema,
  UpdateOrganizationSecurityRequestSchema,
  TaxRatesResponseSchema,
  UpdateAccountRequestSchema,
  UpdateTourRequestSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { accountsService } from './accounts.service.ts';

const AccountUpdateBodySchema = z
  .union([
    InitialSetupRequestSchema.meta({ title: 'Organisation setup (before setup is done; super-admin)' }),
    UpdateAccountRequestSchema.meta({ title: 'Billing details (after setup; needs VIEW_BILLING)' }),
  ])
  .describe('Before the organisation is set up, the setup form; after, the billing form.');

/** /api/v1/accounts: the signed-in user's account, its organisation's setup and billing details. */
export async function accountsRoutes(app: FastifyInstance) {
  const service = accountsService({ db: app.database.db });
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);

  // The one portal route a session that must first enrol a second factor may read: the web app
  // learns from it that it has to lead the member through enrolment.
  r.get(
    '/me',
    { schema: { response: { 200: AccountSchema } }, config: { duringTwoFactorEnrolment: true } },
    async (request) => service.me(requireSessionUser(request)),
  );

  r.put('/me/tour', { schema: { body: UpdateTourRequestSchema, response: { 200: AccountSchema } } }, async (request) =>
    service.updateTour(requireSessionUser(request), request.body),
  );

  r.put(
    '/security',
    { schema: { body: UpdateOrganizationSecurityRequestSchema, response: { 200: AccountSchema } } },
    async (request) => service.updateOrganizationSecurity(requireSessionUser(request), requestOrigin(request), request.body),
  );

  r.put(
    '/',
    {
      schema: { body: AccountUpdateBodySchema, response: { 200: AccountSchema } },
      // Which of the two forms the body must be, and whether the caller may send it at all, depends
      // on whether the organisation is set up: the body is checked against the caller's form first,
      // so a refusal is a 403 or names that form's fields, never "neither form" from the union.
      preValidation: async (request) => service.checkUpdate(requireSessionUser(request), request.body),
    },
    async (request) => service.update(requireSessionUser(request), requestOrigin(request), request.body),
  );

  r.get('/billing-country', { schema: { response: { 200: BillingCountryLockSchema } } }, async (request) =>
    service.billingCountryLock(requireSessionUser(request)),
  );

  r.get('/tax', { schema: { response: { 200: TaxRatesResponseSchema } } }, async () => service.taxRates());

  r.get('/freecredits', { schema: { response: { 200: FreeCreditTiersResponseSchema } } }, async () =>
    service.freeCreditTiers(),
  );
}
