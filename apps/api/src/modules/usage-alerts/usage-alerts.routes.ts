import {
  ListUsageAlertNoticesResponseSchema,
  UsageAlertSettingsResponseSchema,
  UsageAlertSettingsSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { usageAlertsService } from './usage-alerts.service.ts';

/**
 * /api/v1/usage-alerts: the organisation's usage alerts (VIEW_PLAN_DETAIL reads, MANAGE_USAGE_ALERTS
 * saves) and this month's notices for the application list's banner (decision 044).
 */
export async function usageAlertsRoutes(app: FastifyInstance) {
  const service = usageAlertsService({ db: app.database.db });
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before body validation: a caller without a session learns 401, not what a valid body looks like.
  r.addHook('onRequest', app.authenticate);

  r.get('/', { schema: { response: { 200: UsageAlertSettingsResponseSchema } } }, async (request) =>
    service.get(requireSessionUser(request)),
  );

  r.put(
    '/',
    { schema: { body: UsageAlertSettingsSchema, response: { 200: UsageAlertSettingsResponseSchema } } },
    async (request) => service.put(requireSessionUser(request), requestOrigin(request), request.body),
  );

  r.get(
    '/notices',
    { schema: { response: { 200: ListUsageAlertNoticesResponseSchema } } },
    async (request) => ({
      results: await service.notices(requireSessionUser(request)),
    }),
  );
}
