import {
  ApiKeyIdSchema,
  ApiKeySchema,
  ApplicationIdParamsSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeySchema,
  ListApiKeysResponseSchema,
  RotateApiKeyRequestSchema,
  RotateApiKeyResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { apiKeysService } from './api-keys.service.ts';

const ApiKeyParamsSchema = ApplicationIdParamsSchema.extend({ keyId: ApiKeyIdSchema });

/** /api/v1/applications/:applicationId/api-keys: an application's keys, kept by its region (decision 043). */
export async function apiKeysRoutes(app: FastifyInstance) {
  const service = apiKeysService({
    db: app.database.db,
    regions: app.regions,
    logError: (error, message) => app.log.error({ err: error }, message),
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before body validation: a caller without a session learns 401, not what a valid body looks like.
  r.addHook('onRequest', app.authenticate);

  r.get(
    '/:applicationId/api-keys',
    { schema: { params: ApplicationIdParamsSchema, response: { 200: ListApiKeysResponseSchema } } },
    async (request) => service.list(requireSessionUser(request), request.params.applicationId),
  );

  r.post(
    '/:applicationId/api-keys',
    {
      schema: {
        params: ApplicationIdParamsSchema,
        body: CreateApiKeyRequestSchema,
        response: { 201: CreatedApiKeySchema },
      },
    },
    async (request, reply) => {
      const created = await service.create(
        requireSessionUser(request),
        requestOrigin(request),
        request.params.applicationId,
        request.body.name,
      );
      return reply.status(201).send(created);
    },
  );

  r.post(
    '/:applicationId/api-keys/:keyId/rotate',
    {
      schema: {
        params: ApiKeyParamsSchema,
        body: RotateApiKeyRequestSchema,
        response: { 201: RotateApiKeyResponseSchema },
      },
    },
    async (request, reply) => {
      const rotation = await service.rotate(
        requireSessionUser(request),
        requestOrigin(request),
        request.params.applicationId,
        request.params.keyId,
        request.body,
      );
      return reply.status(201).send(rotation);
    },
  );

  r.post(
    '/:applicationId/api-keys/:keyId/revoke',
    { schema: { params: ApiKeyParamsSchema, response: { 200: ApiKeySchema } } },
    async (request) =>
      service.revoke(
        requireSessionUser(request),
        requestOrigin(request),
        request.params.applicationId,
        request.params.keyId,
      ),
  );
}
