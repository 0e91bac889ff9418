import {
  SsoSettingsSchema,
  TestSsoConnectionRequestSchema,
  TestSsoConnectionResponseSchema,
  UpdateSsoConnectionRequestSchema,
  UpdateSsoSettingsRequestSchema,
  VerifySsoEmailDomainParamsSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';

/**
 * /api/v1/sso: the organisation's single sign-on, set up by a holder of MANAGE_SSO (beyond the spec). A
 * connection test reaches out to the identity provider and a domain's Verify to DNS, so both are
 * limited per client like sign-in.
 */
export async function ssoRoutes(app: FastifyInstance) {
  const service = app.sso;
  const { rateLimits } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);

  r.get('/', { schema: { response: { 200: SsoSettingsSchema } } }, async (request) =>
    service.getSettings(requireSessionUser(request)),
  );

  r.post(
    '/connection/test',
    {
      schema: { body: TestSsoConnectionRequestSchema, response: { 200: TestSsoConnectionResponseSchema } },
      onRequest: async (request, reply) => rateLimits.perIp(request, reply, 'sso-connection'),
    },
    async (request) => service.testConnection(requireSessionUser(request), request.body),
  );

  r.put(
    '/connection',
    {
      schema: { body: UpdateSsoConnectionRequestSchema, response: { 200: SsoSettingsSchema } },
      onRequest: async (request, reply) => rateLimits.perIp(request, reply, 'sso-connection'),
    },
    async (request) => service.updateConnection(requireSessionUser(request), requestOrigin(request), request.body),
  );

  r.delete('/connection', { schema: { response: { 200: SsoSettingsSchema } } }, async (request) =>
    service.deleteConnection(requireSessionUser(request), requestOrigin(request)),
  );

  r.put(
    '/settings',
    { schema: { body: UpdateSsoSettingsRequestSchema, response: { 200: SsoSettingsSchema } } },
    async (request) => service.updateSettings(requireSessionUser(request), requestOrigin(request), request.body),
  );

  r.post(
    '/email-domains/:domain/verify',
    {
      schema: { params: VerifySsoEmailDomainParamsSchema, response: { 200: SsoSettingsSchema } },
      onRequest: async (request, reply) => rateLimits.perIp(request, reply, 'sso-email-domain-verify'),
    },
    async (request) => service.verifyEmailDomain(requireSessionUser(request), requestOrigin(request), request.params.domain),
  );
}
