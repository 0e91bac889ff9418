import {
  ChangePasswordRequestSchema,
  ListMembersQuerySchema,
  ListMembersResponseSchema,
  ListRolesQuerySchema,
  ListRolesResponseSchema,
  MemberIdParamsSchema,
  MemberSchema,
  UpdateMemberRequestSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContentSchema } from '../../docs/no-content.ts';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { membersService } from './members.service.ts';

/** /api/v1/members: the organisation's members, each call checked against the caller's role. */
export async function membersRoutes(app: FastifyInstance) {
  const service = membersService({ db: app.database.db });
  const { rateLimits } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before body validation: a caller without a session learns 401, not what a valid body looks like.
  r.addHook('onRequest', app.authenticate);

  r.get(
    '/',
    { schema: { querystring: ListMembersQuerySchema, response: { 200: ListMembersResponseSchema } } },
    async (request) => service.list(requireSessionUser(request), request.query.limit),
  );

  r.get('/me', { schema: { response: { 200: MemberSchema } } }, async (request) =>
    service.me(requireSessionUser(request)),
  );

  r.get(
    '/:memberId',
    { schema: { params: MemberIdParamsSchema, response: { 200: MemberSchema } } },
    async (request) => service.get(requireSessionUser(request), request.params.memberId),
  );

  r.put(
    '/:memberId',
    {
      schema: {
        params: MemberIdParamsSchema,
        body: UpdateMemberRequestSchema,
        response: { 200: MemberSchema },
      },
    },
    async (request) => service.update(requireSessionUser(request), requestOrigin(request), request.params.memberId, request.body),
  );

  r.delete(
    '/:memberId',
    { schema: { params: MemberIdParamsSchema, response: { 204: NoContentSchema } } },
    async (request, reply) => {
      await service.remove(requireSessionUser(request), requestOrigin(request), request.params.memberId);
      return reply.status(204).send();
    },
  );

  r.put(
    '/:memberId/password',
    {
      schema: {
        params: MemberIdParamsSchema,
        body: ChangePasswordRequestSchema,
        response: { 204: NoContentSchema },
      },
      // The current password is checked here: a stolen session must not become a password oracle.
      preHandler: async (request, reply) => {
        await rateLimits.perIp(request, reply, 'change-password');
        await rateLimits.perAddress(reply, 'change-password', requireSessionUser(request).email);
      },
    },
    async (request, reply) => {
      await service.changePassword(requireSessionUser(request), request.params.memberId, request.body);
      return reply.status(204).send();
    },
  );
}

/** /api/v1/roles: the role vocabulary, for any signed-in user. */
export async function rolesRoutes(app: FastifyInstance) {
  const service = membersService({ db: app.database.db });
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.addHook('onRequest', app.authenticate);
  r.get(
    '/',
    { schema: { querystring: ListRolesQuerySchema, response: { 200: ListRolesResponseSchema } } },
    async (request) => service.listRoles(request.query.limit),
  );
}
