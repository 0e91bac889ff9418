import {
  ApplicationIdParamsSchema,
  ApplicationSchema,
  CreateApplicationRequestSchema,
  CreateApplicationResponseSchema,
  DeactivateApplicationRequestSchema,
  ListApplicationsQuerySchema,
  ListApplicationsResponseSchema,
  UpdateApplicationRequestSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { requestOrigin } from '../audit-log/request-origin.ts';
import { enqueueProvisioning } from './applications.jobs.ts';
import { applicationsService } from './applications.service.ts';

/** /api/v1/applications: the organisation's applications as the caller may see them, and their regions. */
export async function applicationsRoutes(app: FastifyInstance) {
  const service = applicationsService({
    db: app.database.db,
    regions: app.regions,
    productName: app.config.productName,
    // The app row is already stored: a failed enqueue is logged, and the sweep (at start and every
    // PROVISIONING_SWEEP_SECONDS) enqueues applications left initializing without a job.
    enqueueProvisioning: (applicationId) =>
      enqueueProvisioning(app.jobQueue, applicationId).catch((error: unknown) => {
        app.log.error({ err: error, applicationId }, 'could not enqueue provisioning');
      }),
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before body validation: a caller without a session learns 401, not what a valid body looks like.
  r.addHook('onRequest', app.authenticate);

  r.get(
    '/',
    {
      // The schema still types the handler's result and describes the answer in the OpenAPI document.
      schema: { querystring: ListApplicationsQuerySchema, response: { 200: ListApplicationsResponseSchema } },
      // The list page asks for up to 10,000 applications, and checking each one against the schema
      // again cost more than writing the JSON. The service builds every field from typed rows, so
      // the answer is the same without that pass.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request) => service.list(requireSessionUser(request), request.query.limit),
  );

  r.post(
    '/',
    { schema: { body: CreateApplicationRequestSchema, response: { 201: CreateApplicationResponseSchema } } },
    async (request, reply) => {
      const created = await service.create(requireSessionUser(request), requestOrigin(request), request.body);
      return reply.status(201).send([created]);
    },
  );

  r.get(
    '/:applicationId',
    { schema: { params: ApplicationIdParamsSchema, response: { 200: ApplicationSchema } } },
    async (request) => service.get(requireSessionUser(request), request.params.applicationId),
  );

  r.put(
    '/:applicationId',
    {
      schema: {
        params: ApplicationIdParamsSchema,
        body: UpdateApplicationRequestSchema,
        response: { 200: ApplicationSchema },
      },
    },
    async (request) =>
      service.update(
        requireSessionUser(request),
        requestOrigin(request),
        request.params.applicationId,
        request.body.name,
      ),
  );

  r.post(
    '/:applicationId/deactivate',
    {
      schema: {
        params: ApplicationIdParamsSchema,
        body: DeactivateApplicationRequestSchema,
        response: { 200: ApplicationSchema },
      },
    },
    async (request) =>
      service.deactivate(
        requireSessionUser(request),
        requestOrigin(request),
        request.params.applicationId,
        request.body.confirmName,
      ),
  );

  r.post(
    '/:applicationId/reactivate',
    { schema: { params: ApplicationIdParamsSchema, response: { 200: ApplicationSchema } } },
    async (request) => service.reactivate(requireSessionUser(request), requestOrigin(request), request.params.applicationId),
  );
}
