import {
  AccountSchema,
  FreeCreditTiersResponseSchema,
  InitialSetupRequestSchema,
  TaxRatesResponseSchema,
  UpdateAccountRequestSchema,
  type FreeCreditTier,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { getMembership } from '../members/members.service.ts';
import { listFreeCreditTiers, listTaxRates } from './accounts.repository.ts';
import { toAccount, updateAccount } from './accounts.service.ts';

const AccountUpdateBodySchema = z
  .union([
    InitialSetupRequestSchema.meta({ title: 'Organisation setup (before setup is done; super-admin)' }),
    UpdateAccountRequestSchema.meta({ title: 'Billing details (after setup; needs VIEW_BILLING)' }),
  ])
  .describe('Before the organisation is set up, the setup form; after, the billing form.');

export async function accountsRoutes(app: FastifyInstance) {
  const { db } = app.database;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('preHandler', app.authenticate);

  r.get('/me', { schema: { response: { 200: AccountSchema } } }, async (request) => {
    const user = requireSessionUser(request);
    return toAccount(user, await getMembership(db, user));
  });

  // The body is validated by the service: which form applies, and whether the caller may send it
  // at all, depends on whether setup is done. The schema documents both forms; it is not applied
  // before the service, which answers each form's own field errors.
  r.put(
    '/',
    {
      schema: { body: AccountUpdateBodySchema, response: { 200: AccountSchema } },
      validatorCompiler: () => (body) => ({ value: body }),
    },
    async (request) => updateAccount(db, requireSessionUser(request), request.body),
  );

  r.get('/tax', { schema: { response: { 200: TaxRatesResponseSchema } } }, async () => {
    const rows = await listTaxRates(db);
    const rates: Record<string, number> = {};
    let defaultRate = 0;
    for (const row of rows) {
      if (row.countryCode === null) defaultRate = Number(row.ratePercent);
      else rates[row.countryCode] = Number(row.ratePercent);
    }
    return { defaultRate, rates };
  });

  r.get('/freecredits', { schema: { response: { 200: FreeCreditTiersResponseSchema } } }, async () => {
    const rows = await listFreeCreditTiers(db);
    return rows.map((row): FreeCreditTier => ({
      start: row.startCents / 100,
      credit: row.creditCents / 100,
    }));
  });
}
