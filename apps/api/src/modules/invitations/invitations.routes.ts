import {
  ConfirmInvitationRequestSchema,
  ConfirmInvitationResponseSchema,
  CreateInvitationsRequestSchema,
  CreateInvitationsResponseSchema,
  InvitationIdParamsSchema,
  InvitationSchema,
  ListInvitationsQuerySchema,
  ListInvitationsResponseSchema,
  VerifyInvitationRequestSchema,
  VerifyInvitationResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { portalName } from '../../auth/auth.ts';
import { NoContentSchema } from '../../docs/no-content.ts';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { invitationsService } from './invitations.service.ts';

/** One wiring for both route sets: the app's database, mailer and identity service. */
function invitationsServiceOf(app: FastifyInstance) {
  const { config } = app;
  return invitationsService({
    db: app.database.db,
    mailer: app.mailer,
    auth: app.auth,
    publicUrl: config.publicUrl,
    portalName: portalName(config),
    log: app.log,
  });
}

/** /api/v1/invitations: the organisation's open invitations, for members who may see or send them. */
export async function invitationsRoutes(app: FastifyInstance) {
  const service = invitationsServiceOf(app);
  const { rateLimits } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);

  r.get(
    '/',
    { schema: { querystring: ListInvitationsQuerySchema, response: { 200: ListInvitationsResponseSchema } } },
    async (request) => service.list(requireSessionUser(request), request.query.limit),
  );

  r.post(
    '/',
    {
      schema: { body: CreateInvitationsRequestSchema, response: { 201: CreateInvitationsResponseSchema } },
      preHandler: async (request, reply) =>
        rateLimits.mail(request, reply, 'invitation', request.body.emails),
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(requireSessionUser(request), requestOrigin(request), request.body)),
  );

  r.delete(
    '/:invitationId',
    { schema: { params: InvitationIdParamsSchema, response: { 204: NoContentSchema } } },
    async (request, reply) => {
      await service.cancel(requireSessionUser(request), requestOrigin(request), request.params.invitationId);
      return reply.status(204).send();
    },
  );

  r.post(
    '/:invitationId/resend',
    {
      schema: { params: InvitationIdParamsSchema, response: { 200: InvitationSchema } },
      preHandler: async (request, reply) =>
        rateLimits.mail(request, reply, 'invitation', [request.params.invitationId]),
    },
    async (request) => service.resend(requireSessionUser(request), requestOrigin(request), request.params.invitationId),
  );
}

/**
 * /api/invitations: the invitee's side, before they have an account. The code in the mailed link
 * is the credential; confirming creates the account and signs the invitee in.
 */
export async function publicInvitationsRoutes(app: FastifyInstance) {
  const service = invitationsServiceOf(app);
  const { rateLimits } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The code is the credential: guesses are limited per client IP (codes are 256 bits, decision 009).
  r.addHook('onRequest', async (request, reply) => rateLimits.perIp(request, reply, 'invitation-code'));

  r.post(
    '/verify',
    { schema: { body: VerifyInvitationRequestSchema, response: { 200: VerifyInvitationResponseSchema } } },
    async (request) => service.verify(request.body.code),
  );

  r.post(
    '/:invitationId/confirm',
    {
      schema: {
        params: InvitationIdParamsSchema,
        body: ConfirmInvitationRequestSchema,
        response: { 201: ConfirmInvitationResponseSchema },
      },
    },
    async (request, reply) => {
      const { member, cookies } = await service.confirm(request.params.invitationId, requestOrigin(request), request.body);
      reply.header('set-cookie', cookies);
      return reply.status(201).send({ member });
    },
  );
}
