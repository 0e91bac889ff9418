import { CountriesResponseSchema, SubdivisionsQuerySchema, SubdivisionsResponseSchema } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { countries, subdivisionsOf } from './geography.ts';

/** Reference data for the billing and setup forms; public, it holds nothing of any organisation. */
export async function utilsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/countries', { schema: { response: { 200: CountriesResponseSchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=86400');
    return countries;
  });
  r.get(
    '/subdivisions',
    { schema: { querystring: SubdivisionsQuerySchema, response: { 200: SubdivisionsResponseSchema } } },
    async (request, reply) => {
      const subdivisions = subdivisionsOf(request.query.countryCode);
      if (!subdivisions) {
        throw new AppError('NOT_FOUND', { message: 'Unknown country code.', field: 'countryCode' });
      }
      reply.header('cache-control', 'public, max-age=86400');
      return subdivisions;
    },
  );
}
